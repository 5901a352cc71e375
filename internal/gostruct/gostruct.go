// Package gostruct tells a Go struct value from the other values an SDK
// may hold as a tool's structured content: the SDK front ends answer the
// core's question (shaping.ToolPort's Struct) with it.
package gostruct

import "reflect"

// Is reports whether v is a Go struct, or a pointer to one: its JSON
// encoding has its members in the order of the struct's fields, which
// then wins over the output schema's (contract section 5, "Order and
// identity").
func Is(v any) bool {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t.Kind() == reflect.Struct
}
