package sdk_test

import (
	"testing"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		give string
		want sdk.Kind
	}{
		{"tools/call", sdk.ToolCall},
		{"resources/read", sdk.ResourceRead},
		{"prompts/get", sdk.PromptGet},
		{"elicitation/create", sdk.Question},
		{"initialize", sdk.Handshake},
		{"server/discover", sdk.Handshake},
		{"tools/list", sdk.Other},
		{"", sdk.Other},
		{"Tools/Call", sdk.Other},
	}
	for _, tt := range tests {
		if got := sdk.KindOf(tt.give); got != tt.want {
			t.Errorf("KindOf(%q) = %v, want %v", tt.give, got, tt.want)
		}
	}
}
