package arc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	arccmd "github.com/tablehand/tablehand/commands/arc"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/arc"
	"github.com/tablehand/tablehand/rules/dice"
)

// arcRun answers one console line with rules and returns the reply and the
// `result` as JSON.
func arcRun(t *testing.T, rules kit.Rules, store *db.DB, line string) (kit.Response, string, error) {
	t.Helper()
	roller := dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	deps := kittest.Deps(store)
	deps.Rules, deps.Roller = rules, func() dice.Roller { return roller }
	r := kittest.Router(t, deps, arccmd.System)
	req, err := r.ParseLine(line)
	if err != nil {
		return kit.Response{}, "", err
	}
	req.User = kit.User{ID: "u1", Name: "alice"}
	resp, err := r.Handle(context.Background(), req)
	js, jerr := json.Marshal(resp.Result)
	if jerr != nil {
		t.Fatalf("%s: result does not encode: %v", line, jerr)
	}
	return resp, string(js), err
}

func newArcStore(t *testing.T) *db.DB {
	t.Helper()
	store := kittest.Store(t)
	kittest.Characters(t, store,
		db.Character{Name: "Mira", System: "arc", OwnerID: "u1", Stats: map[string]int{"control": 7, "accuracy": 4, "tamper": 5, "som": 6}},
		db.Character{Name: "Rex", System: "burst", OwnerID: "u1", Stats: map[string]int{"ks": 1}})
	return store
}

// TestArcConfigOverrides checks that a campaign's [arc] values reach the
// handlers: a renamed threshold, another ES die, more actions, a larger
// size adjustment.
func TestArcConfigOverrides(t *testing.T) {
	cfg := arc.DefaultConfig()
	cfg.Thresholds["legendary"] = 25
	cfg.Thresholds["average"] = 10
	cfg.ESDice[4] = 10 // ES 5 rolls a d10
	cfg.ActionsByES[4] = 4
	cfg.SizeAdjPerStep = 3
	rules := kit.Rules{arc.SystemName: cfg}
	store := newArcStore(t)

	tests := []struct {
		line    string
		content string
		result  []string
	}{
		{"/arc check ks:7 us:4 es:5 threshold:average dice:5", "16 vs 10 (average): success by 6\n",
			[]string{`"total":16`, `"margin":6`, `"es_die":10`, `"min_adj":-5`, `"actions_per_turn":4`, `"threshold":10`}},
		{"/arc check ks:7 us:4 es:5 threshold:legendary dice:10", "6 vs 25 (legendary): failure by 19\n",
			[]string{`"es_adj":-5`, `"success":false`, `"threshold_name":"legendary"`}},
		{"/arc opposed ks:1 us:1 es:5 target_ks:1 target_us:1 target_es:5 size:large dice:1,1", "6 vs 3: success by 3\n",
			[]string{`"size_adj":3`, `"margin":3`}},
	}
	for _, tt := range tests {
		resp, js, err := arcRun(t, rules, store, tt.line)
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if !strings.HasPrefix(resp.Content, tt.content) {
			t.Errorf("%s: reply %q, want it to begin %q", tt.line, resp.Content, tt.content)
		}
		for _, want := range tt.result {
			if !strings.Contains(js, want) {
				t.Errorf("%s: result %s lacks %s", tt.line, js, want)
			}
		}
	}
	if rolls := kittest.Rolls(t, store, ""); len(rolls) != len(tests) || rolls[0].Expr != "arc check" || rolls[0].Total != 16 {
		t.Errorf("roll log: %+v, want every check logged under its command", rolls)
	}
}

// TestArcZeroRulesUseDefaults: handlers given no configuration (a zero
// Deps.Rules) answer with the documented defaults rather than fail.
func TestArcZeroRulesUseDefaults(t *testing.T) {
	resp, js, err := arcRun(t, kit.Rules{}, newArcStore(t), "/arc check ks:7 us:4 es:5 threshold:average dice:5")
	if err != nil || !strings.HasPrefix(resp.Content, "16 vs 9 (average): success by 7\n") || !strings.Contains(js, `"es_die":8`) {
		t.Errorf("zero rules: %q %s %v", resp.Content, js, err)
	}
}

// TestArcReadsOwnCharacter: without character:, /arc reads the asker's
// one arc character, as /roll does, and says so (issue 21).
func TestArcReadsOwnCharacter(t *testing.T) {
	resp, _, err := arcRun(t, nil, newArcStore(t), "/arc check threshold:easy ks:control us:accuracy es:1 dice:1")
	if err != nil || !strings.Contains(resp.Content, "KS 7 + US 4") || !strings.Contains(resp.Content, "-# Mira is your one arc character here: character: picks another") {
		t.Errorf("/arc check without character: = %q, %v; want Mira's control and accuracy, and a note that says so", resp.Content, err)
	}
}

func TestArcMistakes(t *testing.T) {
	tests := []struct {
		line  string
		want  string
		empty bool // the asker has no character (else Mira is their one arc character)
	}{
		{line: "/arc check threshold:easy character:Rex ks:1 us:1 es:1 dice:1", want: "Rex is a burst character; /arc needs an arc one"},
		{line: "/arc check threshold:easy ks:control us:1 es:1 dice:1", want: "ks:control names a stat, but no sheet was given", empty: true},
		{line: "/arc check threshold:easy character:Mira ks:control us:accuracy dice:1", want: "/arc check needs es: give es:<number or stat name>, or add es to Mira's sheet"},
		{line: "/arc check threshold:easy ks:1 us:1 es:5 dice:1,2", want: "dice: 2 values given but only 1 die rolled (example: dice:4, the ES 5 die d8)"},
		{line: "/arc opposed ks:1 us:1 es:5 target:Nobody target_ks:1 target_us:1 target_es:1 dice:1,1", want: `there is no character "Nobody" here`},
		{line: "/arc opposed ks:1 us:1 es:5 target_ks:1 target_us:1 target_es:1 target_size:9 dice:1,1", want: "target_size: size must be -3 to 3 (medium is 0), not 9"},
		{line: "/arc order who:\",,\"", want: "who: lists nobody"},
		{line: "/arc order who:\"som=3\"", want: "every entry of who: starts with a name"},
		{line: "/arc order who:\"Gob som=3 str=4\"", want: `"str=4" in who: is not som, empathy or perception`},
		{line: "/arc order who:\"Gob som=x\"", want: `som needs a whole number, not "x"`},
		{line: "/arc order who:\"Rex\"", want: "Rex is a burst character; /arc order needs arc ones"},
		{line: "/arc order who:\"" + strings.Repeat("G som=1 emp=1 per=1,", 31) + "\"", want: "who: lists more than 30 characters"},
		{line: "/arc move control:5 build:0", want: "option build must be at least 1, not 0 (example: /arc move build:1)"},
		{line: "/arc move control:5 build:6 load:3 clothing:5", want: "the clothing (5 kg) is part of the weight borne (3 kg)"},
		{line: "/arc move control:5 es:0", want: "ES score must be 1-10, not 0"},
	}
	for _, tt := range tests {
		store := newArcStore(t)
		if tt.empty {
			store = kittest.Store(t)
		}
		_, _, err := arcRun(t, nil, store, tt.line)
		ue, ok := kit.AsUserError(err)
		if !ok || !strings.Contains(ue.Msg, tt.want) {
			t.Errorf("%s: err = %v, want a user error containing %q", tt.line, err, tt.want)
		}
	}
}

func TestArcRepliesFitDiscord(t *testing.T) {
	// Twenty characters all tied: the longest /arc order reply there is
	// short of a very long who:, and it must still fit one message.
	var who []string
	for i := range 20 {
		who = append(who, fmt.Sprintf("Character%02d som=5 empathy=5 perception=5", i))
	}
	resp, js, err := arcRun(t, nil, newArcStore(t), `/arc order who:"`+strings.Join(who, ", ")+`"`)
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(resp.Content)); n > kit.MaxContent {
		t.Errorf("reply of %d characters", n)
	}
	if !strings.Contains(js, `"total":20`) {
		t.Errorf("result %s, want all 20 in order", js)
	}
}
