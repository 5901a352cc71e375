//go:build !unix

package featuretags_test

import (
	"testing"
	"time"
)

func reportCPU(*testing.B, time.Duration) {}

func cpuTime() time.Duration { return 0 }
