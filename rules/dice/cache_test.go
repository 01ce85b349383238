package dice

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func TestParseCache(t *testing.T) {
	big := "4d6kh3 and then some text the cache must not keep alive"
	src := big[:6]
	e1, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Parse("4d6kh3")
	if err != nil {
		t.Fatal(err)
	}
	if e1 != e2 {
		t.Errorf("Parse of the same text twice gave two Exprs")
	}
	if unsafe.StringData(e1.src) == unsafe.StringData(big) {
		t.Errorf("the cached Expr keeps the caller's string")
	}
	if e1.String() != "4d6kh3" {
		t.Errorf("cached Expr = %q", e1)
	}

	// A long text is parsed afresh each time.
	long := "1d20 + " + strings.Repeat("1 + ", cacheMaxLen/4) + "1"
	if a, b := mustParse(t, long), mustParse(t, long); a == b {
		t.Errorf("a text of %d bytes was cached", len(long))
	}

	// A text that takes over a slot evicts the one before it, which is
	// then parsed again, to the same expression.
	slot := cacheSlot("1d20 + 5")
	var other string
	for i := 0; ; i++ {
		other = strconv.Itoa(i) + "d6"
		if cacheSlot(other) == slot {
			break
		}
	}
	a := mustParse(t, "1d20 + 5")
	mustParse(t, other)
	b := mustParse(t, "1d20 + 5")
	if a == b || a.String() != b.String() {
		t.Errorf("after %q took its slot, 1d20 + 5 parsed to %p %q, before %p %q", other, b, b, a, a)
	}

	// Errors are not cached, and a cached text rolls as a fresh one.
	for range 2 {
		if _, err := Parse("1d20++5"); err == nil {
			t.Fatal("1d20++5 parsed")
		}
	}
	for _, s := range []string{"2d6 [fire] + 1d4 [cold] 1d20", "4d6kh3 + 2", "[ x ]"} {
		fresh, err1 := parse(s)
		cached, err2 := Parse(s)
		cached2, err3 := Parse(s)
		if (err1 == nil) != (err2 == nil) || (err2 == nil) != (err3 == nil) {
			t.Fatalf("%s: errors %v, %v, %v", s, err1, err2, err3)
		}
		if err1 != nil {
			continue
		}
		r1, _ := fresh.Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
		r2, _ := cached2.Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
		if cached != cached2 || r1.String() != r2.String() {
			t.Errorf("%s: fresh %q, cached %q", s, r1, r2)
		}
	}
}

// The cache is shared: run with -race.
func TestParseCacheConcurrent(t *testing.T) {
	texts := []string{"1d20+5", "4d6kh3", "8d6", "2d20kh1+7", "10d10>=8", "3d6!", "100d100", "1d20+1d4+3-1d6"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			r := NewRandom(rand.New(rand.NewPCG(uint64(g), 1)))
			for i := range 500 {
				s := texts[(g+i)%len(texts)]
				if i%7 == 0 {
					s = strconv.Itoa(i%50+1) + "d6" // churn the slots
				}
				e, err := Parse(s)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := e.Roll(r); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
