package gateway

// Names returns what the upstream listed last, in its order: the names of
// its tools, and the URIs of its resources followed by the URI templates of
// its resource templates (the names a config file may give settings to).
func (g *Gateway) Names() (tools, resources []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	tools = make([]string, 0, len(g.snap.tools))
	for _, t := range g.snap.tools {
		tools = append(tools, t.Name)
	}
	resources = make([]string, 0, len(g.snap.resources)+len(g.snap.templates))
	for _, r := range g.snap.resources {
		resources = append(resources, r.URI)
	}
	for _, t := range g.snap.templates {
		resources = append(resources, t.URITemplate)
	}
	return tools, resources
}
