package weathermcp

import (
	"context"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
)

// AlertInput is the input of set_alert.
type AlertInput struct {
	City       string  `json:"city" jsonschema:"name of the city"`
	ThresholdC float64 `json:"threshold_c" jsonschema:"alert when the temperature falls below this, in degrees Celsius"`
}

// Alert is an alert that was set.
type Alert struct {
	Location   string  `json:"location" jsonschema:"display name of the city"`
	ThresholdC float64 `json:"threshold_c" jsonschema:"the alert fires below this temperature, in degrees Celsius"`
}

// Alerts is the output of list_alerts.
type Alerts struct {
	Alerts []Alert `json:"alerts" jsonschema:"the alerts set so far, oldest first"`
}

// maxAlerts bounds the demo's store.
const maxAlerts = 100

// alertStore keeps the alerts set on one server.
type alertStore struct {
	mu     sync.Mutex
	alerts []Alert
}

func (s *alertStore) add(a Alert) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.alerts) >= maxAlerts {
		return fmt.Errorf("no more than %d alerts can be set", maxAlerts)
	}
	s.alerts = append(s.alerts, a)
	return nil
}

// list returns a copy of the alerts, never nil: an empty list is [] in JSON.
func (s *alertStore) list() []Alert {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(make([]Alert, 0, len(s.alerts)), s.alerts...)
}

// confirmSchema is the form of set_alert's question: one yes/no field.
var confirmSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"confirm": {Type: "boolean", Description: "set the alert"},
	},
	Required: []string{"confirm"},
}

// setAlert sets an alert only once the person confirmed it: a client that
// cannot ask (it declared !interactive, or has no elicitation capability)
// gets a tool error, and no alert is set.
func (h handlers) setAlert(ctx context.Context, req *mcp.CallToolRequest, in AlertInput) (*mcp.CallToolResult, Alert, error) {
	city, err := h.svc.Resolve(in.City)
	if err != nil {
		return nil, Alert{}, err
	}
	alert := Alert{Location: city.Name, ThresholdC: in.ThresholdC}
	message, schema := Confirm(alert)
	answer, ask, err := middleware.Elicit(ctx, req, "confirm", &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	switch {
	case err != nil:
		return nil, Alert{}, fmt.Errorf("the alert for %s was not set: it needs a confirmation this client cannot give (%w)", alert.Location, err)
	case ask != nil:
		return ask, Alert{}, nil
	case answer.Action != "accept" || answer.Content["confirm"] != true:
		return nil, Alert{}, fmt.Errorf("the alert for %s was not set: not confirmed (%s)", alert.Location, answer.Action)
	}
	if err := h.alerts.add(alert); err != nil {
		return nil, Alert{}, err
	}
	return nil, alert, nil
}

func (h handlers) listAlerts(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, Alerts, error) {
	return nil, Alerts{Alerts: h.alerts.list()}, nil
}
