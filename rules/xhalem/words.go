package xhalem

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/words"
)

// Word is one word an option of these rules takes, and the value it
// reads as. Its first name is the one offered, a choice of the command
// (none when it is "": the option left out); the others are read as
// well ("mech" for a machine).
type Word[T any] struct {
	Names []string
	Value T
}

// Words are the words of one option: the one table both the command's
// choices (Choices) and the reading of what the user gave (Parse) come
// from.
type Words[T any] struct {
	// What names the option in a mistake: "stealth".
	What string
	// Fold lower-cases and trims a word before it is looked up.
	Fold bool
	// List is the words, in the order they are offered.
	List []Word[T]
	// Use is what a mistake tells the user to use, when not the offered
	// words in their order.
	Use string
}

// Choices returns the words offered, in order.
func (w Words[T]) Choices() []string {
	var out []string
	for _, word := range w.List {
		if word.Names[0] != "" {
			out = append(out, word.Names[0])
		}
	}
	return out
}

// Values returns the values of the words offered, in order.
func (w Words[T]) Values() []T {
	var out []T
	for _, word := range w.List {
		if word.Names[0] != "" {
			out = append(out, word.Value)
		}
	}
	return out
}

// Parse reads s as one of the words: their value, else a mistake that
// quotes s and says which words to use.
func (w Words[T]) Parse(s string) (T, error) {
	k := s
	if w.Fold {
		k = strings.ToLower(strings.TrimSpace(s))
	}
	for _, word := range w.List {
		if slices.Contains(word.Names, k) {
			return word.Value, nil
		}
	}
	use := w.Use
	if use == "" {
		use = words.Or(w.Choices())
	}
	var zero T
	return zero, fmt.Errorf("%s %q: use %s", w.What, s, use)
}
