package negotiation_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
)

func TestMemoryStoreKeepsAndForgets(t *testing.T) {
	s := negotiation.NewMemoryStore(0)
	agent, human := negotiation.FromTags("agent"), negotiation.FromTags("human")

	s.Save("a", agent)
	s.Save("b", human)
	if got, ok := s.Load("a"); !ok || got != agent {
		t.Fatalf("Load(a) = %v, %v", got, ok)
	}
	s.Save("a", human)
	if got, _ := s.Load("a"); got != human {
		t.Errorf("Save did not replace: %v", got)
	}
	s.Forget("a")
	if _, ok := s.Load("a"); ok {
		t.Error("a forgotten session is still kept")
	}
	s.Forget("never-saved")
	if negotiation.StoreLen(s) != 1 {
		t.Errorf("Len = %d, want 1", negotiation.StoreLen(s))
	}
}

func TestMemoryStoreIgnoresTheEmptySessionID(t *testing.T) {
	s := negotiation.NewMemoryStore(4)
	s.Save("", negotiation.FromTags("agent"))
	if _, ok := s.Load(""); ok || negotiation.StoreLen(s) != 0 {
		t.Errorf("the empty session id was kept (Len %d)", negotiation.StoreLen(s))
	}
}

func TestMemoryStoreIsBounded(t *testing.T) {
	const bound = 3
	s := negotiation.NewMemoryStore(bound)
	p := negotiation.FromTags("agent")
	s.Save("s0", p)
	s.Save("s1", p)
	s.Save("s2", p)
	s.Load("s0") // s1 is now the least recently used
	s.Save("s3", p)

	tests := []struct {
		give string
		want bool
	}{
		{"s0", true}, {"s1", false}, {"s2", true}, {"s3", true},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if _, ok := s.Load(tt.give); ok != tt.want {
				t.Errorf("Load(%s) kept = %v, want %v", tt.give, ok, tt.want)
			}
		})
	}
	for i := range 1000 {
		s.Save(fmt.Sprint("extra", i), p)
	}
	if negotiation.StoreLen(s) != bound {
		t.Errorf("Len = %d after 1000 saves, want %d", negotiation.StoreLen(s), bound)
	}
}

func TestMemoryStoreConcurrentUse(t *testing.T) {
	s := negotiation.NewMemoryStore(64)
	p := negotiation.FromTags("agent")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				id := fmt.Sprint("s", (g*500+i)%100)
				s.Save(id, p)
				if got, ok := s.Load(id); ok && got != p {
					t.Errorf("Load(%s) = %v", id, got)
				}
				if i%7 == 0 {
					s.Forget(id)
				}
			}
		})
	}
	wg.Wait()
	if negotiation.StoreLen(s) > 64 {
		t.Errorf("Len = %d, want at most 64", negotiation.StoreLen(s))
	}
}
