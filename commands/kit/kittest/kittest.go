// Package kittest is the test kit of the commands: a fresh store in memory
// (db's SQLite store, in memory, which passes the same store suite as
// SQLite on disk and PostgreSQL: TestStore/memory), the dependencies over
// it, a router with the given systems alone, and the console-style lines
// the tests speak. So a system's tests live in its own folder,
// commands/<system>/. It imports no package of commands but kit, so that
// every one of them can use it.
package kittest

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/db/dbtest"
	"github.com/tablehand/tablehand/rules/dice"
)

// Store returns a fresh, empty store in memory, closed when t ends.
func Store(t testing.TB) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), dbtest.Memory(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Deps returns the dependencies of a test over store (nil: none, the
// definitions alone), as kit.NewDeps makes them but with the same dice
// and roll IDs on every run: seeded roll IDs, and SeededRollers. A test
// sets what differs.
func Deps(store *db.DB) kit.Deps {
	var deps kit.Deps
	if store == nil {
		deps = kit.NewDeps(nil, nil)
	} else {
		deps = kit.NewDeps(store, nil)
	}
	deps.Codes = kit.NewCodes(1, true)
	deps.Roller = SeededRollers()
	return deps
}

// Router returns a router with systems alone mounted on deps, as
// commands.New mounts them among the rest (without the core commands and
// the tracker), with the defaults of every system deps.Rules leaves out.
// A configuration the rules cannot work with fails t.
func Router(t testing.TB, deps kit.Deps, systems ...kit.System) *kit.Router {
	t.Helper()
	deps.Systems = systems
	deps.Rules = deps.Rules.WithDefaults(systems)
	if err := deps.Rules.Validate(systems); err != nil {
		t.Fatal(err)
	}
	r := kit.NewRouter(deps.Log, deps.GMRoles)
	r.SetDatabase(deps.Database)
	if deps.Channels != nil {
		r.SetDiceRules(deps.Channels)
	}
	env := &kit.Env{Deps: deps, Router: r}
	for _, s := range systems {
		s.Mount(env, r)
	}
	return r
}

// SeededRollers hands out a roller per request, as serve does, from one
// seeded source, so a test's dice are the same on every run.
func SeededRollers() func() dice.Roller {
	src := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	return func() dice.Roller {
		mu.Lock()
		defer mu.Unlock()
		return dice.NewRandom(rand.New(rand.NewPCG(src.Uint64(), 0)))
	}
}

// Characters saves the sheets cs in store, failing t on an error.
func Characters(t testing.TB, store *db.DB, cs ...db.Character) {
	t.Helper()
	for _, c := range cs {
		if _, err := store.SaveCharacter(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
}

// Rolls returns the rolls logged in channel, oldest first, as a GM reads
// the log.
func Rolls(t testing.TB, store *db.DB, channelID string) []db.Roll {
	t.Helper()
	rolls, err := store.RecentRolls(context.Background(), channelID, "", db.Viewer{GM: true}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(rolls)
	return rolls
}

// Answer answers one console line (or "complete ..." for autocomplete)
// through r as user u1 "alice", and decodes the `result` as the console
// prints it. A line that does not parse fails the test.
func Answer(t testing.TB, r *kit.Router, line string) (kit.Response, map[string]any, error) {
	t.Helper()
	var req *kit.Request
	var err error
	if rest, ok := strings.CutPrefix(line, "complete "); ok {
		req, err = r.ParseAutocomplete(rest)
	} else {
		req, err = r.ParseLine(line)
	}
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User = kit.User{ID: "u1", Name: "alice"}
	resp, err := r.Handle(context.Background(), req)
	var result map[string]any
	if resp.Result != nil {
		js, jerr := json.Marshal(resp.Result)
		if jerr != nil {
			t.Fatalf("%s: result does not encode: %v", line, jerr)
		}
		if jerr := json.Unmarshal(js, &result); jerr != nil {
			t.Fatalf("%s: %v", line, jerr)
		}
	}
	return resp, result, err
}

// Request reads a console-style line as user, in channel "table" of guild
// "guild", with the GM's permissions for "gm": `click:ID` clicks a
// button, `complete LINE` asks for suggestions. A line that does not
// parse fails the test.
func Request(t testing.TB, r *kit.Router, user, line string) *kit.Request {
	t.Helper()
	var req *kit.Request
	var err error
	switch {
	case strings.HasPrefix(line, "click:"):
		req = &kit.Request{Kind: kit.KindComponent, CustomID: strings.TrimPrefix(line, "click:"), Options: kit.Options{}}
	case strings.HasPrefix(line, "complete "):
		req, err = r.ParseAutocomplete(strings.TrimPrefix(line, "complete "))
	default:
		req, err = r.ParseLine(line)
	}
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User = kit.User{ID: user, Name: user}
	req.ChannelID, req.GuildID = "table", "guild"
	req.SeenAll = true // a test's lines run one after another
	if user == "gm" {
		req.Permissions = kit.ManageChannels
	}
	return req
}

// Must answers a line of a table's (see Request) that must succeed.
func Must(t testing.TB, r *kit.Router, user, line string) kit.Response {
	t.Helper()
	resp, err := r.Handle(context.Background(), Request(t, r, user, line))
	if err != nil {
		t.Fatalf("%s %s: %v", user, line, err)
	}
	return resp
}

// Table is channel "table" of guild "guild" (see Request): a store and
// a router over it, for a test that speaks console lines as several users.
type Table struct {
	T     testing.TB
	Store *db.DB
	R     *kit.Router
}

// Do answers one console-style line as user (see Request).
func (tb *Table) Do(user, line string) (kit.Response, error) {
	tb.T.Helper()
	return tb.R.Handle(context.Background(), Request(tb.T, tb.R, user, line))
}

// Must answers a line that must succeed (see Must).
func (tb *Table) Must(user, line string) kit.Response {
	tb.T.Helper()
	return Must(tb.T, tb.R, user, line)
}

// Stored is the channel's stored encounter (see Fight).
func (tb *Table) Stored() StoredFight {
	tb.T.Helper()
	return Fight(tb.T, tb.Store, "table")
}

// ResultJSON is a response's `result` as the console prints it.
func ResultJSON(t testing.TB, resp kit.Response) string {
	t.Helper()
	b, err := json.Marshal(resp.Result)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// CheckLimits fails t if r breaks one of Discord's message limits.
func CheckLimits(t testing.TB, r kit.Response) {
	t.Helper()
	count := utf8.RuneCountInString
	if n := count(r.Content); n > kit.MaxContent {
		t.Errorf("content %d characters; limit %d", n, kit.MaxContent)
	}
	if len(r.Embeds) > kit.MaxEmbeds {
		t.Errorf("%d embeds; limit %d", len(r.Embeds), kit.MaxEmbeds)
	}
	total := 0
	for _, e := range r.Embeds {
		if count(e.Title) > kit.MaxEmbedTitle || count(e.Description) > kit.MaxEmbedDesc || count(e.Footer) > kit.MaxFooter {
			t.Errorf("embed title/description/footer over its limit: %d/%d/%d", count(e.Title), count(e.Description), count(e.Footer))
		}
		if len(e.Fields) > kit.MaxEmbedFields {
			t.Errorf("%d fields; limit %d", len(e.Fields), kit.MaxEmbedFields)
		}
		for _, f := range e.Fields {
			if count(f.Name) > kit.MaxFieldName || count(f.Value) > kit.MaxFieldValue || f.Name == "" || f.Value == "" {
				t.Errorf("field name/value %d/%d characters", count(f.Name), count(f.Value))
			}
		}
		total += e.Size()
	}
	if total > kit.MaxEmbedTotal {
		t.Errorf("%d characters across embeds; limit %d", total, kit.MaxEmbedTotal)
	}
	if len(r.Rows) > kit.MaxActionRows {
		t.Errorf("%d action rows; limit %d", len(r.Rows), kit.MaxActionRows)
	}
	for _, row := range r.Rows {
		if len(row) > kit.MaxButtonsPerRow {
			t.Errorf("%d buttons in a row; limit %d", len(row), kit.MaxButtonsPerRow)
		}
		for _, b := range row {
			if count(b.Label) > kit.MaxButtonLabel || len(b.CustomID) > kit.MaxCustomID {
				t.Errorf("button label %d / custom_id %d characters", count(b.Label), len(b.CustomID))
			}
		}
	}
	if len(r.Choices) > kit.MaxChoices {
		t.Errorf("%d choices; limit %d", len(r.Choices), kit.MaxChoices)
	}
	for _, c := range r.Choices {
		if count(c.Name) > kit.MaxChoiceNameLen {
			t.Errorf("choice name %d characters", count(c.Name))
		}
	}
}

// StoredFight is a channel's newest encounter as the store holds it: its
// state as stored but for when the turn last moved (the clock's time of
// each run), its seq and the length of its journal.
// Two are equal when nothing of the fight changed.
type StoredFight struct {
	State  string
	Seq    int64
	Events int
}

// Fight reads channel's newest encounter from store, failing t when it
// has none.
func Fight(t testing.TB, store *db.DB, channel string) StoredFight {
	t.Helper()
	var s StoredFight
	var id int64
	err := store.SQL().QueryRow(`SELECT id, state, seq FROM encounters WHERE channel_id = ? ORDER BY id DESC LIMIT 1`, channel).Scan(&id, &s.State, &s.Seq)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SQL().QueryRow(`SELECT COUNT(*) FROM encounter_events WHERE encounter_id = ?`, id).Scan(&s.Events); err != nil {
		t.Fatal(err)
	}
	s.State = movedAt.ReplaceAllString(s.State, "$1}")
	return s
}

// movedAt is the time in a stored state's "moved" (encounter.Moved).
var movedAt = regexp.MustCompile(`("moved":\{"by":"[^"]*"),"at":-?[0-9]+\}`)
