package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot"
)

// No Docker engine runs where the tests run, so deploy/ is checked by what
// it says: every environment variable the Dockerfile sets is one the
// configuration reads, and every command line of the Dockerfile and the
// systemd units is one the binary accepts (each gets as far as the
// missing token, past flag parsing and the database).

// dockerfile returns the ENV pairs and the CMD of deploy/Dockerfile.
func dockerfile(t *testing.T) (env map[string]string, cmd []string) {
	t.Helper()
	raw, err := os.ReadFile("../../deploy/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	// Join continued lines; drop comments.
	var lines []string
	cur := ""
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			cur += s + " "
			continue
		}
		lines = append(lines, cur+l)
		cur = ""
	}
	env = map[string]string{}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "ENV "):
			for _, kv := range strings.Fields(strings.TrimPrefix(l, "ENV ")) {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("ENV %q: want KEY=VALUE pairs", kv)
				}
				env[k] = v
			}
		case strings.HasPrefix(l, "CMD "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "CMD ")), &cmd); err != nil {
				t.Fatalf("CMD is not an exec-form array: %v", err)
			}
		}
	}
	if len(env) == 0 || len(cmd) == 0 {
		t.Fatalf("Dockerfile: ENV %v, CMD %v", env, cmd)
	}
	return env, cmd
}

func TestDockerfileEnvironment(t *testing.T) {
	env, _ := dockerfile(t)
	none := func(string) string { return "" }
	base, err := bot.LoadConfig("", none)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range env {
		cfg, err := bot.LoadConfig("", func(name string) string {
			if name == k {
				return v
			}
			return ""
		})
		if err != nil {
			t.Errorf("%s=%s: %v", k, v, err)
			continue
		}
		if cfg.Database == base.Database && cfg.Listen == base.Listen {
			t.Errorf("the Dockerfile sets %s, which the configuration does not read", k)
		}
	}
}

// tokenless runs the binary's command line args (without the program
// name) with no bot token and a database in a temporary directory, and
// wants it to stop at the token.
func tokenless(t *testing.T, what string, args []string, env map[string]string) {
	t.Helper()
	var errs bytes.Buffer
	getenv := func(name string) string { return env[name] }
	err := run(context.Background(), args, strings.NewReader(""), &bytes.Buffer{}, &errs, getenv)
	if err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("%s %q: %v (want it to stop at the missing token)\n%s", what, args, err, errs.String())
	}
}

func TestDeployCommandLines(t *testing.T) {
	dir := t.TempDir()
	env, cmd := dockerfile(t)
	env["TABLEHAND_DB"] = filepath.Join(dir, "docker.db") // the image's /data
	tokenless(t, "Dockerfile CMD", cmd, env)

	// The HTTP endpoint's command line, from the Dockerfile's own comment.
	env["TABLEHAND_PUBLIC_KEY"] = strings.Repeat("ab", 32)
	env["TABLEHAND_LISTEN"] = "127.0.0.1:0"
	raw, err := os.ReadFile("../../deploy/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`tablehand (http[^\n]*)`).FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatal("the Dockerfile no longer shows the http command line")
	}
	// Without a token the endpoint runs (answering what it can): it must
	// get past its flags to listening, and stop when told. Its metrics
	// listen on a free loopback port, not the image's :9090.
	args := strings.Fields(strings.ReplaceAll(m[1], ":9090", "127.0.0.1:0"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	errs := &logWatch{re: listening, found: func([]string) { cancel() }}
	if err := run(ctx, args, strings.NewReader(""), &bytes.Buffer{}, errs, func(n string) string { return env[n] }); err != nil || !errs.seen {
		t.Errorf("Dockerfile http %q: %v, listened %v\n%s", m[1], err, errs.seen, errs.buf.String())
	}

	// The systemd unit's ExecStart, with its paths moved into dir.
	unit, err := os.ReadFile("../../deploy/tablehand.service")
	if err != nil {
		t.Fatal(err)
	}
	exec := regexp.MustCompile(`(?m)^ExecStart=/usr/local/bin/tablehand (.*)$`).FindSubmatch(unit)
	if exec == nil {
		t.Fatal("tablehand.service has no ExecStart of the binary")
	}
	example, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "tablehand.toml")
	if err := os.WriteFile(conf, example, 0o600); err != nil {
		t.Fatal(err)
	}
	line := strings.NewReplacer("/etc/tablehand/tablehand.toml", conf, "/var/lib/tablehand", dir).Replace(string(exec[1]))
	tokenless(t, "tablehand.service", strings.Fields(line), map[string]string{})

	// The backup unit's command makes a backup.
	backup, err := os.ReadFile("../../deploy/tablehand-backup.service")
	if err != nil {
		t.Fatal(err)
	}
	b := regexp.MustCompile(`exec /usr/local/bin/tablehand (backup --db \S+) "`).FindSubmatch(backup)
	if b == nil {
		t.Fatal("tablehand-backup.service no longer runs tablehand backup --db")
	}
	args = append(strings.Fields(strings.ReplaceAll(string(b[1]), "/var/lib/tablehand", dir)), filepath.Join(dir, "copy.db"))
	if err := run(context.Background(), args, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, func(string) string { return "" }); err != nil {
		t.Errorf("tablehand-backup.service %q: %v", args, err)
	}
}
