package conformance_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/contentneg/contentneg/conformance"
)

func TestProfilesAreTheProjectsVectors(t *testing.T) {
	own, err := os.ReadFile(filepath.Join("..", "testdata", "profiles.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(own, conformance.ProfilesJSON) {
		t.Error("conformance/profiles.json differs from testdata/profiles.json: copy the one that changed")
	}
}
