// Command csv shows a server adding a media type of its own, text/csv,
// without editing any file of the library: one format registration and one
// renderer for the tool. Run it with go run ./examples/csv; its output is
// checked by go test ./examples/csv.
package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/renderers"
)

type city struct {
	Name       string  `json:"name"`
	Population int     `json:"population"`
	Elevation  float64 `json:"elevation_m"`
}

type cities struct {
	Cities []city `json:"cities"`
}

// toCSV renders {"cities":[...]} as CSV: a header row, then one row per city.
func toCSV(value []byte, _ renderers.Options) (string, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"name", "population", "elevation_m"})
	for _, c := range gjson.GetBytes(value, "cities").Array() {
		_ = w.Write([]string{c.Get("name").String(), c.Get("population").Raw, c.Get("elevation_m").Raw})
	}
	w.Flush()
	return strings.TrimRight(b.String(), "\n"), w.Error()
}

// newServer is a server with the tool list_cities, and the middleware; with
// withCSV, the middleware also renders text/csv for format=csv clients.
func newServer(withCSV bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "cities", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "list_cities", Description: "Swiss cities"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, cities, error) {
			return nil, cities{Cities: []city{{"Zürich", 421878, 408}, {"Bern", 134794, 540}}}, nil
		})
	enc := zap.NewDevelopmentEncoderConfig()
	enc.TimeKey, enc.CallerKey, enc.NameKey = "", "", ""
	logger := zap.New(zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.AddSync(os.Stdout), zap.WarnLevel))
	m := middleware.Install(s, &middleware.Options{Logger: logger})
	if withCSV {
		if err := m.Shaper().AddFormat("csv", "text/csv", nil); err != nil {
			panic(err)
		}
		m.Shaper().Handle("list_cities", "text/csv", renderers.Func(toCSV))
	}
	return s
}

// callAs calls list_cities as a client declaring tags, and prints its text.
func callAs(s *mcp.Server, tags ...string) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	cs, err := client.New(&client.Options{Settings: client.Declare(tags...)}).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_cities"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
}

func main() {
	fmt.Println("A server that renders text/csv, a client with format=csv:")
	callAs(newServer(true), "format=csv", "human")

	fmt.Println("\nA server without it: the tag is unknown (a diagnostic), and the client gets its usual rendering:")
	callAs(newServer(false), "format=csv", "human")
}
