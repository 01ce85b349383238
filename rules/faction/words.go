package faction

import (
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/rules/words"
)

// Words are the words of one option: the one table both a command's
// choices (Values, in order) and the reading of what a user typed
// (Parse) come from, so the two cannot drift apart.
type Words[T ~string] struct {
	// Values are the words offered, in order.
	Values []T
	// Also are words read as a value without being offered: other
	// spellings ("resources" for RES), or "" for a default.
	Also map[string]T
	// Same says whether typed is the word name; nil is strings.EqualFold.
	Same func(typed, name string) bool
	// Mistake is what an error says of a word none of these are, with one
	// verb for it: "policy %q".
	Mistake string
}

// Parse reads s as one of the words, else returns an ErrBadParam that
// quotes s and names the words to use.
func (w Words[T]) Parse(s string) (T, error) {
	same := w.Same
	if same == nil {
		same = strings.EqualFold
	}
	for _, v := range w.Values {
		if same(s, string(v)) {
			return v, nil
		}
	}
	for name, v := range w.Also {
		if same(s, name) {
			return v, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("%w: "+w.Mistake+": use %s", ErrBadParam, s, w.Use())
}

// Use names the words offered: "a, b or c".
func (w Words[T]) Use() string {
	names := make([]string, len(w.Values))
	for i, v := range w.Values {
		names[i] = string(v)
	}
	return words.Or(names)
}

// sameWord reads a word in any case, spaces around it ignored.
func sameWord(typed, name string) bool {
	return strings.ToLower(strings.TrimSpace(typed)) == strings.ToLower(name)
}
