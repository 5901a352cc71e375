package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// evaluation evaluates the checks of one era on its observations.
type evaluation struct {
	era   Era
	base  *observation   // the undeclared client
	again *observation   // the undeclared client, a second time
	obs   []*observation // every client, base first

	baseResult   toolResult
	baseIsResult bool
	value        any  // the canonical value of the undeclared result
	hasValue     bool // whether it has one
	stable       bool // the undeclared result was the same twice

	// plain is the declared client without a usable preference, whose
	// result is the handler's in every server; defaulted says the
	// undeclared client got something else: the server applies default
	// tags (contract section 1, step 4).
	plain     *observation
	defaulted bool

	// argument is the format argument the tool advertises ("" for none),
	// and withArgument the undeclared client's calls setting it to
	// markdown, json and a value no server renders.
	argument     string
	withArgument []*observation

	tallies map[string]*tally
}

// tally collects what the clients showed for one check.
type tally struct {
	applied  int
	failures []string
	skip     string // why the check does not apply, when applied stays 0
	note     string // what a pass covered, when worth saying
	seen     map[string]bool
}

func newEvaluation(era Era, obs []*observation, again *observation) *evaluation {
	e := &evaluation{era: era, base: obs[0], again: again, obs: obs, tallies: map[string]*tally{}}
	e.stable = e.base.call.same(again.call)
	for _, o := range obs[1:] {
		if slices.Contains(o.c.Checks, "pass-through/no-preference") {
			e.plain = o
			break
		}
	}
	if e.stable && e.plain != nil && !e.plain.call.same(e.base.call) && e.undeclaredAlike(obs) {
		// A default is in effect: the value and the pass-through checks
		// go by the declared client without preference.
		e.defaulted, e.base = true, e.plain
	}
	e.baseResult, e.baseIsResult = decodeResult(e.base.call.Result)
	if e.baseIsResult && !e.baseResult.isError {
		e.value, e.hasValue = e.baseResult.canonical()
	}
	e.skip("errors/unchanged", "the call does not give an error result")
	e.skip("no-canonical/unchanged", "applies only to a successful result without a canonical value")
	return e
}

// t returns the tally of check name.
func (e *evaluation) t(name string) *tally {
	t := e.tallies[name]
	if t == nil {
		t = &tally{}
		e.tallies[name] = t
	}
	return t
}

// pass records that check name held for a client.
func (e *evaluation) pass(name string) { e.t(name).applied++ }

// fail records that check name failed for client o.
func (e *evaluation) fail(name string, o *observation, format string, args ...any) {
	t := e.t(name)
	t.applied++
	t.failures = append(t.failures, fmt.Sprintf("%s: %s", o.c.Name, fmt.Sprintf(format, args...)))
}

// skip records why check name does not apply, unless a reason is known.
func (e *evaluation) skip(name, why string) {
	if t := e.t(name); t.skip == "" {
		t.skip = why
	}
}

// run evaluates every check and returns the results in catalog order.
func (e *evaluation) run() []Result {
	e.advertised()
	e.lists()
	for _, o := range e.obs[1:] {
		e.client(o)
	}
	e.defaults()
	e.formatArgument()
	var out []Result
	for _, c := range Catalog() {
		out = append(out, e.result(c))
	}
	return out
}

// sessionless returns the results of the legacy era over HTTP without
// sessions: only the advertisement can be checked. A 2025-11-25 client
// declares its capabilities once, at initialize; without a session nothing
// ties its later requests to them, so no server can negotiate for it.
func (e *evaluation) sessionless() []Result {
	e.advertised()
	var out []Result
	for _, c := range Catalog() {
		r := e.result(c)
		if c.Name != "advertised" {
			r.Status = Skip
			r.Detail = "the server serves HTTP without sessions (no Mcp-Session-Id): a " + string(Legacy) +
				" client's capabilities cannot reach its later requests; check this era over stdio or HTTP with sessions"
		}
		out = append(out, r)
	}
	return out
}

// result turns the tally of c into a result.
func (e *evaluation) result(c Check) Result {
	r := Result{Check: c, Era: e.era, Protocol: e.base.protocol}
	t := e.tallies[c.Name]
	switch {
	case t == nil:
		r.Status, r.Detail = Skip, "no client of the kit exercises it"
	case len(t.failures) > 0:
		r.Status = Fail
		shown := t.failures
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(t.failures)-3))
		}
		r.Detail = strings.Join(shown, "; ")
	case t.applied > 0:
		r.Status = Pass
		r.Detail = fmt.Sprintf("%d client(s)", t.applied)
		if t.note != "" {
			r.Detail += "; " + t.note
		}
	default:
		r.Status, r.Detail = Skip, t.skip
	}
	return r
}

// advertised checks the advertisement seen by the undeclared client.
func (e *evaluation) advertised() {
	where := "the server/discover result"
	if e.base.protocol <= string(Legacy) {
		where = "the initialize result"
	}
	if e.base.advertised {
		e.pass("advertised")
		e.t("advertised").note = "in " + where
		return
	}
	e.fail("advertised", e.base, "%s (protocol %s) has no capabilities.extensions[%q]", where, e.base.protocol, ExtensionID)
}

// lists compares each list method's first response across every client.
func (e *evaluation) lists() {
	for _, method := range lists {
		name := "lists/" + strings.TrimSuffix(method, "/list")
		want, ok := e.base.firstList(method)
		if !ok {
			e.skip(name, "the server does not offer "+method)
			continue
		}
		for _, o := range e.obs[1:] {
			got, ok := o.firstList(method)
			switch {
			case !ok:
				e.fail(name, o, "no %s response, where the undeclared client got one", method)
			case !got.same(want):
				e.fail(name, o, "%s differs from the undeclared client's (%d bytes against %d)", method, len(got.Result)+len(got.Error), len(want.Result)+len(want.Error))
			default:
				e.pass(name)
			}
		}
	}
}

// client evaluates the checks that case o feeds.
func (e *evaluation) client(o *observation) {
	c := o.c
	for _, name := range c.Checks {
		switch {
		case strings.HasPrefix(name, "pass-through/"):
			e.passThrough(name, o)
		case strings.HasPrefix(name, "gate/"):
			e.gate(name, o)
		case strings.HasPrefix(name, "lists/"):
			// every client feeds the list checks
		default:
			e.rendered(name, o)
		}
	}
}

// passThrough checks that o got the undeclared client's result.
func (e *evaluation) passThrough(name string, o *observation) {
	if !e.stable {
		e.skip(name, "the undeclared client got different results for the same call twice: choose a call whose result does not change")
		return
	}
	want, whose := e.base, "the undeclared client's"
	if e.defaulted {
		if o.c.Settings == nil || name == "pass-through/unknown-version" {
			want = e.obs[0] // not declared: it gets the default too
		} else {
			whose = "the handler's (a declared client's without preference)"
		}
	}
	if o.call.same(want.call) {
		e.pass(name)
		if e.defaulted && want == e.base {
			e.pass("default/declared-untouched")
		}
		return
	}
	e.fail(name, o, "the result differs from %s: %s", whose, diffSummary(o.call, want.call))
	if e.defaulted && want == e.base {
		e.fail("default/declared-untouched", o, "the default reached a declared client: %s", diffSummary(o.call, want.call))
	}
}

// undeclaredAlike reports whether every client that does not declare the
// extension (an unknown major version counts as not declared) got the
// undeclared client's result, and there is one: what a server with
// default tags gives, and a server that negotiates for every client does
// not.
func (e *evaluation) undeclaredAlike(obs []*observation) bool {
	n := 0
	for _, o := range obs[1:] {
		if slices.Contains(o.c.Checks, "pass-through/unknown-version") {
			if !o.call.same(obs[0].call) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// defaults says what the kit found of default tags.
func (e *evaluation) defaults() {
	switch {
	case e.plain == nil:
		e.skip("default/declared-untouched", "no client of the cases declares the extension without a preference")
	case !e.stable:
		e.skip("default/declared-untouched", "the undeclared client got different results for the same call twice")
	case !e.defaulted:
		e.skip("default/declared-untouched", "the server applies no default tags: an undeclared client gets the handler's result, as a declared client without preference does")
	default:
		r, _ := decodeResult(e.obs[0].call.Result)
		e.t("default/declared-untouched").note = fmt.Sprintf("the server applies default tags: an undeclared client gets %s", describeRendering(r, e.value))
	}
}

// describeRendering says in a few words what a result is.
func describeRendering(r toolResult, value any) string {
	main := r.mainTexts()
	switch {
	case r.isError:
		return "a tool error"
	case len(main) == 1 && jsonEqual([]byte(main[0].text), value):
		return "the structured rendering with its JSON mirror"
	case len(main) == 0 && r.structured != nil:
		return "the structured rendering alone"
	case len(main) == 1:
		return fmt.Sprintf("a rendering of %d bytes", len(main[0].text))
	}
	return fmt.Sprintf("%d text blocks", len(main))
}

// formatArgument checks the per-call format argument.
func (e *evaluation) formatArgument() {
	const applied, unknown = "format-argument/applied", "format-argument/unknown-value"
	if e.argument == "" {
		why := "the tool's input schema advertises no format argument (a string property whose enum holds json, markdown and text)"
		e.skip(applied, why)
		e.skip(unknown, why)
		return
	}
	for i, o := range e.withArgument {
		r, ok := decodeResult(o.call.Result)
		if !ok {
			e.fail(map[bool]string{true: unknown, false: applied}[i == 2], o, "%s: the call failed: %s", e.argument, callFailure(o))
			continue
		}
		main := r.mainTexts()
		switch i {
		case 0: // markdown
			switch {
			case !e.hasValue:
				e.skip(applied, "the result has no canonical value: choose a call that returns data")
			case r.isError || len(main) != 1:
				e.fail(applied, o, "%s=markdown: want one rendered text block, got %d (isError %v)", e.argument, len(main), r.isError)
			case isContainer(e.value) && jsonEqual([]byte(main[0].text), e.value):
				e.fail(applied, o, "%s=markdown: the text block is the value's JSON", e.argument)
			default:
				e.pass(applied)
			}
		case 1: // json
			switch {
			case !e.hasValue:
			case r.isError || len(main) != 1 || !jsonEqual([]byte(main[0].text), e.value):
				e.fail(applied, o, "%s=json: want one text block holding the value's JSON, got %d text block(s)", e.argument, len(main))
			default:
				e.pass(applied)
				e.t(applied).note = "argument " + strconv.Quote(e.argument)
			}
		case 2: // unknown
			text := ""
			if len(main) > 0 {
				text = main[0].text
			}
			if !r.isError || !strings.Contains(text, "json") || !strings.Contains(text, "markdown") {
				e.fail(unknown, o, "%s=%s: want a tool error naming the formats, got isError %v, %q", e.argument, unknownFormat, r.isError, clip(text, 80))
				continue
			}
			e.pass(unknown)
		}
	}
}

// gate checks the elicitation gate for o.
func (e *evaluation) gate(name string, o *observation) {
	asked := max(e.base.elicitations(), e.base.inputRequests()) // over 2026-07-28 the handler answers the input requests
	switch name {
	case "gate/no-elicitation":
		if n := o.elicitations(); n > 0 {
			e.fail(name, o, "%d elicitation/create request(s)", n)
			return
		}
	case "gate/no-input-requests":
		if n := o.inputRequests(); n > 0 {
			e.fail(name, o, "%d tools/call result(s) with inputRequests", n)
			return
		}
	case "gate/no-error-without-capability":
		if e.base.call.Error == nil && (o.call.Error != nil || o.callErr != nil) {
			e.fail(name, o, "the call failed: %s", callFailure(o))
			return
		}
	default:
		return
	}
	e.pass(name)
	if asked == 0 {
		e.t(name).note = "not exercised: the call does not elicit from an undeclared client; choose one that does"
	} else {
		e.t(name).note = fmt.Sprintf("the undeclared client was asked %d time(s)", asked)
	}
}

// rendered evaluates a rendering check for o.
func (e *evaluation) rendered(name string, o *observation) {
	switch {
	case !e.baseIsResult:
		e.skip(name, "the undeclared client's call failed: choose a call that succeeds")
		return
	case e.baseResult.isError:
		e.unchangedAs("errors/unchanged", o)
		e.skip(name, "the call gives an error result: choose a call that succeeds")
		return
	case !e.hasValue:
		e.unchangedAs("no-canonical/unchanged", o)
		e.skip(name, "the result has no canonical value (no structuredContent, no single JSON text block): choose a call that returns data")
		return
	}
	r, ok := decodeResult(o.call.Result)
	if !ok {
		e.fail(name, o, "the call failed: %s", callFailure(o))
		return
	}
	hasSchema := o.tool != nil && o.tool.OutputSchema != nil
	main := r.mainTexts()
	switch name {
	case "structured/value":
		if r.structured == nil || !jsonEqual(r.structured, e.value) {
			e.fail(name, o, "structuredContent %s", describeStructured(r))
			return
		}
	case "structured/no-mirror":
		for _, b := range r.texts() {
			if jsonEqual([]byte(b.text), e.value) {
				e.fail(name, o, "a text block repeats the JSON (%d bytes)", len(b.text))
				return
			}
		}
	case "structured/mirror":
		if len(main) != 1 || !jsonEqual([]byte(main[0].text), e.value) {
			e.fail(name, o, "want one text block holding the value's JSON, got %d text block(s)", len(main))
			return
		}
	case "rendering/applied":
		if len(main) == 0 {
			e.fail(name, o, "no text block")
			return
		}
		if isContainer(e.value) && jsonEqual([]byte(main[0].text), e.value) {
			e.fail(name, o, "the text block is the value's JSON, not a %s rendering", c2r(o.c))
			return
		}
	case "markdown/one-block", "text/one-block", "toon/one-block":
		if len(main) != 1 {
			e.fail(name, o, "%d text blocks besides hints, want 1", len(main))
			return
		}
	case "markdown/no-raw-html":
		for _, b := range main {
			if found := rawHTML(b.text); found != "" {
				e.fail(name, o, "raw HTML: %s", found)
				return
			}
		}
	case "text/no-markup":
		for _, b := range main {
			if found := markupOf(b.text, e.value); found != "" {
				e.fail(name, o, "markup: %s", found)
				return
			}
		}
	case "structured-content/kept":
		if !hasSchema {
			e.skip(name, "the tool declares no outputSchema")
			return
		}
		if r.structured == nil || !jsonEqual(r.structured, e.value) {
			e.fail(name, o, "the tool has an outputSchema, and structuredContent %s", describeStructured(r))
			return
		}
	case "structured-content/omitted":
		if hasSchema {
			e.skip(name, "the tool declares an outputSchema")
			return
		}
		if r.structured != nil {
			e.fail(name, o, "the tool has no outputSchema, yet structuredContent is there")
			return
		}
	case "non-text/kept":
		want := e.baseResult.nonText()
		if len(want) == 0 {
			e.skip(name, "the result has no non-text blocks")
			return
		}
		for _, b := range want {
			if !r.hasBlock(b) {
				e.fail(name, o, "a %s block of the result is missing", b.kind)
				return
			}
		}
	case "hints/only-for-sampling":
		for _, b := range r.texts() {
			if b.forAssistantOnly() {
				e.fail(name, o, "a hint block (audience [\"assistant\"]) for a client without the sampling tag")
				return
			}
		}
	case "hints/assistant-only":
		texts := r.texts()
		if len(texts) > 1 {
			for _, b := range texts[1:] {
				if !b.forAssistantOnly() {
					e.fail(name, o, "a text block after the rendering is annotated audience %q, want [\"assistant\"]", b.audience)
					return
				}
			}
			e.t(name).note = "hints seen"
		} else if e.t(name).note == "" {
			e.t(name).note = "this call attaches no hints"
		}
	default:
		return
	}
	e.pass(name)
}

// unchangedAs checks, under check name, that o got the undeclared result
// byte for byte; each client is counted once.
func (e *evaluation) unchangedAs(name string, o *observation) {
	t := e.t(name)
	if t.seen[o.c.Name] {
		return
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	t.seen[o.c.Name] = true
	if !e.stable {
		e.skip(name, "the undeclared client got different results for the same call twice")
		return
	}
	if o.call.same(e.base.call) {
		t.applied++
		return
	}
	e.fail(name, o, "the result differs from the undeclared client's: %s", diffSummary(o.call, e.base.call))
}

// c2r names the rendering of a case.
func c2r(c Case) string { return string(c.Rendering) }

// describeStructured says what structuredContent is, for failures.
func describeStructured(r toolResult) string {
	if r.structured == nil {
		return "is absent"
	}
	return fmt.Sprintf("differs from the value (%d bytes)", len(r.structured))
}

// callFailure says how o's call failed.
func callFailure(o *observation) string {
	switch {
	case o.call.Error != nil:
		return "JSON-RPC error " + clip(string(o.call.Error), 200)
	case o.callErr != nil:
		return clip(o.callErr.Error(), 200)
	}
	return "no result"
}

// diffSummary says where two outcomes first differ.
func diffSummary(got, want exchange) string {
	g := slices.Concat(got.Result, got.Error)
	w := slices.Concat(want.Result, want.Error)
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	return fmt.Sprintf("%d bytes against %d, first difference at byte %d: %q against %q",
		len(g), len(w), i, clip(string(g[i:]), 40), clip(string(w[i:]), 40))
}

// clip cuts s to n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
