// Command api-size counts the exported identifiers of the module's public
// packages, per package and in total, with go/ast (no type checking, no
// build): the figure issue 27 bounds, and docs/architecture.md quotes.
//
//	go run ./cmd/api-size            from the module's root
//	go run ./cmd/api-size -dir DIR   another checkout of the module
//
// A public package is one a user of the module can import: every directory
// of the module with non-test Go files of a package other than main, except
// those under internal/, cmd/, examples/, interop/ or testdata/ and another
// module (a go.mod of its own, as bench/). The test-helper packages
// (middlewaretest, resttest) are public: server authors import them.
// Counted, in the non-test files:
//
//   - names: every exported top-level func, type, var and const;
//   - methods: every exported method of an exported type;
//   - members: every exported field of an exported struct type and every
//     exported method of an exported interface type (embedded ones by
//     their type's name), nested struct types' included.
//
// The exported identifiers are names + methods (issue 27's measure: 486 at
// commit c645d4a); members are shown beside them, not added.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	dir := flag.String("dir", ".", "the module's root")
	flag.Parse()
	if err := run(*dir, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "api-size: %v\n", err)
		os.Exit(1)
	}
}

// size is what one package exports.
type size struct {
	pkg                     string
	names, methods, members int
}

// exported is the package's exported identifiers: names and methods.
func (s size) exported() int { return s.names + s.methods }

func run(root string, w io.Writer) error {
	sizes, err := measure(root)
	if err != nil {
		return err
	}
	var sum size
	fmt.Fprintf(w, "%-28s %6s %8s %9s %8s\n", "package", "names", "methods", "exported", "members")
	for _, s := range sizes {
		fmt.Fprintf(w, "%-28s %6d %8d %9d %8d\n", s.pkg, s.names, s.methods, s.exported(), s.members)
		sum.names, sum.methods, sum.members = sum.names+s.names, sum.methods+s.methods, sum.members+s.members
	}
	fmt.Fprintf(w, "%-28s %6d %8d %9d %8d\n", "total", sum.names, sum.methods, sum.exported(), sum.members)
	return nil
}

// skipped are the directories whose packages are not public.
var skipped = map[string]bool{"internal": true, "cmd": true, "examples": true, "interop": true, "testdata": true, "node_modules": true}

// measure returns the sizes of the public packages under root, by path.
func measure(root string) ([]size, error) {
	var sizes []size
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root {
			if skipped[d.Name()] || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		s, ok, err := measureDir(path)
		if err != nil {
			return err
		}
		if ok {
			rel, _ := filepath.Rel(root, path)
			s.pkg = filepath.ToSlash(rel)
			sizes = append(sizes, s)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i].pkg < sizes[j].pkg })
	return sizes, nil
}

// measureDir counts the package in dir; ok is false when dir holds no
// public package.
func measureDir(dir string) (s size, ok bool, err error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.SkipObjectResolution)
	if err != nil {
		return s, false, fmt.Errorf("parse %s: %w", dir, err)
	}
	for name, pkg := range pkgs {
		if name == "main" || strings.HasSuffix(name, "_test") {
			continue
		}
		ok = true
		for _, f := range pkg.Files {
			count(f, &s)
		}
	}
	return s, ok, nil
}

// count adds what f exports to s.
func count(f *ast.File, s *size) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				s.names++
			} else if receiverExported(d.Recv) {
				s.methods++
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					if sp.Name.IsExported() {
						s.names++
						s.members += members(sp.Type)
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.IsExported() {
							s.names++
						}
					}
				}
			}
		}
	}
}

// receiverExported reports whether a method's receiver type is exported.
func receiverExported(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr: // a generic type's receiver, T[K]
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// members counts the exported fields of a struct type and the exported
// methods of an interface type, nested struct types' included.
func members(t ast.Expr) int {
	n := 0
	var list *ast.FieldList
	switch x := t.(type) {
	case *ast.StructType:
		list = x.Fields
	case *ast.InterfaceType:
		list = x.Methods
	default:
		return 0
	}
	for _, field := range list.List {
		if len(field.Names) == 0 { // embedded
			if name := embeddedName(field.Type); name != "" && ast.IsExported(name) {
				n++
			}
			continue
		}
		for _, name := range field.Names {
			if name.IsExported() {
				n++
				n += members(field.Type)
			}
		}
	}
	return n
}

// embeddedName is the name an embedded field is known by.
func embeddedName(t ast.Expr) string {
	switch x := t.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return embeddedName(x.X)
	}
	return ""
}
