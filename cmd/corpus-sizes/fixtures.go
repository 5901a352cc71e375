package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The fixtures the servers of the second recording read: a PostgreSQL database (PGlite, the
// WebAssembly build of PostgreSQL, served on a Unix socket by pglite-server) for server-postgres,
// and a small git repository for the git server. Both are made anew in the recording's temporary
// directory, with fixed contents, authors and dates, so that recording twice gives the same items.

// longNote is a 700-character note (TestLongNote): the kind of free text a CRM row holds.
const longNote = "Met at the Bern trade fair on 2026-11-12. Interested in the annual plan for 40 seats, " +
	"but procurement needs a quote in CHF and EUR, with the VAT shown on its own line. " +
	"Prefers e-mail to phone; do not call before 10:00 CET. Asked whether the API returns " +
	"results as markdown or plain text for their support agents, and whether \"compact\" drops " +
	"anything a person needs. Follow-up: send the pricing sheet, the data-processing agreement " +
	"(DPA, German and French) and two references from Swiss customers. Risk: the budget is " +
	"only approved in Q1; a pilot of 5 seats could start in December. Owner: Zoë M. Next steps: " +
	"call on 2026-11-24 at 14:00 to agree the pilot's scope, and confirm who signs on their side."

// customersSQL creates the database the postgres items query: a CRM's customers, most of whose
// rows leave several columns NULL, with a long note, names in Japanese, accents and an emoji, a
// text column holding JSON (prefs) and a jsonb column (tags).
var customersSQL = `CREATE TABLE customers (
  id integer PRIMARY KEY,
  name text NOT NULL,
  email text,
  phone text,
  city text,
  balance numeric(10,2),
  last_order date,
  note text,
  prefs text,
  tags jsonb,
  created_at timestamptz NOT NULL
);
INSERT INTO customers VALUES
  (1, '山田 太郎', 'taro.yamada@example.jp', '+81 3-1234-5678', '東京', 1200.50, '2026-11-18', NULL, '{"lang":"ja","newsletter":true,"channels":["email","line"]}', '["vip","apac"]', '2026-03-02 09:15:00+00'),
  (2, 'Émile Zola 🚲', 'emile@example.fr', NULL, 'Paris', NULL, NULL, ` + sqlString(longNote) + `, NULL, NULL, '2026-05-20 16:40:00+00'),
  (3, 'Zoë Müller', NULL, NULL, 'Bern', 0.00, NULL, NULL, '{}', '[]', '2026-06-01 08:00:00+00'),
  (4, 'Seán O''Brien, Jr.', 'sean@example.ie', '+353 1 555 0100', NULL, -35.20, '2026-10-03', 'Disputed invoice #2291: "charged twice"', '{"lang":"en","invoice":{"format":"pdf","copies":2}}', '["dispute"]', '2026-07-14 11:05:00+00'),
  (5, 'anonymous', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '2026-08-30 23:59:59+00'),
  (6, 'Łukasz Żółć', NULL, '+48 22 123 45 67', 'Kraków', 89.90, '2026-11-19', NULL, NULL, '{"segment":"smb","seats":5}', '2026-09-09 12:00:00+00');
`

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// seedScript creates a PGlite database in the directory given as its argument and runs the SQL read
// from standard input; it runs with node in the servers folder, so that it finds the same PGlite
// that pglite-server serves the directory with.
const seedScript = `import { PGlite } from "@electric-sql/pglite";
import { readFileSync } from "node:fs";
const db = new PGlite(process.argv[1]);
await db.exec(readFileSync(0, "utf8"));
await db.close();
`

// postgresSocketDir is the directory, under a recording's temporary directory, that holds the
// database and the Unix socket pglite-server listens on (PostgreSQL's name .s.PGSQL.5432, so that
// the pg client of server-postgres finds it from host=dir).
func postgresSocketDir(tmp string) string { return filepath.Join(tmp, "pg") }

// startPostgres seeds a PGlite database with customersSQL and serves it with pglite-server on a
// Unix socket in postgresSocketDir(tmp). The returned function stops the server.
func startPostgres(ctx context.Context, serversDir, tmp, _ string) (func(), error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, err
	}
	dir := postgresSocketDir(tmp)
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("postgres fixture: %w", err)
	}
	var out bytes.Buffer
	seed := exec.CommandContext(ctx, node, "--input-type=module", "-e", seedScript, data)
	seed.Dir = serversDir
	seed.Stdin = strings.NewReader(customersSQL)
	seed.Stdout, seed.Stderr = &out, &out
	if err := seed.Run(); err != nil {
		return nil, fmt.Errorf("postgres fixture: seed: %w: %s", err, out.String())
	}
	server, err := filepath.Abs(filepath.Join(serversDir, "node_modules", ".bin", "pglite-server"))
	if err != nil {
		return nil, err
	}
	socket := filepath.Join(dir, ".s.PGSQL.5432")
	var log bytes.Buffer
	cmd := exec.Command(node, server, "--db="+data, "--path="+socket)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("postgres fixture: pglite-server: %w", err)
	}
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	// pglite-server creates the socket once the database is open: wait for it, 30 s at most.
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, err := os.Stat(socket); err == nil {
			return stop, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			stop()
			return nil, fmt.Errorf("postgres fixture: pglite-server did not listen on %s: %s", socket, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// gitStep is one step of the repository's history: files written (an empty content removes the
// file), then a commit by author at the date, or, with no message, a git command.
type gitStep struct {
	files   map[string]string
	author  string // "Name <email>"
	date    string // RFC 3339
	message string
	git     []string
}

// gitHistory is the repository the git items show: three commits on main by three authors, a
// feature branch with one more, a release branch and a tag; then, uncommitted, a staged new file,
// an unstaged change and an untracked file.
var gitHistory = []gitStep{
	{git: []string{"init", "--quiet", "--initial-branch=main"}},
	{
		files: map[string]string{
			"README.md":  "# invoices\n\nTotals in CHF for the Bern office.\n",
			"invoice.go": "package invoices\n\n// Total is the sum of the lines, in CHF.\nfunc Total(lines []int) int {\n\ttotal := 0\n\tfor _, l := range lines {\n\t\ttotal += l\n\t}\n\treturn total\n}\n",
		},
		author:  "Zoë Müller <zoe@example.ch>",
		date:    "2026-11-16T09:00:00Z",
		message: "Initial import",
	},
	{git: []string{"tag", "v0.1.0"}},
	{git: []string{"branch", "release/0.1"}},
	{
		files: map[string]string{
			"customers.sql": "CREATE TABLE customers (\n  id integer PRIMARY KEY,\n  name text NOT NULL,\n  email text\n);\n",
		},
		author:  "山田 太郎 <taro.yamada@example.jp>",
		date:    "2026-11-17T14:30:00+09:00",
		message: "Add the customers table\n\nNotes on NULL handling:\n- email may be NULL\n- a name may hold any script (山田 太郎, Émile Zola 🚲)",
	},
	{git: []string{"checkout", "--quiet", "-b", "feature/unicode-names"}},
	{
		files: map[string]string{
			"names_test.go": "package invoices\n\nvar names = []string{\"山田 太郎\", \"Émile Zola 🚲\", \"Zoë Müller\"}\n",
		},
		author:  "Émile Zola <emile@example.fr>",
		date:    "2026-11-19T18:45:00+01:00",
		message: "Test names in any script: 山田 太郎, Émile Zola 🚲",
	},
	{git: []string{"checkout", "--quiet", "main"}},
	{
		files: map[string]string{
			"invoice.go": "package invoices\n\n// Total is the sum of the lines, in CHF, rounded to 5 centimes.\nfunc Total(lines []int) int {\n\ttotal := 0\n\tfor _, l := range lines {\n\t\ttotal += l\n\t}\n\treturn round5(total)\n}\n\nfunc round5(c int) int { return (c + 2) / 5 * 5 }\n",
		},
		author:  "Zoë Müller <zoe@example.ch>",
		date:    "2026-11-18T11:20:00+01:00",
		message: "Round totals to 5 centimes (CHF)",
	},
	// Uncommitted: a staged new file, an unstaged change, an untracked file.
	{files: map[string]string{"CHANGELOG.md": "# Changelog\n\n## 0.2.0\n\n- Totals are rounded to 5 centimes.\n"}},
	{git: []string{"add", "CHANGELOG.md"}},
	{files: map[string]string{
		"invoice.go": "package invoices\n\n// Total is the sum of the lines, in CHF, rounded to 5 centimes.\nfunc Total(lines []int) int {\n\ttotal := 0\n\tfor _, l := range lines {\n\t\ttotal += l\n\t}\n\treturn round5(total)\n}\n\n// round5 rounds c centimes to the nearest 5 (Swiss rounding).\nfunc round5(c int) int { return (c + 2) / 5 * 5 }\n",
		"README.md":  "# invoices\n\nTotals in CHF for the Bern and Zürich offices.\n",
	}},
	{files: map[string]string{"notes/todo.txt": "ask 山田 about the JSON prefs column\n"}},
}

// gitEnv is the environment of every git command that builds the repository: no system or global
// configuration, fixed committer, UTC.
func gitEnv(tmp string) []string {
	return []string{
		"HOME=" + tmp,
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LANG=en_US.UTF-8",
		"TZ=UTC",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
	}
}

// makeGitRepo builds gitHistory in root.
func makeGitRepo(ctx context.Context, _, tmp, root string) (func(), error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	run := func(env []string, args ...string) error {
		cmd := exec.CommandContext(ctx, git, args...)
		cmd.Dir = root
		cmd.Env = append(gitEnv(tmp), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("git fixture: git %s: %w: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	for _, s := range gitHistory {
		for path, content := range s.files {
			p := filepath.Join(root, filepath.FromSlash(path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, fmt.Errorf("git fixture: %w", err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return nil, fmt.Errorf("git fixture: %w", err)
			}
		}
		if s.git != nil {
			if err := run(nil, s.git...); err != nil {
				return nil, err
			}
		}
		if s.message == "" {
			continue
		}
		name, email, ok := strings.Cut(strings.TrimSuffix(s.author, ">"), " <")
		if !ok {
			return nil, errors.New("git fixture: author is not Name <email>")
		}
		who := []string{
			"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email, "GIT_AUTHOR_DATE=" + s.date,
			"GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email, "GIT_COMMITTER_DATE=" + s.date,
		}
		if err := run(who, "add", "--all"); err != nil {
			return nil, err
		}
		if err := run(who, "commit", "--quiet", "--no-gpg-sign", "-m", s.message); err != nil {
			return nil, err
		}
	}
	return func() {}, nil
}
