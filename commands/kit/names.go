package kit

import (
	"context"
	"sync"
	"time"

	"github.com/tablehand/tablehand/db"
)

// The name each person shows on a server, kept for the web pages, which
// show people by name where Discord would show a mention: the router
// records the names of whoever acts and whoever a user option names
// (Request.User, Request.Resolved) as the edge gives them, and writes
// only a name that changed since this process last wrote it, so that a
// command of someone whose name is unchanged costs no write.

// NameStore keeps the name each person shows on a server (*db.DB is one).
type NameStore interface {
	SaveDisplayNames(ctx context.Context, guildID string, names []db.DisplayName) error
}

// NameRefresh is how long the router trusts a name it wrote: an unchanged
// name is written again after that, in case another process sharing the
// database wrote another since.
const NameRefresh = time.Hour

// maxNamesKept bounds the names the router remembers having written;
// past it, it forgets them all and writes each again once.
const maxNamesKept = 1 << 16

// nameBook is what the router remembers of the names it wrote. It is
// safe for concurrent use; a nil book records nothing.
type nameBook struct {
	store NameStore
	now   func() time.Time
	mu    sync.Mutex
	last  map[nameKey]written
}

type nameKey struct{ guild, user string }

type written struct {
	name string
	at   time.Time
}

func newNameBook(store NameStore, now func() time.Time) *nameBook {
	if now == nil {
		now = time.Now
	}
	return &nameBook{store: store, now: now, last: map[nameKey]written{}}
}

// record writes the names of req's user and of the users its options
// name, in req's guild, that differ from what b last wrote (or that it
// wrote more than NameRefresh ago). A request of no guild (a DM) records
// nothing: a name is a server's. A name is taken as written when its
// write begins, so that the requests of one person at once write it
// once; if the write fails, the next request writes it again.
func (b *nameBook) record(ctx context.Context, req *Request) error {
	if b == nil || req.GuildID == "" {
		return nil
	}
	now := b.now()
	var changed []db.DisplayName
	b.mu.Lock()
	add := func(u User) {
		k := nameKey{req.GuildID, u.ID}
		if w, ok := b.last[k]; u.ID == "" || u.Name == "" || ok && w.name == u.Name && now.Sub(w.at) < NameRefresh {
			return
		}
		if len(b.last) >= maxNamesKept {
			clear(b.last)
		}
		b.last[k] = written{name: u.Name, at: now}
		changed = append(changed, db.DisplayName{UserID: u.ID, Name: u.Name})
	}
	add(req.User)
	for _, u := range req.Resolved {
		add(u)
	}
	b.mu.Unlock()
	if len(changed) == 0 {
		return nil
	}
	err := b.store.SaveDisplayNames(ctx, req.GuildID, changed)
	if err != nil {
		b.mu.Lock()
		for _, c := range changed {
			k := nameKey{req.GuildID, c.UserID}
			if w := b.last[k]; w.name == c.Name && w.at.Equal(now) {
				delete(b.last, k)
			}
		}
		b.mu.Unlock()
	}
	return err
}
