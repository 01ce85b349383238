// Package words writes the small words of English replies: the article
// before a noun and a count with its noun, so that no reply says "a
// Envoy" or "1 reports". It is plain text: no I/O, no markdown.
package words

import (
	"fmt"
	"strings"
)

// Article is "an" before a vowel sound, "a" otherwise, whatever the
// case: "an Envoy", "an arc character", "a University", "a Ship".
func Article(word string) string {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, p := range []string{"uni", "use", "usu", "uti", "eu", "one", "once"} {
		if strings.HasPrefix(w, p) {
			return "a" // a consonant sound: "a University", "a one-off"
		}
	}
	for _, p := range []string{"hour", "honest", "honor", "honour", "heir"} {
		if strings.HasPrefix(w, p) {
			return "an" // a silent h
		}
	}
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// A is word after its article: "an Envoy", "a Ship".
func A[S ~string](word S) string { return Article(string(word)) + " " + string(word) }

// Count is n with its noun, plural unless n is 1: "1 report",
// "3 reports", "0 factions", "-1 points". The plural adds "s", or "es" after s, x, z,
// ch and sh; a noun ending in a consonant and y takes "ies".
func Count(n int, one string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, Plural(one))
}

// Plural is the plural of a regular noun: see Count.
func Plural(one string) string {
	l := strings.ToLower(one)
	switch {
	case strings.HasSuffix(l, "s"), strings.HasSuffix(l, "x"), strings.HasSuffix(l, "z"),
		strings.HasSuffix(l, "ch"), strings.HasSuffix(l, "sh"):
		return one + "es"
	case len(l) > 1 && strings.HasSuffix(l, "y") && !strings.ContainsRune("aeiou", rune(l[len(l)-2])):
		return one[:len(one)-1] + "ies"
	}
	return one + "s"
}

// Or lists names as a choice: "a, b or c"; "a" for one, "" for none.
func Or(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
