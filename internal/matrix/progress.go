package matrix

import (
	"fmt"
	"io"
	"strings"
)

// Progress writes a progress line per profile, "[2/4] human ...", to w. On a
// terminal each line replaces the previous one (a carriage return, no
// newline) and Finish erases the last; elsewhere each step is a line of its
// own and Finish does nothing.
type Progress struct {
	w        io.Writer
	terminal bool
	width    int
}

// NewProgress returns a progress writer to w; terminal says whether w is a
// terminal.
func NewProgress(w io.Writer, terminal bool) *Progress {
	return &Progress{w: w, terminal: terminal}
}

// Step writes the line of one step; it fits Options.Progress.
func (p *Progress) Step(s Step) {
	line := fmt.Sprintf("[%d/%d] %s ...", s.Index, s.Total, cell(s.Profile.Name, MaxNameLen+8))
	if !p.terminal {
		fmt.Fprintln(p.w, line)
		return
	}
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	p.width = len(line)
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
}

// Finish erases the last line on a terminal.
func (p *Progress) Finish() {
	if !p.terminal || p.width == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
	p.width = 0
}
