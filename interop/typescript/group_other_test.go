//go:build !unix

package typescript

import (
	"os/exec"
	"runtime"
)

// startGroup does nothing where there are no process groups.
func startGroup(*exec.Cmd) {}

// killGroup kills node itself; the demos it spawned end with their stdin
// or their parent.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func executableSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
