package weather

import (
	"math"
	"testing"
)

func TestNoiseRanges(t *testing.T) {
	const samples = 20000
	var sumU, sumN, sumN2 float64
	for i := range samples {
		day := int64(i - samples/2)
		u := uniform("bern", day, i%25, chTemp)
		if u < 0 || u >= 1 {
			t.Fatalf("uniform = %v, want [0, 1)", u)
		}
		n := normal("bern", day, i%25, chTemp)
		if n < -3 || n > 3 {
			t.Fatalf("normal = %v, want [-3, 3]", n)
		}
		sumU += u
		sumN += n
		sumN2 += n * n
	}
	if mean := sumU / samples; math.Abs(mean-0.5) > 0.01 {
		t.Errorf("mean of uniform = %.4f, want 0.5", mean)
	}
	mean := sumN / samples
	if math.Abs(mean) > 0.03 {
		t.Errorf("mean of normal = %.4f, want 0", mean)
	}
	if v := sumN2/samples - mean*mean; math.Abs(v-1) > 0.05 {
		t.Errorf("variance of normal = %.4f, want 1", v)
	}
}

func TestHashInputsMatter(t *testing.T) {
	base := hash("bern", 20000, 13, chTemp)
	tests := []struct {
		name string
		give uint64
	}{
		{"slug", hash("bergen", 20000, 13, chTemp)},
		{"day", hash("bern", 20001, 13, chTemp)},
		{"hour", hash("bern", 20000, 14, chTemp)},
		{"channel", hash("bern", 20000, 13, chWind)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.give == base {
				t.Errorf("changing the %s does not change the hash", tt.name)
			}
		})
	}
	if again := hash("bern", 20000, 13, chTemp); again != base {
		t.Errorf("hash is not a function of its inputs: %x then %x", base, again)
	}
}
