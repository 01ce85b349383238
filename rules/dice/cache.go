package dice

import (
	"strings"
	"sync/atomic"
)

// The parse cache keeps the Exprs of texts parsed lately, so that parsing
// one again (the same "1d20+5" every turn; /roll's autocomplete, which
// checks the text at each keystroke) costs a hash and a comparison instead
// of a parse and an allocation. Avrae's roller keeps one too.
//
// It is direct-mapped: a text's hash picks one slot, which holds the last
// Expr parsed for a text with that hash; a text that hashes to a taken
// slot takes it over, and one that collides with a busy text is simply
// parsed each time. An Expr is immutable, so any number of goroutines may
// share one, and each slot is an atomic pointer, so the cache needs no
// lock. It holds at most cacheSlots Exprs of texts of at most cacheMaxLen
// bytes: at most a few hundred kilobytes.
//
// A cached Expr is the same value a fresh parse would give, so the cache
// changes nothing but speed: the package stays free of state a caller
// could observe.
const (
	cacheSlots  = 256 // a power of two
	cacheMaxLen = 64
)

var parseCache [cacheSlots]atomic.Pointer[Expr]

// cacheSlot returns the slot of the cache for src, or nil if src is not
// to be cached.
func cacheSlot(src string) *atomic.Pointer[Expr] {
	if len(src) > cacheMaxLen {
		return nil
	}
	// FNV-1a. Its collisions could only evict a text from the cache,
	// never return the wrong Expr, as a hit compares the whole text.
	h := uint32(2166136261)
	for i := 0; i < len(src); i++ {
		h ^= uint32(src[i])
		h *= 16777619
	}
	return &parseCache[h&(cacheSlots-1)]
}

// parseCached is parse with the cache. An Expr it stores holds a copy of
// src, so the cache does not keep a larger string that src may be part of.
func parseCached(src string) (*Expr, error) {
	slot := cacheSlot(src)
	if slot == nil {
		return parse(src)
	}
	if e := slot.Load(); e != nil && e.src == src {
		return e, nil
	}
	e, err := parse(src)
	if err != nil {
		return nil, err
	}
	e.src = strings.Clone(src) // the same bytes, so positions into it hold
	if e.text == src {
		e.text = e.src
	}
	slot.Store(e)
	return e, nil
}
