package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// injureResult is the `result` of /ulm injure: total is the damage
// after Resolution.
type injureResult struct {
	kit.Outcome
	Target           string       `json:"target"`
	Potency          int          `json:"potency"`
	Damage           int          `json:"damage"`
	Type             string       `json:"type"`
	Category         string       `json:"category"`
	Trauma           string       `json:"trauma"`
	Effect           string       `json:"effect"`
	Durability       int          `json:"durability,omitempty"`
	Card             *cardResult  `json:"card"`
	BecameVulnerable bool         `json:"became_vulnerable"`
	Execution        string       `json:"execution,omitempty"` // the Epilogue the Action's Execution applied
	State            *stateResult `json:"state,omitempty"`     // none for Armor or an Object
	inFight
}

// newInjureResult is the `result` of res, the injury in of target.
func newInjureResult(res rules.InjuryResult, in rules.Injury, target string, cfg rules.Config) *injureResult {
	result := &injureResult{
		Outcome: kit.Outcome{Total: res.Damage}, Target: target, Potency: res.Potency, Damage: res.Damage, Type: string(in.Type),
		Category: res.Info.Category, Trauma: res.Info.Trauma, Effect: res.Info.Effect, Durability: res.Durability,
		Card: newCardResult(res.Card), BecameVulnerable: res.BecameVulnerable,
	}
	if !in.Object {
		st := newStateResult(res.State, cfg)
		result.State = &st
	}
	if e := res.Execution; e != nil {
		result.Execution = string(e.Kind)
	}
	return result
}

const (
	injureExample      = "/ulm injure target:Goblin amount:2d6+3 type:incision hp:20 dice:4,5"
	injureFightExample = "/ulm injure target:<combatant> amount:2d6+3 type:incision dice:4,5"
)

// injureByHand is /ulm injure out of a fight: the Victim's state and its
// Mitigation, Amplification and Weakness are the options (or the sheet's).
func (h *handlers) injureByHand(ctx context.Context, c *kit.Call, cfg rules.Config, in rules.Injury) (kit.Response, error) {
	// The Damage Source is who deals it: the option, else the one who
	// types the command. (character: is the Victim's sheet here.)
	in.Source = userName(c.Req.User)
	if s := c.Req.Options.String("source"); s != "" {
		in.Source = cleanName(c, "source", s)
	}
	var s rules.State
	if !in.Object { // Armor and Objects have Durability, not Hit Points
		s = state(c, cfg)
	}
	in.Mitigation, in.Amplification, in.Weakness = c.Or("mitigation", 0), c.Or("amplification", 0), c.Or("weakness", 0)
	in.Potency = amount(c, "amount")
	res, err := kit.Rule(c, injureExample, func() (rules.InjuryResult, error) { return rules.Injure(s, in, cfg) })
	if err != nil {
		return kit.Response{}, err
	}
	target := cleanName(c, "target", c.Req.Options.String("target"))
	result := newInjureResult(res, in, target, cfg)
	return h.reply(ctx, c, "ulm injure "+string(in.Type), &result.Outcome, result, injureLine(target, in, res, cfg))
}

// injury is what both ways of /ulm injure read alike: the damage type,
// whether it hits Armor or an Object, and the Action's Execution.
func injury(c *kit.Call) rules.Injury {
	o := c.Req.Options
	typ := kit.Pick(c, "type", rules.ParseDamageType, injureExample)
	return rules.Injury{Type: typ, Object: o.Bool("object"), Execution: rules.Epilogue(o.String("execution"))}
}

// injureLine is the outcome of an injury out of a fight, in words.
func injureLine(target string, in rules.Injury, res rules.InjuryResult, cfg rules.Config) string {
	var b strings.Builder
	mods := ""
	if in.Mitigation+in.Amplification+in.Weakness > 0 {
		mods = fmt.Sprintf(" (Potency %d, Mitigation %d, Amplification %d, Weakness %d, %s)", res.Potency, in.Mitigation, in.Amplification, in.Weakness, cfg.ModifierMode)
	}
	if in.Object {
		fmt.Fprintf(&b, "**%s** (Armor or Object) loses %d Durability to %d %s damage%s", kit.EscapeMarkdown(target), res.Durability, res.Damage, in.Type, mods)
	} else {
		fmt.Fprintf(&b, "**%s** takes %d %s damage%s", kit.EscapeMarkdown(target), res.Damage, in.Type, mods)
		if res.Card != nil {
			fmt.Fprintf(&b, ": %s Injury Card", res.Info.Trauma)
		} else {
			b.WriteString(": no damage left, no Injury Card")
		}
		switch e := res.Execution; {
		case e != nil:
			fmt.Fprintf(&b, "; Vulnerable, and the Action's Execution applies %s at once", title(string(e.Kind)))
		case res.BecameVulnerable:
			b.WriteString("; becomes Vulnerable: an Epilogue may follow")
		}
		b.WriteString("; " + statusLine(res.State, cfg))
	}
	b.WriteString("\n-# " + res.Info.Effect)
	return b.String()
}

// injureInFight is /ulm injure of a combatant: rules.Policy.Injure
// resolves the damage against its Injury Panel, with the Mitigation,
// Amplification and Weakness given, else its own stats. Anyone who can
// see the Victim may injure it, as with /init damage.
func (h *handlers) injureInFight(ctx context.Context, c *kit.Call, cfg rules.Config, name string, inj rules.Injury) (kit.Response, error) {
	fightKeeps(c, name, injureFightExample, "hp", "damage", "holy", "spite", "vulnerable")
	in := injureInput(c, inj)
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	var res rules.InjuryResult
	ch, err := h.track(ctx, c, "ulm injure", name, tracker.Harm, func(e *encounter.Encounter, p rules.Policy, who *encounter.Combatant) (account, error) {
		before := e.Clone()
		r, line, err := p.Injure(e, who, in)
		if err != nil {
			return account{}, err
		}
		res = r
		if !hiddenSource(c.Req, e, in.Source, who) {
			return account{summary: line}, nil
		}
		public, err := injuryUnnamed(before, p, who.ID, in)
		return account{summary: line, secret: true, public: public}, err
	})
	if err != nil {
		return kit.Response{}, err
	}
	if res.Card != nil && in.Source == "" {
		// The card the result shows has the Damage Source of a card made
		// outside a fight ("default: you"); the journal names it only
		// when given, as its actor is the asker already. It is the newest
		// card of the panel.
		res.Card.Source = userName(c.Req.User)
		res.State.Cards[len(res.State.Cards)-1].Source = res.Card.Source
	}
	result := newInjureResult(res, in.Injury, ch.name, cfg)
	return h.fightReply(ctx, c, ch, "ulm injure "+string(in.Type), &result.Outcome, &result.inFight, result)
}

// injureInput reads /ulm injure in a fight: the Damage Source only when
// given, and the Mitigation, Amplification and Weakness given, which
// stand in for the Victim's own stats.
func injureInput(c *kit.Call, inj rules.Injury) rules.InjureInput {
	in := rules.InjureInput{Injury: inj}
	if src := strings.TrimSpace(c.Req.Options.String("source")); src != "" {
		in.Source = cleanName(c, "source", src)
	}
	for _, m := range []struct {
		option string
		to     *int
		known  *bool
	}{
		{"mitigation", &in.Mitigation, &in.MitigationKnown},
		{"amplification", &in.Amplification, &in.AmplificationKnown},
		{"weakness", &in.Weakness, &in.WeaknessKnown},
	} {
		if n, ok := c.Req.Options.Int(m.option); ok {
			*m.to, *m.known = int(n), true
		}
	}
	in.Potency = amount(c, "amount")
	return in
}

// hiddenSource reports whether the players, who see the Victim, may not
// read the Damage Source of its injury. The GM may name a hidden
// combatant as the source: the players read the damage without it. A
// player's source is only what they typed, and is told as typed, so
// that it tells them nothing.
func hiddenSource(req *kit.Request, e *encounter.Encounter, source string, victim *encounter.Combatant) bool {
	src, err := e.Find(source)
	return req.GM && source != "" && err == nil && src.Hidden && !victim.Hidden
}

// injuryUnnamed is the account of in on the combatant victimID of e with
// no Damage Source named: what the players read of damage the GM gave a
// hidden source.
func injuryUnnamed(e *encounter.Encounter, p rules.Policy, victimID int, in rules.InjureInput) (string, error) {
	in.Source = ""
	return retell(e, victimID, func(x *encounter.Encounter, v *encounter.Combatant) (string, error) {
		_, line, err := p.Injure(x, v, in)
		return line, err
	})
}
