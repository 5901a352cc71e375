package toon_test

import (
	"fmt"

	"github.com/contentneg/contentneg/toon"
)

func ExampleMarshal() {
	type user struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
		Role string `json:"role"`
	}
	out, err := toon.Marshal(map[string]any{
		"users": []user{{1, "Ada", "admin"}, {2, "Bob", "user"}},
		"total": 2,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// total: 2
	// users[2]{id,name,role}:
	//   1,Ada,admin
	//   2,Bob,user
}

func ExampleFromJSON() {
	out, err := toon.FromJSON([]byte(`{"servers":{"alpha":{"host":"a.example.com","port":8080},`+
		`"beta":{"host":"b.example.com","port":9090}},"big":12345678901234567890,"tiny":1e-7}`), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// servers[2:]{host,port}:
	//   alpha: a.example.com,8080
	//   beta: b.example.com,9090
	// big: 12345678901234567890
	// tiny: 1e-7
}

func ExampleToJSON() {
	doc := `orders[2]{id,customer{name,country},total}:
  1,Ada,DK,99.50
  2,Bob,UK,149
note: "shipped: all"`
	out, err := toon.ToJSON([]byte(doc), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))

	_, err = toon.ToJSON([]byte("tags[3]: a,b"), nil)
	fmt.Println(err)
	// Output:
	// {"orders":[{"id":1,"customer":{"name":"Ada","country":"DK"},"total":99.5},{"id":2,"customer":{"name":"Bob","country":"UK"},"total":149}],"note":"shipped: all"}
	// toon: line 1: 2 values, the header declares 3
}

func ExampleUnmarshal() {
	var v struct {
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	}
	if err := toon.Unmarshal([]byte("name: Ada\ntags[2]: math,engines"), &v); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", v)
	// Output:
	// {Name:Ada Tags:[math engines]}
}
