package bot

import (
	"html/template"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/db"
)

// entry is a kept page of guild's campaign at stamp, its HTML size bytes.
func entry(guild string, stamp db.CampaignStamp, size int) *pageEntry {
	return &pageEntry{key: pageKey{guild: guild, audience: db.AudienceGM}, state: faction.PageState{Stamp: stamp},
		stateHTML: template.HTML(strings.Repeat("x", size))}
}

// The kept pages stay within their bound, the least recently read
// dropped first; one larger than the bound alone is not kept; an entry
// serves its own stamp only.
func TestPageCacheIsBounded(t *testing.T) {
	one := db.CampaignStamp{ID: 1, Version: 1}
	size := entry("", one, 1000).size()
	c := newPageCache(3 * size)
	for _, g := range []string{"a", "b", "c"} {
		c.put(entry(g, one, 1000))
	}
	gm := func(g string) pageKey { return pageKey{guild: g, audience: db.AudienceGM} }
	if _, ok := c.get(gm("a"), one); !ok { // a is now the most recent
		t.Fatal("a is not kept")
	}
	c.put(entry("d", one, 1000))
	if _, ok := c.get(gm("b"), one); ok {
		t.Error("b, the least recently read, is still kept beyond the bound")
	}
	for _, g := range []string{"a", "c", "d"} {
		if _, ok := c.get(gm(g), one); !ok {
			t.Errorf("%s is not kept", g)
		}
	}
	if _, ok := c.get(gm("a"), db.CampaignStamp{ID: 1, Version: 2}); ok {
		t.Error("an entry served a newer stamp")
	}
	if _, ok := c.get(pageKey{guild: "a", audience: db.AudiencePlayers}, one); ok {
		t.Error("the GM's entry served the players")
	}
	c.put(entry("huge", one, 4*size))
	if _, ok := c.get(gm("huge"), one); ok || c.bytes > c.max {
		t.Errorf("an entry larger than the bound is kept: %d bytes of %d", c.bytes, c.max)
	}
	if _, ok := c.get(gm("d"), one); !ok {
		t.Error("an entry too large to keep dropped the others")
	}
	if hits, misses := c.counts(); hits != 5 || misses != 4 {
		t.Errorf("%d hits, %d misses; want 5 and 4", hits, misses)
	}
}
