package kit

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
)

// nameWrites is a NameStore that keeps what it was asked to write.
type nameWrites struct {
	writes [][]db.DisplayName
	fail   error
}

func (n *nameWrites) SaveDisplayNames(_ context.Context, guildID string, names []db.DisplayName) error {
	if n.fail != nil {
		return n.fail
	}
	n.writes = append(n.writes, append([]db.DisplayName{{UserID: "guild", Name: guildID}}, names...))
	return nil
}

// The router writes a person's name the first time it sees it, again
// when it changes or an hour later, and never for a request whose name
// it wrote already: a command of someone whose name is unchanged costs
// no write. A name it could not write it tries again at the next
// command; a DM records nothing.
func TestRouterRecordsNamesThatChanged(t *testing.T) {
	store := &nameWrites{}
	r := NewRouter(nil, nil)
	r.Route("roll", func(context.Context, *Request) (Response, error) { return Response{Content: "ok"}, nil }, false)
	r.SetNames(store)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	r.names.now = func() time.Time { return now }
	ann := User{ID: "1", Name: "Ann"}
	do := func(guild string, u User, resolved ...User) {
		t.Helper()
		if _, err := r.Handle(context.Background(), &Request{Kind: KindCommand, Path: "roll", GuildID: guild, User: u, Resolved: resolved, Options: Options{}}); err != nil {
			t.Fatal(err)
		}
	}
	want := func(what string, writes ...[]db.DisplayName) {
		t.Helper()
		if !slices.EqualFunc(store.writes, writes, slices.Equal) {
			t.Errorf("%s: writes %v, want %v", what, store.writes, writes)
		}
		store.writes = nil
	}
	g := db.DisplayName{UserID: "guild", Name: "g"}

	do("g", ann, User{ID: "2", Name: "Bob"}, User{ID: "1", Name: "Ann"})
	want("first sight of Ann, naming Bob", []db.DisplayName{g, {UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}})
	do("g", ann)
	do("g", User{ID: "2", Name: "Bob"}, ann)
	want("the same names again")
	do("g", User{ID: "1", Name: "Annie"})
	want("a new nick", []db.DisplayName{g, {UserID: "1", Name: "Annie"}})
	do("other", User{ID: "1", Name: "Annie"})
	want("another server", []db.DisplayName{{UserID: "guild", Name: "other"}, {UserID: "1", Name: "Annie"}})
	do("", User{ID: "1", Name: "Ann in a DM"})
	want("a DM")
	now = now.Add(NameRefresh)
	do("g", User{ID: "1", Name: "Annie"})
	want("an hour later", []db.DisplayName{g, {UserID: "1", Name: "Annie"}})

	store.fail = errors.New("disk full")
	do("g", User{ID: "3", Name: "Cy"})
	store.fail = nil
	want("a failed write")
	do("g", User{ID: "3", Name: "Cy"})
	want("after a failed write", []db.DisplayName{g, {UserID: "3", Name: "Cy"}})
}

// countedWrites is a NameStore that counts its writes and takes a while.
type countedWrites struct{ n atomic.Int32 }

func (c *countedWrites) SaveDisplayNames(context.Context, string, []db.DisplayName) error {
	c.n.Add(1)
	time.Sleep(20 * time.Millisecond)
	return nil
}

// Twenty commands of one person at once write their name once.
func TestNamesWrittenOnceAtOnce(t *testing.T) {
	store := &countedWrites{}
	b := newNameBook(store, nil)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if err := b.record(context.Background(), &Request{GuildID: "g", User: User{ID: "1", Name: "Ann"}}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := store.n.Load(); n != 1 {
		t.Errorf("%d writes, want 1", n)
	}
}
