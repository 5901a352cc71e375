//go:build unix

package typescript

import (
	"os/exec"
	"syscall"
)

// startGroup makes cmd the leader of a new process group, which its
// children (the demo servers node spawns) join.
func startGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group. It is a no-op if nothing of the
// group is left.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}

func executableSuffix() string { return "" }
