package words_test

import (
	"testing"

	"github.com/tablehand/tablehand/rules/words"
)

func TestA(t *testing.T) {
	for _, tt := range []struct{ word, want string }{
		{"Envoy", "an Envoy"},
		{"envoy", "an envoy"},
		{"Agent", "an Agent"},
		{"Interrogator", "an Interrogator"},
		{"Egocasting Hub", "an Egocasting Hub"},
		{"Ship", "a Ship"},
		{"University", "a University"},
		{"arc", "an arc"},
		{"burst", "a burst"},
		{"hour", "an hour"},
		{"", "a "},
	} {
		if got := words.A(tt.word); got != tt.want {
			t.Errorf("A(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n         int
		one, want string
	}{
		{1, "report", "1 report"},
		{2, "report", "2 reports"},
		{0, "faction", "0 factions"},
		{-1, "point", "-1 points"},
		{3, "class", "3 classes"},
		{2, "match", "2 matches"},
		{2, "Facility", "2 Facilities"},
		{2, "day", "2 days"},
	} {
		if got := words.Count(tt.n, tt.one); got != tt.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.one, got, tt.want)
		}
	}
}

func TestOr(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := words.Or(tt.names); got != tt.want {
			t.Errorf("Or(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}
