package gateway

import (
	"github.com/contentneg/contentneg/internal/rawjson"
)

// ServerInfo is what [Gateway.Check] learnt of the upstream: what it says
// of itself at initialize, and what it lists.
type ServerInfo struct {
	Name, Title, Version string
	ProtocolVersion      string
	// Capabilities and the rest are the upstream's JSON.
	Capabilities []byte
	Instructions string
	// Tools and Resources are the names and URIs the upstream lists.
	Tools, Resources []string
}

func serverInfo(res []byte) *ServerInfo {
	str := func(doc []byte, key string) string {
		v, _ := rawjson.Get(doc, key)
		s, _ := rawjson.String(v)
		return s
	}
	info := &ServerInfo{ProtocolVersion: str(res, "protocolVersion"), Instructions: str(res, "instructions")}
	if si, ok := rawjson.Get(res, "serverInfo"); ok {
		info.Name, info.Title, info.Version = str(si, "name"), str(si, "title"), str(si, "version")
	}
	info.Capabilities, _ = rawjson.Get(res, "capabilities")
	return info
}
