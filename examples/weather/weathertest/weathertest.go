// Package weathertest describes the weather example to test suites that
// check a server from outside, so that each test serving the example (on
// either SDK, in either era, as the demo command or as a library) names the
// same tool calls, resources and prompt.
package weathertest

import "github.com/contentneg/contentneg/rest/resttest"

// RESTFixture is what the weather example offers the REST binding's
// black-box suite ([resttest.Run]). Every tool of the example has an output
// schema, so the fixture has no Plain tool.
func RESTFixture() resttest.Fixture {
	return resttest.Fixture{
		Structured: resttest.Call{Tool: "get_weather", Arguments: `{"city":"Bern"}`},
		Invalid:    resttest.Invalid{Call: resttest.Call{Tool: "get_weather", Arguments: `{"city":5}`}, Field: "city"},
		Failing:    resttest.Call{Tool: "get_weather", Arguments: `{"city":"Nowhere"}`},
		Resource:   "weather://cities",
		Templated:  "weather://bern",
		Prompt:     resttest.Prompt{Name: "plan_outfit", Arguments: map[string]string{"city": "Bern"}, Required: "city"},
	}
}
