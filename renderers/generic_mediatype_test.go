package renderers_test

import (
	"errors"
	"testing"

	"github.com/contentneg/contentneg/renderers"
)

func TestGenericRefusesOtherMediaTypes(t *testing.T) {
	_, err := renderers.Generic{}.Render([]byte(`{}`), renderers.Options{MediaType: "text/csv"})
	if !errors.Is(err, renderers.ErrMediaType) {
		t.Errorf("err = %v, want ErrMediaType", err)
	}
}
