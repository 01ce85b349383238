package ulm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
)

// firstLine is a reply's first line: the change as the players read it.
func firstLine(resp kit.Response) string {
	first, _, _ := strings.Cut(resp.Content, "\n")
	return first
}

// "Each time a Character or Unit takes damage, an Injury card is made. If
// the total Damage on Injury Cards exceeds Hit Points, the Character or
// Unit becomes Vulnerable." /ulm injure on a combatant lands on its Injury
// Panel, whoever can see it applies it, and /init undo takes it back.
func TestUlmInjureInTheFight(t *testing.T) {
	it := newUlmFight(t)
	before := it.Stored()
	// bob injures the GM's Raider (hp 8): 2d6+3 = 4 + 5 + 3 = 12 > 8.
	resp := it.Must("bob", "/ulm injure target:Raider amount:2d6+3 type:incision dice:4,5")
	if got, want := firstLine(resp), "Raider took 12 incision damage, a Sharp-Force Trauma Injury Card (damage 0 -> 12, hp 8): Vulnerable"; got != want {
		t.Errorf("reply:\n got %q\nwant %q", got, want)
	}
	res := ulmResult(t, resp)
	card, _ := res["card"].(map[string]any)
	if res["total"] != 12.0 || res["potency"] != 12.0 || res["became_vulnerable"] != true || res["target"] != "Raider" ||
		card["source"] != "bob" || card["type"] != "incision" || num(res, "state", "total_damage") != 12 || num(res, "state", "hp") != 8 ||
		!strings.Contains(kittest.ResultJSON(t, resp), `"cards":[{"source":"bob","type":"incision","damage":12}]`) {
		t.Errorf("result: %v", res)
	}
	if enc, _ := res["encounter"].(map[string]any); enc["round"] != 1.0 || enc["turn"] != "Kael" {
		t.Errorf("encounter in the result: %v", res["encounter"])
	}
	if resp.Ephemeral {
		t.Errorf("an injury the players can see is ephemeral")
	}
	if after := it.Stored(); after.Seq != before.Seq+1 || after.Events != before.Events+1 {
		t.Errorf("journal: seq %d -> %d, %d -> %d entries", before.Seq, after.Seq, before.Events, after.Events)
	}
	if c := it.combatantOf("Raider"); num(c, "resources", "injury_incision") != 12 || num(c, "resources", "vulnerable") != 1 || c["defeated"] == true {
		t.Errorf("Raider: %v", c)
	}

	// "Some Actions have Execution, which causes the Vulnerable Stage to be
	// skipped, and Epilogue being applied during the Actions Resolution."
	resp = it.Must("alice", "/ulm injure target:Raider amount:1 type:puncture execution:execute source:Kael")
	if got, want := firstLine(resp), "Raider took 1 puncture damage from Kael, a Penetration Trauma Injury Card (damage 12 -> 13, hp 8); Execution: Execute: dies"; got != want {
		t.Errorf("reply:\n got %q\nwant %q", got, want)
	}
	res = ulmResult(t, resp)
	if res["execution"] != "execute" || res["became_vulnerable"] != false || res["state"].(map[string]any)["dead"] != true || res["rolls"] == nil {
		t.Errorf("execution: %v", res)
	}
	if c := it.combatantOf("Raider"); c["defeated"] != true || num(c, "resources", "dead") != 1 {
		t.Errorf("Raider executed: %v", c)
	}
	if _, err := it.Do("bob", "/ulm injure target:Raider amount:3 type:fire"); err == nil || !strings.Contains(err.Error(), "Raider: the Victim is dead") {
		t.Errorf("injuring the dead: %v", err)
	}
	// Undo takes the Execution back.
	if resp := it.Must("gm", "/init undo"); !strings.Contains(resp.Content, "ulm injure): Raider took 1 puncture damage from Kael") {
		t.Errorf("undo: %q", resp.Content)
	}
	if c := it.combatantOf("Raider"); c["defeated"] == true || num(c, "resources", "dead") != 0 || num(c, "resources", "damage") != 12 {
		t.Errorf("Raider after undo: %v", c)
	}
}

// "during Resolution, all sources of Mitigation, Amplifications, and
// Weaknesses are calculated and applied to the Potency": given, else the
// Victim's own stats.
func TestUlmInjureResolutionInTheFight(t *testing.T) {
	it := newUlmFight(t)
	it.Must("gm", `/init add name:Knight hp:20 agility:0 stats:"mitigation=3 weakness=1"`)
	// 10 − 3 + 1 = 8.
	resp := it.Must("alice", "/ulm injure target:Knight amount:10 type:fire")
	if got, want := firstLine(resp), "Knight took 8 fire damage (Potency 10, Mitigation 3, Amplification 0, Weakness 1, flat), a Burn Trauma Injury Card (damage 0 -> 8, hp 20)"; got != want {
		t.Errorf("reply:\n got %q\nwant %q", got, want)
	}
	if res := ulmResult(t, resp); res["total"] != 8.0 || res["potency"] != 10.0 || res["category"] != "elemental" || res["trauma"] != "Burn Trauma" {
		t.Errorf("result: %v", res)
	}
	// Given wins over the stat, 0 too: 10 − 0 + 1 + 2 = 13, 21 > 20.
	resp = it.Must("alice", "/ulm injure target:Knight amount:1d10 type:spite mitigation:0 amplification:2 dice:10")
	if got, want := firstLine(resp), "Knight took 13 spite damage (Potency 10, Mitigation 0, Amplification 2, Weakness 1, flat), a Demonic Trauma Injury Card (damage 8 -> 21, hp 20): Vulnerable"; got != want {
		t.Errorf("reply:\n got %q\nwant %q", got, want)
	}
	if res := ulmResult(t, resp); num(res, "state", "spite") != 13 || num(res, "state", "damage") != 8 || res["became_vulnerable"] != true {
		t.Errorf("result: %v", res)
	}
	// "Raw Damage deals ½ damage to Armor and Object Durability": the
	// fight keeps no Durability, so the Knight's state is as it was.
	before := it.combatantOf("Knight")["resources"]
	resp = it.Must("alice", "/ulm injure target:Knight amount:1d10 type:raw object:true mitigation:0 weakness:0 dice:9")
	if got, want := firstLine(resp), "Knight's Armor or Object loses 4 Durability to 9 raw damage: no Injury Card"; got != want {
		t.Errorf("reply:\n got %q\nwant %q", got, want)
	}
	if res := ulmResult(t, resp); res["durability"] != 4.0 || res["card"] != nil || res["state"] != nil || res["encounter"] == nil {
		t.Errorf("result: %v", res)
	}
	if after := it.combatantOf("Knight")["resources"]; fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the Knight's Armor took its state: %v -> %v", before, after)
	}
}

// The options the fight keeps are refused, naming them; the attack's own
// and its dice are checked as outside a fight.
func TestUlmInjureRefusedInTheFight(t *testing.T) {
	it := newUlmFight(t)
	before := it.Stored()
	for _, tt := range []struct{ user, line, want string }{
		{"alice", "/ulm injure target:Raider amount:3 type:fire hp:8 vulnerable:true",
			"Raider is a combatant of this channel's fight, which keeps its state, slots and phase: leave out hp:, vulnerable: (example: /ulm injure target:<combatant> amount:2d6+3 type:incision dice:4,5)"},
		{"alice", "/ulm injure target:Raider amount:3 type:fire damage:2 holy:1 spite:1", "leave out damage:, holy:, spite:"},
		{"alice", "/ulm injure target:Raider amount:3 type:fire dice:4", "/ulm injure rolls no dice here"},
		{"alice", "/ulm injure target:Raider amount:2d6 type:fire dice:4", "dice: 1 value given, 1 more needed: 1d6"},
		{"alice", "/ulm injure target:Raider amount:2d6 type:fire dice:4,4,4", "dice:"},
		{"alice", "/ulm injure target:Raider amount:2000000 type:fire", "damage must be at most 1000000, not 2000000"},
		{"gm", `/ulm injure target:Raider amount:3 type:fire source:"<@123>"`, "source name"},
	} {
		_, err := it.Do(tt.user, tt.line)
		if _, ok := kit.AsUserError(err); !ok || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %v, want a user error with %q", tt.user, tt.line, err, tt.want)
		}
		if after := it.Stored(); after != before {
			t.Errorf("%s: the fight changed", tt.line)
		}
	}
}

// A hidden Victim is the GM's alone; for a player it is no combatant, and
// its name is worked out by hand. A hidden source the GM names is left out
// of what the players read.
func TestUlmInjureHidden(t *testing.T) {
	it := newUlmFight(t)
	resp := it.Must("gm", "/ulm injure target:Sniper amount:1d6 type:holy dice:6")
	if !resp.Ephemeral || resp.Edit != nil || firstLine(resp) != "Sniper took 6 holy damage, a Divine Trauma Injury Card (damage 0 -> 6, hp 10)" {
		t.Errorf("the GM injures the hidden Sniper: %+v", resp)
	}
	var private bool
	if err := it.Store.SQL().QueryRow(`SELECT private FROM rolls WHERE code = ?`, ulmResult(t, resp)["id"]).Scan(&private); err != nil || !private {
		t.Errorf("the hidden Sniper's injury is logged publicly (%v)", err)
	}
	if c := it.combatantOf("Sniper"); num(c, "resources", "injury_holy") != 6 {
		t.Errorf("Sniper: %v", c)
	}
	// A player naming it gets what they would with no fight: hp: is needed.
	before := it.Stored()
	if _, err := it.Do("alice", "/ulm injure target:Sniper amount:1d6 type:holy dice:6"); err == nil || err.Error() != "/ulm injure needs hp: give hp:<number>, or character:<name> to read it from a sheet" {
		t.Errorf("a player injuring the hidden Sniper: %v", err)
	}
	resp = it.Must("alice", "/ulm injure target:Sniper amount:1d6 type:holy hp:10 dice:6")
	if resp.Edit != nil || strings.Contains(kittest.ResultJSON(t, resp), `"encounter"`) || !strings.HasPrefix(resp.Content, "**Sniper** takes 6 holy damage") {
		t.Errorf("worked out by hand: %+v", resp)
	}
	if after := it.Stored(); after != before {
		t.Errorf("a player's injury of the hidden Sniper changed the fight")
	}

	// The GM's hidden Sniper shoots Vess: the players read the damage, not
	// who dealt it; the GM's result has the source. (The tracker edit is
	// in the script ulm_encounter.txtar.)
	resp = it.Must("gm", "/ulm injure target:Vess amount:5 type:puncture source:Sniper")
	if resp.Ephemeral || firstLine(resp) != "Vess took 5 puncture damage, a Penetration Trauma Injury Card (damage 0 -> 5, hp 20)" {
		t.Errorf("a hidden source: %+v", resp)
	}
	res := ulmResult(t, resp)
	if card, _ := res["card"].(map[string]any); card["source"] != "Sniper" {
		t.Errorf("the GM's result: %v", res)
	}
	// The GM alone is told, privately, who shot.
	if f := resp.Followups; len(f) != 1 || !f[0].Ephemeral || !strings.HasPrefix(f[0].Content, "Only you see this: ") || !strings.Contains(f[0].Content, "from Sniper") {
		t.Errorf("the GM's private follow-up: %+v", f)
	}
	if err := it.Store.SQL().QueryRow(`SELECT private FROM rolls WHERE code = ?`, res["id"]).Scan(&private); err != nil || !private {
		t.Errorf("the hidden Sniper's shot is logged publicly (%v)", err)
	}
	for _, e := range view(t, it.Must("bob", "/init log count:25")).Log {
		if strings.Contains(e.Summary, "Sniper") {
			t.Errorf("the players' log names the Sniper: %+v", e)
		}
	}
	if log := view(t, it.Must("gm", "/init log count:1")).Log; len(log) != 1 || !strings.Contains(log[0].Summary, "from Sniper") {
		t.Errorf("the GM's log: %+v", log)
	}
	// A player's source is only what they typed, told as typed.
	if resp := it.Must("bob", "/ulm injure target:Vess amount:1 type:puncture source:Sniper"); !strings.HasPrefix(firstLine(resp), "Vess took 1 puncture damage from Sniper") {
		t.Errorf("a player's source: %q", resp.Content)
	}
}
