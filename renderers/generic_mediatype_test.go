package renderers

import (
	"errors"
	"testing"
)

func TestGenericRefusesOtherMediaTypes(t *testing.T) {
	_, err := Generic{}.Render([]byte(`{}`), Options{MediaType: "text/csv"})
	if !errors.Is(err, errMediaType) {
		t.Errorf("err = %v, want errMediaType", err)
	}
}
