package journeymcp

import (
	"fmt"
	"time"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

// The find_connections templates by verbosity, in markdown and in plain
// text. Markdown data strings arrive escaped; clock, date, duration and
// between are the renderers' time functions (see renderers.NewTemplate).
// Shared pieces are {{define}}d once and prepended to each template; the
// variable $day holds the day of the first connection, and a connection on
// another day (a search rolls over midnight) shows its own.

// connectionsDefs are the pieces every template uses, each of one
// connection:
//
//	changes  "direct", "1 change", "2 changes"
//	trains   "IC 1 711 to Bern, IC 6 906": the trains and where to change
//	count    of the list of connections: "3 connections"
//	arrival  "10:49", or "06:52 (Sat 21 Nov 2026)" after midnight
const connectionsDefs = `{{define "changes"}}{{if eq .changes "0"}}direct{{else if eq .changes "1"}}1 change{{else}}{{.changes}} changes{{end}}{{end}}` +
	`{{define "arrival"}}{{clock .arrival}}{{if ne (date .arrival) (date .departure)}} ({{date .arrival}}){{end}}{{end}}` +
	`{{define "trains"}}{{range $i, $l := .legs}}{{if $i}} to {{$l.from}}, {{end}}{{$l.train}}{{end}}{{end}}` +
	`{{define "count"}}{{len .}} {{if eq (len .) 1}}connection{{else}}connections{{end}}{{end}}`

// minChangeMinutes is journey.MinChange in minutes, for the verbose notes.
const minChangeMinutes = int(journey.MinChange / time.Minute)

// noConnection is said when a search found nothing.
const noConnection = "No connection departs within 24 hours of the requested time."

// Markdown.
const (
	// legMD is one train ride.
	legMD = `{{define "leg"}}- {{clock .departure}}–{{clock .arrival}} **{{.train}}** from {{.from}} (platform {{.departure_platform}}) to {{.to}} (platform {{.arrival_platform}}){{end}}`

	// summaryMD is a connection's heading text.
	summaryMD = `{{define "summary"}}{{clock .departure}} → {{template "arrival" .}} · {{duration .duration}} · {{template "changes" .}}{{end}}`

	connectionsCompactMD = connectionsDefs + `{{$day := ""}}**{{.from}} → {{.to}}**
{{- with .connections}}{{$day = date (index . 0).departure}} · {{$day}}
{{range .}}
- {{clock .departure}}–{{clock .arrival}} ({{duration .duration}}) {{template "trains" .}}{{if ne (date .departure) $day}} · {{date .departure}}{{end}}
{{- end}}
{{- else}}

` + noConnection + `{{end}}`

	connectionsStandardMD = connectionsDefs + legMD + summaryMD + `{{$day := ""}}## {{.from}} → {{.to}}

{{with .connections}}{{$day = date (index . 0).departure}}{{$day}} · {{template "count" .}}
{{- range .}}

### {{template "summary" .}}{{if ne (date .departure) $day}} · {{date .departure}}{{end}}
{{range .legs}}
{{template "leg" .}}
{{- end}}
{{- end}}
{{- else}}` + noConnection + `{{end}}`
)

// connectionsVerboseMD adds what a traveller checks before leaving: the
// time zone, the shortest change, and the time and platforms of each change.
var connectionsVerboseMD = connectionsDefs + legMD + summaryMD + `{{$day := ""}}## {{.from}} → {{.to}}

{{with .connections}}{{$day = date (index . 0).departure}}{{$day}} · {{template "count" .}}

` + fmt.Sprintf("Times are local Swiss time (UTC+01:00, all year). A change takes at least %d minutes; each one is listed with its platforms.", minChangeMinutes) + `
{{- range .}}

### {{template "summary" .}}{{if ne (date .departure) $day}} · {{date .departure}}{{end}}
{{$prev := ""}}{{range .legs}}
{{- if $prev}}
- *change at {{.from}}: {{between $prev.arrival .departure}}, {{if eq $prev.arrival_platform .departure_platform}}same platform {{.departure_platform}}{{else}}platform {{$prev.arrival_platform}} to {{.departure_platform}}{{end}}*{{end}}
{{template "leg" .}}{{$prev = .}}
{{- end}}
{{- end}}
{{- else}}` + noConnection + `{{end}}`

// Plain text.
const (
	// legText is one train ride, indented under its connection.
	legText = `{{define "leg"}}  {{clock .departure}}-{{clock .arrival}} {{.train}} from {{.from}} (platform {{.departure_platform}}) to {{.to}} (platform {{.arrival_platform}}){{end}}`

	connectionsCompactText = connectionsDefs + `{{$day := ""}}{{.from}} → {{.to}}
{{- with .connections}}{{$day = date (index . 0).departure}}, {{$day}}
{{- range .}}
{{clock .departure}}-{{clock .arrival}} {{duration .duration}}: {{template "trains" .}}{{if ne (date .departure) $day}} ({{date .departure}}){{end}}
{{- end}}
{{- else}}
` + noConnection + `{{end}}`

	connectionsStandardText = connectionsDefs + legText + `{{$day := ""}}{{.from}} → {{.to}}
{{with .connections}}{{$day = date (index . 0).departure}}{{$day}}, {{template "count" .}}
{{- range .}}

{{clock .departure}} → {{template "arrival" .}}, {{duration .duration}}, {{template "changes" .}}{{if ne (date .departure) $day}}, {{date .departure}}{{end}}
{{- range .legs}}
{{template "leg" .}}
{{- end}}
{{- end}}
{{- else}}` + noConnection + `{{end}}`
)

// connectionsVerboseText adds the changes, as connectionsVerboseMD does.
var connectionsVerboseText = connectionsDefs + legText + `{{$day := ""}}{{.from}} → {{.to}}
{{with .connections}}{{$day = date (index . 0).departure}}{{$day}}, {{template "count" .}}
` + fmt.Sprintf("Times are local Swiss time (UTC+01:00, all year). A change takes at least %d minutes.", minChangeMinutes) + `
{{- range .}}

{{clock .departure}} → {{template "arrival" .}}, {{duration .duration}}, {{template "changes" .}}{{if ne (date .departure) $day}}, {{date .departure}}{{end}}
{{- $prev := ""}}{{range .legs}}
{{- if $prev}}
  change at {{.from}}: {{between $prev.arrival .departure}}, {{if eq $prev.arrival_platform .departure_platform}}same platform {{.departure_platform}}{{else}}platform {{$prev.arrival_platform}} to {{.departure_platform}}{{end}}{{end}}
{{template "leg" .}}{{$prev = .}}
{{- end}}
{{- end}}
{{- else}}` + noConnection + `{{end}}`
