package sdk

import (
	"regexp"
	"strconv"
)

// bridgeRefused matches the error of go-sdk v1.8.0's legacy-era bridge
// (mcp/mrtr.go, serverMultiRoundTripMiddleware) when the inputRequests it
// fulfils ask a client without the elicitation capability:
//
//	multi-round-trip: fulfilling input request "ID": client does not support elicitation
//
// The bridge runs inside every receiving middleware, so the gate never sees
// those inputRequests; the SDK gives it only this error, of no type of its
// own (ServerSession.Elicit's fmt.Errorf). This is the one place where the
// project reads an SDK's message text; TestBridgeRefusalPinned runs the
// SDK's bridge and fails when the text changes.
var bridgeRefused = regexp.MustCompile(`^multi-round-trip: fulfilling input request ("(?:[^"\\]|\\.)*"): client does not support elicitation$`)

// BridgeRefusal returns the id of the elicitation input request that the
// SDK's legacy-era bridge could not fulfil because the client has no
// elicitation capability, when err is that refusal.
func BridgeRefusal(err error) (id string, ok bool) {
	if err == nil {
		return "", false
	}
	m := bridgeRefused.FindStringSubmatch(err.Error())
	if m == nil {
		return "", false
	}
	id, uerr := strconv.Unquote(m[1])
	return id, uerr == nil
}
