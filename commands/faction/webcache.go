package faction

import (
	"container/list"
	"context"
	"html/template"
	"sync"

	"github.com/tablehand/tablehand/db"
)

// A campaign's page is most of it what the campaign's stored state
// decides (its factions, their assets, the chart, the habitats, the
// rounds played): for 100 factions, half a megabyte of HTML from half a
// megabyte of JSON. The pages keep that part, rendered, for each campaign
// and audience, under the campaign's stamp (db.CampaignStamp: its ID and
// the count of its saves), and serve it while the stamp is the stored
// one; any change to the campaign makes a new stamp, so the next request
// renders it again. What changes without a new stamp, the queued orders
// and the schedule's next firings, is read and rendered on every request;
// the names the players show are read on every request too, and a kept
// page that shows another name than the stored one is rendered again.
// The players' page and the GM's never share an entry: the audience is
// part of the key.

// DefaultPageCacheBytes is how much rendered HTML the pages keep at most
// (about sixty campaigns of 100 factions, thousands of small ones).
const DefaultPageCacheBytes = 32 << 20

// pageKey is one page: a guild's campaign as one audience reads it.
type pageKey struct {
	guild    string
	audience string
}

// pageEntry is what a page keeps of its campaign's state: its HTML, and
// what the rest of the page is rendered with.
type pageEntry struct {
	key   pageKey
	state PageState // without what the HTML shows
	// hasChart says the state has a chart, which the page's header links.
	hasChart          bool
	stateHTML, rounds template.HTML
	// factions is how many factions the state holds, whose names it
	// keeps (PageState's orders).
	factions int
}

// size is about the memory e holds, in bytes: its HTML, the names it
// keeps, and the rest.
func (e *pageEntry) size() int { return len(e.stateHTML) + len(e.rounds) + 64*e.factions + 512 }

// pageCache is the pages' entries, the least recently used dropped first
// once they hold more than max bytes. It is safe for concurrent use, and
// the requests that miss the same entry at once render it once.
type pageCache struct {
	mu      sync.Mutex
	max     int
	bytes   int
	order   *list.List // of *pageEntry, the most recently used first
	entries map[pageKey]*list.Element
	// loading are the entries being rendered, each for the stamp its
	// request read.
	loading map[pageKey]*pageLoad
	// hits and misses count the requests that found an entry of the stamp
	// they read, and the others.
	hits, misses int
}

// pageLoad is an entry being rendered: done closes when entry or err is
// set.
type pageLoad struct {
	stamp db.CampaignStamp
	done  chan struct{}
	entry *pageEntry
	err   error
}

func newPageCache(max int) *pageCache {
	return &pageCache{max: max, order: list.New(), entries: map[pageKey]*list.Element{}, loading: map[pageKey]*pageLoad{}}
}

// getLocked returns key's entry if it was made of the campaign with
// stamp. The caller holds c.mu.
func (c *pageCache) getLocked(key pageKey, stamp db.CampaignStamp) (*pageEntry, bool) {
	el, ok := c.entries[key]
	if !ok || el.Value.(*pageEntry).state.Stamp != stamp {
		c.misses++
		return nil, false
	}
	c.hits++
	c.order.MoveToFront(el)
	return el.Value.(*pageEntry), true
}

// load returns key's entry made of the campaign with stamp (read before
// the call), kept or made now by build and kept. The requests that ask
// for the same entry while build runs wait for it: it reads the campaign
// at stamp or later. One whose build fails, or whose request ends first,
// leaves the others to build their own.
func (c *pageCache) load(ctx context.Context, key pageKey, stamp db.CampaignStamp, build func() (*pageEntry, error)) (*pageEntry, error) {
	c.mu.Lock()
	if e, ok := c.getLocked(key, stamp); ok {
		c.mu.Unlock()
		return e, nil
	}
	l, ok := c.loading[key]
	if ok && l.stamp == stamp {
		c.mu.Unlock()
		select {
		case <-l.done:
			if l.err == nil {
				return l.entry, nil
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return c.build(nil, key, build)
	}
	l = &pageLoad{stamp: stamp, done: make(chan struct{})}
	c.loading[key] = l
	c.mu.Unlock()
	return c.build(l, key, build)
}

// build makes an entry and keeps it; l, if any, is the load it ends.
func (c *pageCache) build(l *pageLoad, key pageKey, build func() (*pageEntry, error)) (*pageEntry, error) {
	e, err := build()
	c.mu.Lock()
	if err == nil {
		c.put(e)
	}
	if l != nil {
		if c.loading[key] == l {
			delete(c.loading, key)
		}
		l.entry, l.err = e, err
		close(l.done)
	}
	c.mu.Unlock()
	return e, err
}

// counts returns the hits and misses so far.
func (c *pageCache) counts() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// put keeps e in place of its key's entry, unless that is of a later
// save of the same campaign, and drops the least recently used entries
// beyond the bound; an entry larger than the bound alone takes the old
// one's place in nothing. The caller holds c.mu.
func (c *pageCache) put(e *pageEntry) {
	if el, ok := c.entries[e.key]; ok {
		if old := el.Value.(*pageEntry).state.Stamp; old.ID == e.state.Stamp.ID && old.Version > e.state.Stamp.Version {
			return
		}
		c.remove(el)
	}
	if e.size() > c.max {
		return
	}
	c.entries[e.key] = c.order.PushFront(e)
	c.bytes += e.size()
	for c.bytes > c.max {
		c.remove(c.order.Back())
	}
}

func (c *pageCache) remove(el *list.Element) {
	e := c.order.Remove(el).(*pageEntry)
	delete(c.entries, e.key)
	c.bytes -= e.size()
}
