package faction

import (
	"context"
	"html/template"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// entry is a kept page of guild's campaign at stamp, its HTML size bytes.
func entry(guild string, stamp db.CampaignStamp, size int) *pageEntry {
	return &pageEntry{key: gmKey(guild), state: PageState{Stamp: stamp},
		stateHTML: template.HTML(strings.Repeat("x", size))}
}

func gmKey(guild string) pageKey { return pageKey{guild: guild, audience: db.AudienceGM} }

// keep puts e in c.
func (c *pageCache) keep(e *pageEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.put(e)
}

// has reports whether c holds key's entry of stamp.
func (c *pageCache) has(key pageKey, stamp db.CampaignStamp) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.getLocked(key, stamp)
	return ok
}

// The kept pages stay within their bound, the least recently read
// dropped first; one larger than the bound alone is not kept; an entry
// serves its own stamp only, and an older one never replaces it.
func TestPageCacheIsBounded(t *testing.T) {
	one := db.CampaignStamp{ID: 1, Version: 1}
	size := entry("", one, 1000).size()
	c := newPageCache(3 * size)
	for _, g := range []string{"a", "b", "c"} {
		c.keep(entry(g, one, 1000))
	}
	if !c.has(gmKey("a"), one) { // a is now the most recent
		t.Fatal("a is not kept")
	}
	c.keep(entry("d", one, 1000))
	if c.has(gmKey("b"), one) {
		t.Error("b, the least recently read, is still kept beyond the bound")
	}
	for _, g := range []string{"a", "c", "d"} {
		if !c.has(gmKey(g), one) {
			t.Errorf("%s is not kept", g)
		}
	}
	two := db.CampaignStamp{ID: 1, Version: 2}
	if c.has(gmKey("a"), two) {
		t.Error("an entry served a newer stamp")
	}
	if c.has(pageKey{guild: "a", audience: db.AudiencePlayers}, one) {
		t.Error("the GM's entry served the players")
	}
	c.keep(entry("a", two, 1000))
	c.keep(entry("a", one, 1000))
	if !c.has(gmKey("a"), two) {
		t.Error("an entry of an older save replaced a newer one")
	}
	c.keep(entry("huge", one, 4*size))
	if c.has(gmKey("huge"), one) || c.bytes > c.max {
		t.Errorf("an entry larger than the bound is kept: %d bytes of %d", c.bytes, c.max)
	}
	if !c.has(gmKey("d"), one) {
		t.Error("an entry too large to keep dropped the others")
	}
}

// The requests that miss the same entry at once render it once, and all
// get it.
func TestPageCacheRendersOnceForRequestsAtOnce(t *testing.T) {
	const requests = 8
	c := newPageCache(DefaultPageCacheBytes)
	stamp := db.CampaignStamp{ID: 1, Version: 1}
	release := make(chan struct{})
	var mu sync.Mutex
	builds := 0
	build := func() (*pageEntry, error) {
		mu.Lock()
		builds++
		mu.Unlock()
		<-release
		return entry("g", stamp, 10), nil
	}
	got := make([]*pageEntry, requests)
	var wg sync.WaitGroup
	for i := range requests {
		wg.Go(func() {
			e, err := c.load(context.Background(), gmKey("g"), stamp, build)
			if err != nil {
				t.Error(err)
			}
			got[i] = e
		})
	}
	for { // every request has missed: one builds, the others wait
		if _, misses := c.counts(); misses == requests {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if builds != 1 {
		t.Errorf("%d requests at once rendered %d times; want once", requests, builds)
	}
	for _, e := range got {
		if e == nil || e != got[0] {
			t.Fatalf("the requests got different entries")
		}
	}
	if !c.has(gmKey("g"), stamp) {
		t.Error("the entry rendered is not kept")
	}
}
