package faction

import (
	"errors"
	"strings"
	"testing"
)

// wordsCase is one table's words as a test reads them.
type wordsCase struct {
	name   string
	use    string
	values []string
	also   map[string]string
	parse  func(string) (string, error)
}

func wordsOf[T ~string](name string, w Words[T]) wordsCase {
	c := wordsCase{name: name, use: w.Use(), also: map[string]string{}}
	for _, v := range w.Values {
		c.values = append(c.values, string(v))
	}
	for k, v := range w.Also {
		c.also[k] = string(v)
	}
	c.parse = func(s string) (string, error) {
		v, err := w.Parse(s)
		return string(v), err
	}
	return c
}

// TestWordsParseBack checks that each table reads back every word it
// offers as a choice, and every other word it lists, as its own value;
// and that a word it does not list is an ErrBadParam naming the choices.
func TestWordsParseBack(t *testing.T) {
	for _, w := range []wordsCase{
		wordsOf("AttrWords", AttrWords),
		wordsOf("StatWords", StatWords),
		wordsOf("Categories", Categories),
		wordsOf("Policies", Policies),
		wordsOf("RollTypes", RollTypes),
		wordsOf("PayModes", PayModes),
	} {
		if len(w.values) == 0 {
			t.Errorf("%s offers no words", w.name)
		}
		for _, v := range w.values {
			if got, err := w.parse(v); err != nil || got != v {
				t.Errorf("%s.Parse(%q) = %q, %v; want %q", w.name, v, got, err, v)
			}
		}
		for k, v := range w.also {
			if got, err := w.parse(k); err != nil || got != v {
				t.Errorf("%s.Parse(%q) = %q, %v; want %q", w.name, k, got, err, v)
			}
		}
		if _, err := w.parse("no such word"); !errors.Is(err, ErrBadParam) || !strings.HasSuffix(err.Error(), ": use "+w.use) {
			t.Errorf("%s.Parse(no such word) = %v, want ErrBadParam ending \": use %s\"", w.name, err, w.use)
		}
	}
}

func TestWordsUse(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{AttrWords.Use(), "RES, INT, COH or STR"},
		{StatWords.Use(), "INF, TEC, SOL or POP"},
		{Categories.Use(), "Facility, Vehicle, Unit or Agent"},
		{Policies.Use(), "hold, invest, repair or produce"},
		{RollTypes.Use(), "straight-faction, straight-asset, opposed-faction or opposed-asset"},
		{PayModes.Use(), "ap, stat or auto"},
		{Words[Stat]{Values: []Stat{INF}}.Use(), "INF"},
		{Words[Stat]{Values: []Stat{INF, TEC}}.Use(), "INF or TEC"},
	} {
		if tt.got != tt.want {
			t.Errorf("Use() = %q, want %q", tt.got, tt.want)
		}
	}
}
