package bot

import (
	"context"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db/dbtest"
)

// cutProxy forwards TCP connections to a server until cut, which closes
// every connection and refuses new ones, as a database server that went
// away; mend lets them through again.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *cutProxy) mend() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// A PostgreSQL server that goes away mid-fight: the bot goes on answering
// what needs no store (/odds), answers what does with the one message for
// an unavailable store (no SQL, nothing half done), and works again once
// the server is back, with no restart.
func TestPostgresGoesAway(t *testing.T) {
	u, err := url.Parse(dbtest.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	p := newCutProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	r := newReplica(t, newSigner(t), u.String())
	startFight(t, r)

	p.cut()
	if resp, err := r.ask(t, "/odds 2d6"); err != nil || len(resp.Embeds) == 0 || !strings.Contains(resp.Embeds[0].Title, "Odds of 2d6") {
		t.Errorf("/odds with the server gone: %v\n%+v", err, resp)
	}
	for _, line := range []string{"/init next", "/init damage target:Goblin amount:3"} {
		resp, _ := r.ask(t, line)
		if resp.Content != kit.UnavailableMessage {
			t.Errorf("%s with the server gone answered %q, want the unavailable message", line, resp.Content)
		}
	}

	p.mend()
	if _, err := r.ask(t, "/init damage target:Goblin amount:3"); err != nil {
		t.Fatalf("/init damage once the server is back: %v", err)
	}
	e, err := r.store.Encounter(context.Background(), "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range e.State.Combatants {
		if c.Name == "Goblin" && c.Resources["hp"] != 97 {
			t.Errorf("Goblin has %d hp, want 97: the damage while the server was gone must not count, the one after must", c.Resources["hp"])
		}
	}
}
