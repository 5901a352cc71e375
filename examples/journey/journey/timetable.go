package journey

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
)

// timetableJSON is the embedded timetable. Its format is the file* types
// below; parseNetwork checks it.
//
//go:embed timetable.json
var timetableJSON []byte

// fileTimetable is the top level of timetable.json.
type fileTimetable struct {
	Stations []fileStation `json:"stations"`
	Lines    []fileLine    `json:"lines"`
}

// fileStation is a station of timetable.json.
type fileStation struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Aliases   []string `json:"aliases"` // other names it is found by
	Lat       float64  `json:"lat"`
	Lon       float64  `json:"lon"`
	Platforms []string `json:"platforms"`
}

// fileLine is a line of timetable.json: its stops in the outbound direction
// and the daily pattern of each direction. The inbound runs call at the
// same stops in reverse order with the same running and dwell times.
type fileLine struct {
	Name        string      `json:"name"`
	FirstNumber int         `json:"first_number"` // train number of the first outbound run
	Stops       []fileStop  `json:"stops"`
	Outbound    filePattern `json:"outbound"`
	Inbound     filePattern `json:"inbound"`
}

// fileStop is a stop of a line. Arr and Dep are minutes after the
// departure from the first stop; the first stop has 0 and 0, the last stop
// Arr equal to Dep.
type fileStop struct {
	Station        string `json:"station"` // station id
	Arr            int    `json:"arr"`
	Dep            int    `json:"dep"`
	Platform       string `json:"platform"`        // outbound
	ReturnPlatform string `json:"return_platform"` // inbound
}

// filePattern is the daily pattern of one direction of a line: a run
// starts at First and then every Every minutes up to and including Last.
type filePattern struct {
	First string `json:"first"` // "HH:MM"
	Last  string `json:"last"`  // "HH:MM"
	Every int    `json:"every"` // minutes
}

// decodeTimetable decodes data strictly: unknown fields and trailing data
// are errors.
func decodeTimetable(data []byte) (*fileTimetable, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var tt fileTimetable
	if err := dec.Decode(&tt); err != nil {
		return nil, fmt.Errorf("decode timetable: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("decode timetable: data after the top-level object")
	}
	return &tt, nil
}
