package shaping

import (
	"context"
	"strings"

	"github.com/contentneg/contentneg/negotiation"
)

// The steps of a call that [ServeTool], [ServeResource], [ServePrompt] and
// [Send] take, under the names the tests of package shaping_test reach them
// by. They are not part of the package's API: front ends serve whole calls.

type (
	Call             = call
	Result           = toolResult
	Plan             = toolPlan
	Client           = client
	StillAskingError = stillAskingError
)

var (
	ErrQuestionTimeout = errQuestionTimeout
	ErrSessionEnded    = errSessionEnded
	ErrShutdown        = errShutdown
	Unanswered         = unanswered
)

// ParseTags splits a list of default tags as a command-line flag gives it
// ("human, format=markdown").
func ParseTags(list string) negotiation.Settings {
	var s negotiation.Settings
	for t := range strings.SplitSeq(list, ",") {
		if t = strings.TrimSpace(t); t != "" {
			s.Features = append(s.Features, t)
		}
	}
	return s
}

func Gate[R any](c *Call, invoke func(refused []string, state string) (R, error), asked func(R) ([]string, string)) (R, error) {
	return gate(c, invoke, asked)
}

func (s *Shaper) Tool(p *negotiation.Profile, r Result) Plan { return s.planTool(p, r) }

func (s *Shaper) Resource(p *negotiation.Profile, uri string, contents []Content) []ContentPlan {
	return s.planResource(p, uri, false, contents)
}

func (s *Shaper) ReadResource(p *negotiation.Profile, uri string, exact bool, contents []Content) []ContentPlan {
	return s.planResource(p, uri, exact, contents)
}

func (s *Shaper) Prompt(p *negotiation.Profile, texts []string) []string {
	return s.planPrompt(p, texts)
}

func (s *Shaper) Resolve(r *Request) Client { return s.resolve(r) }

func (s *Shaper) Begin(c Client, key any, method, name string) *Call {
	return s.begin(c, key, method, name)
}

func (s *Shaper) Question(ctx context.Context, key any, sessionID string) (context.Context, func()) {
	return s.questionContext(ctx, key, sessionID)
}

func (s *Shaper) NeedsSchema(p *negotiation.Profile) bool { return s.needsSchema(p, false) }

func (s *Shaper) NeedsSchemaFor(p *negotiation.Profile, argument bool) bool {
	return s.needsSchema(p, argument)
}

func (c *Call) Done()                                       { c.end() }
func (c *Call) Context(ctx context.Context) context.Context { return c.withContext(ctx) }
func (c *Call) Forged(ids []string) []string                { return c.forged(ids) }
func (c *Call) Name() string                                { return c.name }

func CallFrom(ctx context.Context) (*Call, bool) { return callFrom(ctx) }

func (p toolPlan) Content(isText []bool) []Block { return p.blocks(isText) }
func (p toolPlan) Unchanged() bool               { return p.unchanged() }
