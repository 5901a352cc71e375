package contentnegfx_test

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"

	"github.com/contentneg/contentneg/contentnegfx"
	"github.com/contentneg/contentneg/shaping"
)

func Example() {
	app := fx.New(
		fx.NopLogger,
		fx.Provide(func() *mcp.Server {
			return mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
		}),
		contentnegfx.Module, // the server now negotiates content
		contentnegfx.Tool("get_weather", shaping.Tool{Units: map[string]string{"temperature_c": "°C"}}),
	)
	fmt.Println(app.Err())
	// Output: <nil>
}
