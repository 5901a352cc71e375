package negotiation

import (
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func TestNegotiatorDoesNotAllocateForDisabledLogging(t *testing.T) {
	core, _ := observer.New(zap.ErrorLevel)
	n := New(zap.New(core))
	p := FromTags("agent", "@")
	if allocs := testing.AllocsPerRun(100, func() { n.logProfile(p, InExtensions) }); allocs != 0 {
		t.Errorf("logging a profile allocates %v times per call with logging disabled", allocs)
	}
}
