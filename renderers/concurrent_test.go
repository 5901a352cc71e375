package renderers

import (
	"sync"
	"testing"

	"github.com/contentneg/contentneg/format"
)

// TestConcurrentRendering renders the golden values from many goroutines at once (the scratch
// buffers are pooled) and checks every result against a sequential rendering; run it with -race.
func TestConcurrentRendering(t *testing.T) {
	type job struct {
		value []byte
		opts  Options
		md    string
		text  string
	}
	var jobs []job
	for _, name := range goldenCases {
		for _, v := range []format.Verbosity{format.Compact, format.Standard, format.Verbose} {
			j := job{value: readTestdata(t, name+".json"), opts: Options{Verbosity: v, Units: goldenUnits}}
			var err error
			j.md, err = Generic{}.markdown(j.value, j.opts)
			requireNoError(t, err)
			j.text, err = Generic{}.text(j.value, j.opts)
			requireNoError(t, err)
			jobs = append(jobs, j)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				for _, j := range jobs {
					md, err := Generic{}.markdown(j.value, j.opts)
					text, err2 := Generic{}.text(j.value, j.opts)
					if err != nil || err2 != nil || md != j.md || text != j.text {
						t.Errorf("concurrent rendering differs: %v, %v", err, err2)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
