package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmInjureResult is the `result` of /ulm injure: total is the damage
// after Resolution.
type ulmInjureResult struct {
	kit.Outcome
	Target           string    `json:"target"`
	Potency          int       `json:"potency"`
	Damage           int       `json:"damage"`
	Type             string    `json:"type"`
	Category         string    `json:"category"`
	Trauma           string    `json:"trauma"`
	Effect           string    `json:"effect"`
	Durability       int       `json:"durability,omitempty"`
	Card             *ulmCard  `json:"card"`
	BecameVulnerable bool      `json:"became_vulnerable"`
	Execution        string    `json:"execution,omitempty"` // the Epilogue the Action's Execution applied
	State            *ulmState `json:"state,omitempty"`     // none for Armor or an Object
	ulmInFight
}

func newUlmInjureResult(res rules.InjuryResult, in rules.Injury, target string, cfg rules.Config) *ulmInjureResult {
	result := &ulmInjureResult{
		Outcome: kit.Outcome{Total: res.Damage}, Target: target, Potency: res.Potency, Damage: res.Damage, Type: string(in.Type),
		Category: res.Info.Category, Trauma: res.Info.Trauma, Effect: res.Info.Effect, Durability: res.Durability,
		Card: ulmCardResult(res.Card), BecameVulnerable: res.BecameVulnerable,
	}
	if !in.Object {
		st := newUlmState(res.State, cfg)
		result.State = &st
	}
	if e := res.Execution; e != nil {
		result.Execution = string(e.Kind)
	}
	return result
}

const ulmInjureExample = "/ulm injure target:Goblin amount:2d6+3 type:incision hp:20 dice:4,5"

func (h *handlers) ulmInjure(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	typ, err := rules.ParseDamageType(req.Options.String("type"))
	if err != nil {
		return kit.Response{}, u.fail("ulm injure", err, ulmInjureExample)
	}
	name := ulmNamed(req, u, "target")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmInjureInFight(ctx, req, u, name, typ)
	}
	in := rules.Injury{Type: typ, Object: req.Options.Bool("object"), Execution: rules.Epilogue(req.Options.String("execution"))}
	// The Damage Source is who deals it: the option, else the one who
	// types the command. (character: is the Victim's sheet here.)
	in.Source = ulmUserName(req.User)
	if s := req.Options.String("source"); s != "" {
		if in.Source, err = kit.CleanName("source name", s); err != nil {
			return kit.Response{}, err
		}
	}
	var s rules.State
	if !in.Object { // Armor and Objects have Durability, not Hit Points
		if s, err = u.state(req); err != nil {
			return kit.Response{}, err
		}
	}
	in.Mitigation = u.sheet.Or(req, "mitigation", 0)
	in.Amplification = u.sheet.Or(req, "amplification", 0)
	in.Weakness = u.sheet.Or(req, "weakness", 0)
	if in.Potency, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Injure(s, in, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm injure", err, ulmInjureExample)
	}
	target, err := kit.CleanName("target name", req.Options.String("target"))
	if err != nil {
		return kit.Response{}, err
	}
	result := newUlmInjureResult(res, in, target, u.cfg)
	var b strings.Builder
	mods := ""
	if in.Mitigation+in.Amplification+in.Weakness > 0 {
		mods = fmt.Sprintf(" (Potency %d, Mitigation %d, Amplification %d, Weakness %d, %s)", res.Potency, in.Mitigation, in.Amplification, in.Weakness, u.cfg.ModifierMode)
	}
	if in.Object {
		fmt.Fprintf(&b, "**%s** (Armor or Object) loses %d Durability to %d %s damage%s", kit.EscapeMarkdown(target), res.Durability, res.Damage, typ, mods)
	} else {
		fmt.Fprintf(&b, "**%s** takes %d %s damage%s", kit.EscapeMarkdown(target), res.Damage, typ, mods)
		if res.Card != nil {
			fmt.Fprintf(&b, ": %s Injury Card", res.Info.Trauma)
		} else {
			b.WriteString(": no damage left, no Injury Card")
		}
		switch e := res.Execution; {
		case e != nil:
			fmt.Fprintf(&b, "; Vulnerable, and the Action's Execution applies %s at once", ulmTitle(string(e.Kind)))
		case res.BecameVulnerable:
			b.WriteString("; becomes Vulnerable: an Epilogue may follow")
		}
		b.WriteString("; " + ulmStatusLine(res.State, u.cfg))
	}
	b.WriteString("\n-# " + res.Info.Effect)
	return h.ulmReply(ctx, req, u, "ulm injure "+string(typ), &result.Outcome, result, b.String())
}

const ulmInjureFightExample = "/ulm injure target:<combatant> amount:2d6+3 type:incision dice:4,5"

// ulmInjureInFight is /ulm injure of a combatant: rules.Policy.Injure
// resolves the damage against its Injury Panel, with the Mitigation,
// Amplification and Weakness given, else its own stats. Anyone who can
// see the Victim may injure it, as with /init damage.
func (h *handlers) ulmInjureInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string, typ rules.DamageType) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, ulmInjureFightExample, "hp", "damage", "holy", "spite", "vulnerable"); err != nil {
		return kit.Response{}, err
	}
	in := rules.InjureInput{Injury: rules.Injury{Type: typ, Object: req.Options.Bool("object"), Execution: rules.Epilogue(req.Options.String("execution"))}}
	if src := strings.TrimSpace(req.Options.String("source")); src != "" {
		var err error
		if in.Source, err = kit.CleanName("source name", src); err != nil {
			return kit.Response{}, err
		}
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
		if n, ok := req.Options.Int(m.option); ok {
			*m.to, *m.known = int(n), true
		}
	}
	var err error
	if in.Potency, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	var (
		res    rules.InjuryResult
		target string
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm injure", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		before := e.Clone()
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		var line string
		if res, line, err = p.Injure(e, c, in); err != nil {
			return ulmAccount{}, err
		}
		target = c.Name
		acc := ulmAccount{summary: line, secret: c.Hidden}
		// The GM may name a hidden combatant as the source: the players
		// read the damage without it. A player's source is only what they
		// typed, and is told as typed, so that it tells them nothing.
		if src, err := e.Find(in.Source); req.GM && in.Source != "" && err == nil && src.Hidden && !c.Hidden {
			unnamed := in
			unnamed.Source = ""
			acc.secret = true
			if acc.public, err = ulmRetell(before, c.ID, func(x *encounter.Encounter, v *encounter.Combatant) (string, error) {
				_, line, err := p.Injure(x, v, unnamed)
				return line, err
			}); err != nil {
				return ulmAccount{}, err
			}
		}
		return acc, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	if res.Card != nil && in.Source == "" {
		// The card the result shows has the Damage Source of a card made
		// outside a fight ("default: you"); the journal names it only
		// when given, as its actor is the asker already. It is the newest
		// card of the panel.
		res.Card.Source = ulmUserName(req.User)
		res.State.Cards[len(res.State.Cards)-1].Source = res.Card.Source
	}
	result := newUlmInjureResult(res, in.Injury, target, u.cfg)
	return h.ulmFightReply(ctx, req, u, "ulm injure "+string(typ), &result.Outcome, &result.ulmInFight, result, enc, ev)
}
