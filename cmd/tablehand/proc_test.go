package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands/kit"
)

// The tests that run tablehand as real processes (the memory test, the
// processes on one PostgreSQL) start them with these helpers. The binary
// is this test binary running main, which testscript.Main puts on PATH as
// tablehand: it is built once, with the tests.

// botBinary is the tablehand to run.
func botBinary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("TABLEHAND_MEMTEST_BIN"); bin != "" {
		return bin
	}
	bin, err := exec.LookPath("tablehand")
	if err != nil {
		t.Fatalf("tablehand is not on PATH (testscript.Main puts it there): %v", err)
	}
	return bin
}

// botEnv is the environment without the caller's TABLEHAND_ settings,
// with extra added.
func botEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TABLEHAND_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// botProc is a running tablehand: its process and its log (standard
// error), in which the test can wait for lines.
type botProc struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer

	mu      sync.Mutex
	waiters []logWaiter
	exited  chan struct{} // closed when its standard error closes: the process ended
	ended   bool          // killed or stopped, and waited for
}

type logWaiter struct {
	re    *regexp.Regexp
	found chan []string
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		l.b.Reset() // keep the tail: the per-command log lines add up
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startBot starts tablehand with args, in the environment botEnv(env...),
// and waits for the first line of its log that matches ready, whose
// submatches it returns. When the test ends the process is interrupted
// (as Ctrl-C does) and must end cleanly, unless the test killed it.
func startBot(t testing.TB, ready string, args []string, env ...string) (*botProc, []string) {
	t.Helper()
	cmd := exec.Command(botBinary(t), args...)
	cmd.Dir = t.TempDir()
	cmd.Env = botEnv(env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &botProc{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	started := p.expect(ready)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go p.follow(stderr)
	t.Cleanup(func() { p.stop(t) })
	return p, p.await(t, started, ready)
}

// follow copies the log to p.stderr, and hands each line to the first
// waiter whose pattern it matches.
func (p *botProc) follow(r io.Reader) {
	defer close(p.exited)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(p.stderr, line)
		p.mu.Lock()
		for i, w := range p.waiters {
			if m := w.re.FindStringSubmatch(line); m != nil {
				w.found <- m
				p.waiters = slices.Delete(p.waiters, i, i+1)
				break
			}
		}
		p.mu.Unlock()
	}
	io.Copy(io.Discard, r) // a line too long ended the scan: the process must not block on its log
}

// expect returns where the submatches of the next log line that matches
// pattern will arrive. Call it before doing what makes the line appear.
func (p *botProc) expect(pattern string) <-chan []string {
	found := make(chan []string, 1)
	p.mu.Lock()
	p.waiters = append(p.waiters, logWaiter{re: regexp.MustCompile(pattern), found: found})
	p.mu.Unlock()
	return found
}

// await waits for the line that expect announced; the process ending
// first, or a minute passing, fails the test.
func (p *botProc) await(t testing.TB, found <-chan []string, what string) []string {
	t.Helper()
	select {
	case m := <-found:
		return m
	case <-p.exited:
		select {
		case m := <-found: // its last line
			return m
		default:
		}
		t.Fatalf("tablehand %s ended before logging %q:\n%s", p.cmd.Args[1], what, tail(p.stderr.String()))
	case <-time.After(time.Minute):
		t.Fatalf("tablehand %s did not log %q within a minute:\n%s", p.cmd.Args[1], what, tail(p.stderr.String()))
	}
	return nil
}

// kill ends the process with SIGKILL, as kill -9 or a crash does: it has
// no chance to finish anything.
func (p *botProc) kill(t testing.TB) {
	t.Helper()
	p.ended = true
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	err := p.cmd.Wait()
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("tablehand %s ended with %v, not by SIGKILL:\n%s", p.cmd.Args[1], err, tail(p.stderr.String()))
	}
}

// stop interrupts the process and waits for it to end, cleanly.
func (p *botProc) stop(t testing.TB) {
	if p.ended {
		return
	}
	p.ended = true
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Errorf("interrupt tablehand %s: %v", p.cmd.Args[1], err)
	}
	select {
	case <-p.exited:
	case <-time.After(time.Minute):
		t.Errorf("tablehand %s did not end within a minute of an interrupt", p.cmd.Args[1])
		p.cmd.Process.Kill()
		<-p.exited
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("tablehand %s: %v\n%s", p.cmd.Args[1], err, tail(p.stderr.String()))
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// startHTTP starts `tablehand http` on the store at source (a SQLite file
// or a PostgreSQL URL), checking s's signatures, and returns it and the
// URL it listens at.
func startHTTP(t testing.TB, s signer, source string, env ...string) (*botProc, string) {
	t.Helper()
	p, m := startBot(t, listening.String(), []string{"http", "--listen", "127.0.0.1:0", "--db", source}, append(env, s.env())...)
	return p, "http://" + m[1]
}

// signer signs interactions as Discord does, with a key of its own.
type signer struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newSigner(t testing.TB) signer {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signer{pub, priv}
}

// env is the setting that makes tablehand http check s's signatures.
func (s signer) env() string { return "TABLEHAND_PUBLIC_KEY=" + hex.EncodeToString(s.pub) }

// answer is an HTTP answer to an interaction.
type answer struct {
	Type int `json:"type"`
	Data struct {
		Content string `json:"content"`
	} `json:"data"`
	Body []byte `json:"-"` // all of it, as sent
}

// send POSTs the interaction body to url, signed now, and returns the
// status and, for a 200, the answer.
func (s signer) send(client *http.Client, url string, body []byte) (int, answer, error) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(s.priv, append([]byte(ts), body...))
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, answer{}, err
	}
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", ts)
	resp, err := client.Do(req)
	if err != nil {
		return 0, answer{}, err
	}
	defer resp.Body.Close()
	var a answer
	if a.Body, err = io.ReadAll(resp.Body); err == nil && resp.StatusCode == http.StatusOK {
		err = json.Unmarshal(a.Body, &a)
	}
	return resp.StatusCode, a, err
}

// slash is the interaction of the slash command name by user in a
// channel of guild, as Discord POSTs it; gm gives the user Manage
// Channels. fake makes it (and its ID, new each time).
func slash(t testing.TB, fake *fakediscord.Server, guild, channel, user string, gm bool, name string, opts ...fakediscord.Option) []byte {
	t.Helper()
	in := fake.SlashCommand(name, opts...)
	in.GuildID, in.ChannelID = snowflake(guild), snowflake(channel)
	in.User = fakediscord.User{ID: snowflake(user), Username: user}
	in.Permissions = "0"
	if gm {
		in.Permissions = strconv.FormatInt(kit.ManageChannels, 10)
	}
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// snowflake is the Discord ID the tests give name, the same each time: the
// endpoint refuses IDs that are not snowflakes, as Discord sends no
// other. A name that is a snowflake already is its own ID.
func snowflake(name string) string {
	if _, err := strconv.ParseUint(name, 10, 64); err == nil && !strings.HasPrefix(name, "0") {
		return name
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return strconv.FormatUint(h.Sum64()>>1|1<<60, 10)
}
