package ulm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/rules/encounter"
	"github.com/tablehand/tablehand/rules/ulm"
)

// initTable is a channel of a store in memory with every command
// (commands.New: /character and /init beside /ulm): "gm" has GM rights,
// everyone else is a player.
type initTable struct{ kittest.Table }

func newInitTable(t testing.TB, policies ...encounter.Policy) *initTable {
	t.Helper()
	store := kittest.Store(t)
	deps := kittest.Deps(store)
	deps.Policies = encounter.NewPolicies(policies...)
	return &initTable{kittest.Table{T: t, Store: store, R: commands.New(deps)}}
}

// view returns a response's result as an InitResult.
func view(t testing.TB, resp kit.Response) tracker.InitResult {
	t.Helper()
	res, ok := resp.Result.(tracker.InitResult)
	if !ok {
		t.Fatalf("result %T, want InitResult", resp.Result)
	}
	return res
}

// newUlmFight is a channel with a ulm fight begun: Kael (alice's: hp 10,
// agility 2, accuracy 3), Vess (bob's: hp 20, agility 1), the Raider (an
// NPC: hp 8, no accuracy) and a hidden Sniper (hp 10, agility 1). It is
// Kael's Active Phase: 7 Action Slots.
func newUlmFight(t *testing.T) *initTable {
	t.Helper()
	it := newInitTable(t, ulm.NewPolicy(ulm.Config{}))
	for _, l := range []struct{ user, line string }{
		{"alice", `/character set name:Kael system:ulm stats:"hp=10 agility=2 accuracy=3 initiative=12"`},
		{"bob", `/character set name:Vess system:ulm stats:"hp=20 agility=1 initiative=10"`},
		{"gm", "/init start system:ulm"},
		{"alice", "/init join"},
		{"bob", "/init join"},
		{"gm", "/init add name:Raider hp:8 agility:0 initiative:9"},
		{"gm", "/init add name:Sniper hp:10 agility:1 initiative:5 hidden:true"},
		{"gm", "/init begin"},
	} {
		it.Must(l.user, l.line)
	}
	return it
}

// ulmResult decodes a /ulm `result`.
func ulmResult(t *testing.T, resp kit.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(kittest.ResultJSON(t, resp)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// combatantOf returns a combatant of the fight as the GM sees it.
func (it *initTable) combatantOf(name string) map[string]any {
	it.T.Helper()
	var v struct {
		Combatants []map[string]any `json:"combatants"`
	}
	if err := json.Unmarshal([]byte(kittest.ResultJSON(it.T, it.Must("gm", "/init list"))), &v); err != nil {
		it.T.Fatal(err)
	}
	for _, c := range v.Combatants {
		if c["name"] == name {
			return c
		}
	}
	it.T.Fatalf("no combatant %s", name)
	return nil
}

func num(m map[string]any, path ...string) float64 {
	var v any = m
	for _, k := range path {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	f, _ := v.(float64)
	return f
}

var rollIDs = regexp.MustCompile(`roll [0-9A-Z]{6}|"id":"[0-9A-Z]{6}"`)

// A /ulm subcommand that names no combatant the asker can see works out
// the rules from its options exactly as with no fight in the channel, and
// leaves the fight alone.
func TestUlmOutsideTheFightIsUnchanged(t *testing.T) {
	lines := []struct{ user, line string }{
		// carol has no ulm character (alice's Kael would be read: see
		// TestUlmReadsTheAskersOneCharacter).
		{"carol", "/ulm move action:jump accuracy:3 dice:3"},
		{"alice", "/ulm move action:jog last_slot:true actor:Goblin"},
		{"gm", "/ulm fall tiles:30 hp:50 target:Goblin dice:6,6,6"},
		{"alice", "/ulm epilogue kind:maim target:Goblin hp:20 damage:25"},
		{"alice", "/ulm epilogue kind:knockout hp:20 damage:25 phase:reserve slots:1"},
		{"alice", "/ulm heal amount:2d6 hp:20 damage:12 holy:4 vulnerable:true target:Goblin dice:3,4"},
		// The hidden Sniper is no combatant for a player.
		{"alice", "/ulm fall tiles:12 hp:20 damage:10 target:Sniper dice:1,2,3"},
		{"alice", "/ulm heal amount:1 hp:10 damage:3 target:Sniper"},
		{"bob", "/ulm move action:rush actor:Sniper"},
		{"alice", "/ulm injure target:Goblin amount:2d6+3 type:incision hp:20 damage:12 dice:4,5"},
		{"gm", "/ulm injure target:Door amount:1d10 type:raw object:true dice:9"},
		{"alice", "/ulm injure target:Sniper amount:1d6 type:puncture hp:10 damage:8 execution:knockout dice:5"},
		// character: is the Victim's sheet; target: names the Victim.
		{"bob", "/ulm injure target:Goblin character:Vess amount:3 type:fire mitigation:1"},
	}
	alone := newInitTable(t, ulm.NewPolicy(ulm.Config{}))
	alone.Must("bob", `/character set name:Vess system:ulm stats:"hp=20 agility=1 initiative=10"`)
	fight := newUlmFight(t)
	before := fight.Stored()
	for _, l := range lines {
		want, err1 := alone.Do(l.user, l.line)
		got, err2 := fight.Do(l.user, l.line)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v / %v", l.line, err1, err2)
			continue
		}
		w := rollIDs.ReplaceAllString(want.Content+kittest.ResultJSON(t, want), "")
		g := rollIDs.ReplaceAllString(got.Content+kittest.ResultJSON(t, got), "")
		if w != g || got.Edit != nil || got.Ephemeral != want.Ephemeral {
			t.Errorf("%s in a fight:\n got %s\nwant %s", l.line, g, w)
		}
	}
	if after := fight.Stored(); after != before {
		t.Errorf("the fight changed: seq %d -> %d", before.Seq, after.Seq)
	}
}

// Without character: or actor:, /ulm move is about the asker's one ulm
// character, in the fight too, and the reply says so; /ulm slots reads its
// Agility.
func TestUlmReadsTheAskersOneCharacter(t *testing.T) {
	it := newUlmFight(t)
	const note = "-# Kael is your one ulm character here: character: picks another"
	resp := it.Must("alice", "/ulm move action:jump dice:3")
	if res := ulmResult(t, resp); res["actor"] != "Kael" || res["slots_left"] != 5.0 || !strings.Contains(resp.Content, note) {
		t.Errorf("move without actor: %q %v", resp.Content, res)
	}
	resp = it.Must("alice", "/ulm slots")
	if res := ulmResult(t, resp); res["total"] != 7.0 || !strings.Contains(resp.Content, note) {
		t.Errorf("slots without agility: %q %v", resp.Content, res)
	}
	// Naming someone else reads no sheet of the asker's.
	resp = it.Must("alice", "/ulm heal amount:2 hp:20 target:Goblin")
	if strings.Contains(resp.Content, "Kael") {
		t.Errorf("heal of the Goblin read Kael: %q", resp.Content)
	}
}

// "The base number of Action Slots a Character gains when their Active
// Phase begins is (5 +/- Agility)": Kael's 7. Jump (2|3) and Jog (4|5)
// spend them; the move is a step of the journal.
func TestUlmMoveSpendsTheCombatantsSlots(t *testing.T) {
	it := newUlmFight(t)
	before := it.Stored()
	// "Requires an Accuracy Check (v:20 + Accuracy =/+ 6)": 3 + 3 lands.
	resp := it.Must("alice", "/ulm move action:jump character:Kael dice:3")
	res := ulmResult(t, resp)
	if first, _, _ := strings.Cut(resp.Content, "\n"); first != "Kael: Jump, 2 Tiles for 2 Action Slots (5 left); Accuracy Check 3 + 3 = 6 vs 6: success" {
		t.Errorf("reply: %q", resp.Content)
	}
	if res["total"] != 6.0 || res["success"] != true || res["actor"] != "Kael" || res["slots_left"] != 5.0 || res["phase"] != "active" {
		t.Errorf("result: %v", res)
	}
	if enc, _ := res["encounter"].(map[string]any); enc["budget"] != "5 Action Slots left" {
		t.Errorf("encounter in the result: %v", res["encounter"])
	}
	if after := it.Stored(); after.Seq != before.Seq+1 || after.Events != before.Events+1 {
		t.Errorf("journal: seq %d -> %d, %d -> %d entries", before.Seq, after.Seq, before.Events, after.Events)
	}
	if c := it.combatantOf("Kael"); num(c, "counters", "slots") != 2 {
		t.Errorf("Kael's counters: %v", c["counters"])
	}
	// Accuracy given wins over the stat, 0 too: 5 + 0 fails.
	resp = it.Must("alice", "/ulm move action:jump actor:Kael accuracy:0 dice:5")
	if res := ulmResult(t, resp); res["success"] != false || res["tiles"] != 1.0 || res["slots_left"] != 3.0 {
		t.Errorf("accuracy:0: %v", res)
	}
	// Jog with the last 3? It costs 4: no Action Debt.
	if _, err := it.Do("alice", "/ulm move action:jog character:Kael"); err == nil || !strings.Contains(err.Error(), "Jog costs 4 Action Slots and Kael has 3 left") {
		t.Errorf("a Jog beyond the slots: %v", err)
	}
	// Undo takes the last move back.
	it.Must("gm", "/init undo")
	if c := it.combatantOf("Kael"); num(c, "counters", "slots") != 2 {
		t.Errorf("after undo, Kael's counters: %v", c["counters"])
	}
}

// Players act only for their own combatants; the GM for anyone. The fight
// decides the phase, the state and the slots.
func TestUlmFightRefusals(t *testing.T) {
	it := newUlmFight(t)
	before := it.Stored()
	for _, tt := range []struct{ user, line, want string }{
		{"bob", "/ulm move action:rush character:Kael", "Kael is not yours: only its player or the GM acts for it"},
		{"bob", "/ulm move action:rush actor:Raider", "Raider is not yours"},
		{"alice", "/init damage target:Raider amount:9 type:incision", ""},
		{"bob", "/ulm epilogue kind:execute target:Raider actor:Kael", "Kael is not yours"},
		{"alice", "/ulm move action:rush actor:Kael phase:reserve", "leave out phase:"},
		{"alice", "/ulm move action:jog actor:Kael momentum:true last_slot:true", "leave out momentum:, last_slot:"},
		{"alice", "/ulm fall tiles:12 target:Kael hp:10 slots:7", "leave out hp:, slots:"},
		{"alice", "/ulm heal amount:2 target:Raider hp:8 maimed:1", "leave out hp:, maimed:"},
		{"alice", "/ulm epilogue kind:maim target:Raider actor:Kael slots:1", "leave out slots:"},
		{"gm", "/ulm move action:jump actor:Raider dice:12", "Raider has no accuracy for the Accuracy Check: give accuracy:<number>"},
		{"alice", "/ulm move action:rush actor:Kael dice:4", "/ulm move rolls no dice here"},
		{"alice", "/ulm fall tiles:12 target:Kael dice:1,1", "dice: 2 values given, 1 more needed: 1d6"},
		// A player does not learn of the hidden Sniper by naming it.
		{"alice", "/ulm epilogue kind:execute target:Raider actor:Sniper", "there is no combatant named Sniper: see /init list"},
		// "A Character or Unit may only activate an Epilogue if their
		// currently equipped equipment is able to Reach the Victim".
		{"alice", "/ulm epilogue kind:execute target:Raider actor:Kael reach:false", "Reach the Victim"},
		// The activator's slot and a Victim who is not in the fight cannot
		// both be kept.
		{"alice", "/ulm epilogue kind:execute target:Goblin hp:5 damage:6 actor:Kael", "Goblin is not a combatant of this channel's fight"},
	} {
		_, err := it.Do(tt.user, tt.line)
		if tt.want == "" {
			if err != nil {
				t.Fatalf("%s: %v", tt.line, err)
			}
			before = it.Stored()
			continue
		}
		if _, ok := kit.AsUserError(err); !ok || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %v, want a user error with %q", tt.user, tt.line, err, tt.want)
		}
		if after := it.Stored(); after != before {
			t.Errorf("%s: the fight changed", tt.line)
		}
	}
	// The GM acts for anyone: Kael rushes, (2|3) in its Active Phase.
	if resp := it.Must("gm", "/ulm move action:rush character:Kael"); !strings.HasPrefix(resp.Content, "Kael: Rush, 3 Tiles for 2 Action Slots (5 left)") {
		t.Errorf("the GM moving Kael: %q", resp.Content)
	}
}

// A player changes the combatants of others as the channel's play mode
// says (/init play), which /ulm reads with the fight it changes.
func TestUlmFightPlayMode(t *testing.T) {
	it := newUlmFight(t)
	for _, tt := range []struct{ mode, line, want string }{
		{"standard", "/ulm heal amount:1 target:Raider", "only its controller or the GM heals it"},
		{"strict", "/ulm fall tiles:12 target:Raider dice:1,2,3", "strict play"},
	} {
		it.Must("gm", "/init play mode:"+tt.mode)
		before := it.Stored()
		if _, err := it.Do("alice", tt.line); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s play: alice %s: %v, want %q", tt.mode, tt.line, err, tt.want)
		}
		if it.Stored() != before {
			t.Errorf("%s play: %s changed the fight", tt.mode, tt.line)
		}
	}
	it.Must("gm", "/init play mode:open")
	it.Must("alice", "/ulm heal amount:1 target:Raider")
}

// Before the fight begins no one has Action Slots to move with.
func TestUlmMoveBeforeTheFightBegins(t *testing.T) {
	it := newInitTable(t, ulm.NewPolicy(ulm.Config{}))
	it.Must("alice", `/character set name:Kael system:ulm stats:"hp=10 agility=2"`)
	it.Must("gm", "/init start system:ulm")
	it.Must("alice", "/init join")
	if _, err := it.Do("alice", "/ulm move action:rush character:Kael"); err == nil || !strings.Contains(err.Error(), "the fight has not begun") {
		t.Errorf("moving before /init begin: %v", err)
	}
}

// "each 10 Tiles a Character falls consumes 1 Action Slot"; "(3v:6+T)
// Damage, Minimum T% Hit Points"; "Characters do not begin falling until
// they gain their Action Slots."
func TestUlmFallInTheFight(t *testing.T) {
	it := newUlmFight(t)
	// Kael, in its Active Phase, falls 30 Tiles: 3 Action Slots; 6 + 6 + 6
	// + 30 = 48 > 10 Hit Points: Vulnerable from a fall, so dead.
	resp := it.Must("gm", "/ulm fall tiles:30 character:Kael dice:6,6,6")
	res := ulmResult(t, resp)
	if res["slots_used"] != 3.0 || res["slots_left"] != 4.0 || res["damage"] != 48.0 || res["minimum"] != 3.0 || res["dies"] != true {
		t.Errorf("Kael's fall: %v", res)
	}
	if c := it.combatantOf("Kael"); c["defeated"] != true || num(c, "resources", "dead") != 1 || num(c, "resources", "injury_contusion") != 48 {
		t.Errorf("Kael after the fall: %v", c)
	}
	if _, err := it.Do("alice", "/ulm move action:rush character:Kael"); err == nil || !strings.Contains(err.Error(), "Kael is dead") {
		t.Errorf("the dead move: %v", err)
	}
	// Vess, in its Reserve Phase, falls 12 Tiles: its 2 Action Slots are
	// owed to its next Active Phase. 1 + 1 + 1 + 12 = 15, at least 12% of
	// 20 (3).
	resp = it.Must("bob", "/ulm fall tiles:12 target:Vess dice:1,1,1")
	res = ulmResult(t, resp)
	if res["slots_used"] != 0.0 || res["slots_owed"] != 2.0 || res["damage"] != 15.0 || res["slots_left"] != nil {
		t.Errorf("Vess's fall: %v", res)
	}
	if first, _, _ := strings.Cut(resp.Content, "\n"); first != "Vess fell 12 Tiles (2 Action Slots when its Active Phase begins): 3v:6 (3) + 12 = 15, minimum 3: 15 contusion damage (damage 0 -> 15, hp 20)" {
		t.Errorf("reply: %q", resp.Content)
	}
	resp = it.Must("gm", "/init next")
	if !strings.Contains(resp.Content, "Vess falls: the fall consumes 2 Action Slots.") || !strings.Contains(resp.Content, "Vess: 4 Action Slots left.") {
		t.Errorf("Vess's Active Phase: %q", resp.Content)
	}
}

// Epilogues: "a Character or Unit who has an Action Slot or Reserved Slot
// may spend 1 Slot to activate an Epilogue such as Maim, Knockout, or
// Execute."
func TestUlmEpilogueInTheFight(t *testing.T) {
	it := newUlmFight(t)
	it.Must("alice", "/init damage target:Raider amount:9 type:incision")
	it.Must("bob", "/init damage target:Vess amount:21 type:fire")
	// Without actor: no slot is kept, as with /init damage type:knockout.
	resp := it.Must("bob", "/ulm epilogue kind:knockout target:Raider")
	res := ulmResult(t, resp)
	if first, _, _ := strings.Cut(resp.Content, "\n"); first != "Its activator activates Knockout on Raider: Knocked Out for 3 Full Rounds, its Active Phases skipped; in Shock for 1 hour" {
		t.Errorf("reply: %q", resp.Content)
	}
	if num(res, "state", "knocked_out_rounds") != 3 || num(res, "state", "shock_minutes") != 60 || res["actor"] != nil {
		t.Errorf("knockout: %v", res)
	}
	if c := it.combatantOf("Raider"); c["skipping"] != true || num(c, "resources", "knocked_out_seconds") != 30 {
		t.Errorf("Raider: %v", c)
	}
	// The hidden Sniper has had no Active Phase yet, so no Reserved Slot
	// to pay with.
	if _, err := it.Do("gm", "/ulm epilogue kind:maim target:Vess actor:Sniper"); err == nil || !strings.Contains(err.Error(), "an Epilogue costs 1 Reserved Slot and the activator has 0") {
		t.Errorf("the Sniper with no Reserved Slot: %v", err)
	}
	// Kael pays 1 of its 7 Action Slots to Maim Vess.
	resp = it.Must("alice", "/ulm epilogue kind:maim target:Vess actor:Kael")
	res = ulmResult(t, resp)
	if res["actor"] != "Kael" || res["slots_left"] != 6.0 || res["slot"] != "Action Slot" || num(res, "state", "maim_hours_left") != 10 {
		t.Errorf("maim: %v", res)
	}
	if c := it.combatantOf("Vess"); c["defeated"] != true || num(c, "resources", "maimed") != 1 {
		t.Errorf("Vess: %v", c)
	}
	// "Specialized healing or items may reverse the effect of a Maim only
	// if performed within 10 Hours."
	resp = it.Must("bob", "/ulm heal special:true amount:1d4 target:Vess dice:3") // Vess is bob's: healing is its controller's
	res = ulmResult(t, resp)
	if res["maim_reversed"] != true || res["vulnerable_ended"] != true || res["healed"] != 3.0 || num(res, "state", "total_damage") != 18 {
		t.Errorf("specialized healing: %v", res)
	}
}

// A hidden combatant's change goes to the GM alone, is logged privately
// and leaves the players' tracker alone; one the players can see edits it.
func TestUlmFightHiddenAndTracker(t *testing.T) {
	it := newInitTable(t, ulm.NewPolicy(ulm.Config{}))
	it.Must("alice", `/character set name:Kael system:ulm stats:"hp=10 agility=2 accuracy=3 initiative=12"`)
	it.Must("gm", "/init start system:ulm")
	it.Must("alice", "/init join")
	it.Must("gm", "/init add name:Sniper hp:10 agility:1 initiative:5 hidden:true")
	begin := it.Must("gm", "/init begin")
	if begin.Posted == nil {
		t.Fatal("the tracker is not posted at /init begin")
	}
	if err := begin.Posted(context.Background(), "msg-1"); err != nil {
		t.Fatal(err)
	}
	resp := it.Must("alice", "/ulm move action:rush character:Kael private:true")
	if !resp.Ephemeral || resp.Edit == nil || resp.Edit.MessageID != "msg-1" || resp.Edit.Embeds[0].Footer != "Kael: 5 Action Slots left" {
		t.Errorf("a private move: the tracker is still the fight's: %+v", resp)
	}
	resp = it.Must("gm", "/ulm fall tiles:5 target:Sniper dice:1,1,1")
	if !resp.Ephemeral || resp.Edit != nil || !strings.HasPrefix(resp.Content, "Sniper fell 5 Tiles") {
		t.Errorf("the hidden Sniper's fall: %+v", resp)
	}
	id := ulmResult(t, resp)["id"]
	var private bool
	if err := it.Store.SQL().QueryRow(`SELECT private FROM rolls WHERE code = ?`, id).Scan(&private); err != nil || !private {
		t.Errorf("the hidden Sniper's fall is logged publicly (%v)", err)
	}
	for _, e := range view(t, it.Must("alice", "/init log count:25")).Log {
		if strings.Contains(e.Summary, "Sniper") {
			t.Errorf("the players' log names the Sniper: %+v", e)
		}
	}
}

// actor: and target: autocomplete the combatants the asker can see.
func TestUlmFightAutocomplete(t *testing.T) {
	it := newUlmFight(t)
	for _, line := range []string{"/ulm move action:rush actor:", "/ulm epilogue kind:maim actor:", "/ulm epilogue kind:maim target:", "/ulm fall tiles:3 target:", "/ulm heal target:", "/ulm injure amount:1 type:fire target:"} {
		req, err := it.R.ParseAutocomplete(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		req.User, req.ChannelID, req.GuildID = kit.User{ID: "alice"}, "table", "guild"
		resp, err := it.R.Handle(context.Background(), req)
		var names []string
		for _, c := range resp.Choices {
			names = append(names, fmt.Sprint(c.Value))
		}
		if err != nil || strings.Join(names, ",") != "Kael,Vess,Raider" {
			t.Errorf("%s: %v, %v", line, names, err)
		}
	}
}
