package faction

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction create, show, list, set and delete: the factions themselves.

// newFaction is what /faction create asks for.
type newFaction struct {
	name, owner  string
	policy       rules.Policy
	setPolicy    bool // policy: was given, or the faction is an NPC's
	home, region string
}

// readNewFaction reads the options of /faction create.
func readNewFaction(c *kit.Call) newFaction {
	o := c.Req.Options
	nf := newFaction{owner: o.String("owner"), region: strings.TrimSpace(o.String("region"))}
	nf.setPolicy = o.Has("policy") || nf.owner == ""
	var err error
	if nf.name, err = kit.CleanName("faction name", o.String("name")); err != nil {
		c.Fail(err)
	}
	if nf.policy, err = parsePolicy(o.String("policy")); err != nil {
		c.Fail(err)
	}
	if s := o.String("home"); s != "" {
		if nf.home, err = kit.CleanName("habitat name", s); err != nil {
			c.Fail(err)
		}
	}
	return nf
}

// parsePolicy reads a standing policy as the rules word a mistake (the
// router's check of the choices meets a wrong word first). It is not
// kit.Pick, which would add an example to the message.
func parsePolicy(text string) (rules.Policy, error) {
	p, err := rules.ParsePolicy(text)
	if err != nil {
		return p, kit.Errorf("%v", err)
	}
	return p, nil
}

// add adds the faction to c, with its home: a habitat that exists and
// nobody holds, or a new one.
func (nf newFaction) add(c *rules.Campaign) (*rules.Faction, error) {
	f, err := c.AddFaction(nf.name, nf.owner)
	if err != nil {
		return nil, err
	}
	if nf.setPolicy {
		f.Policy = nf.policy
	}
	if nf.home == "" {
		return f, nil
	}
	hb := c.Habitat(nf.home)
	if hb == nil {
		_, err := c.AddHabitat(nf.home, f.Name, nf.region)
		return f, err
	}
	if hb.Owner != "" {
		return nil, kit.Errorf("%s belongs to %s: give it away first with /faction habitat set", hb.Name, hb.Owner)
	}
	hb.Owner, hb.BonusActive = f.Name, true
	giveHabitatBonus(f, hb)
	f.Home = hb.Name
	return f, nil
}

func (h *handlers) create(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c := kit.Read(req)
	nf := readNewFaction(c)
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	var view sheetView
	ch := &change{fn: func(camp *rules.Campaign) error {
		f, err := nf.add(camp)
		if err == nil {
			view = sheetOf(camp, req, f)
		}
		return err
	}}
	// The first faction starts the campaign, in the same transaction: a
	// faction that cannot be made leaves no empty campaign behind.
	_, created, err := h.factions.ensure(ctx, req.GuildID, req.ChannelID, req.User.ID, h.factionConfig(), ch.run)
	if err := ch.result(err); err != nil {
		return kit.Response{}, err
	}
	content := fmt.Sprintf("Created the faction **%s**.", kit.EscapeMarkdown(nf.name))
	if created {
		content = "Started this server's faction campaign. " + content
	}
	return view.reply(content, false), nil
}

func (h *handlers) show(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, f, err := h.campaignFaction(ctx, req, viewFaction)
	if err != nil {
		return kit.Response{}, err
	}
	return sheetOf(c, req, f).reply("", true), nil
}

// CampaignResult is the console's `result` of /faction list.
type CampaignResult struct {
	Round     int             `json:"round"`
	TurnOrder []string        `json:"turn_order"`
	Factions  []FactionResult `json:"factions"`
	Habitats  []HabitatResult `json:"habitats"`
}

func (h *handlers) list(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	res := CampaignResult{Round: c.Round, TurnOrder: c.TurnOrder, Factions: []FactionResult{}, Habitats: habitatResults(c)}
	var b strings.Builder
	fmt.Fprintf(&b, "**Faction campaign**: round %d, %s\n", c.Round, c.Config.Sequence)
	for i, f := range c.Factions {
		res.Factions = append(res.Factions, factionResult(c, req, f))
		fmt.Fprintf(&b, "%d. **%s** (%s): %s · AP %d\n", i+1, kit.EscapeMarkdown(f.Name), ownerText(f), statLine(c, f, seenStats(viewer(req), f)), c.APMax(f))
	}
	if len(c.Factions) == 0 {
		b.WriteString("No factions yet: /faction create name:\"Red Cell\"\n")
	}
	return kit.Response{Content: b.String(), Embeds: []kit.Embed{habitatsEmbed(c)}, Ephemeral: true, Result: res}, nil
}

func (h *handlers) set(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var view sheetView
	err := h.updateFaction(ctx, req, func(c *rules.Campaign, f *rules.Faction) error {
		if err := setFaction(c, f, req.Options); err != nil {
			return err
		}
		c.NumberSeen() // a meme gone: its assets born Covert take their numbers
		view = sheetOf(c, req, f)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return view.reply("Updated **"+kit.EscapeMarkdown(view.result.Name)+"**.", true), nil
}

// setFaction makes the changes of /faction set, in the order of its
// options; the first impossible one stops it (and the transaction).
func setFaction(c *rules.Campaign, f *rules.Faction, o kit.Options) error {
	if err := setPlayer(f, o); err != nil {
		return err
	}
	if s := o.String("sheet"); s != "" {
		if err := applySheet(f, s); err != nil {
			return err
		}
	}
	if o.Has("memes") {
		if err := setMemes(c, f, splitList(o.String("memes"))); err != nil {
			return err
		}
	}
	if o.Has("decline") {
		f.Decline = splitList(strings.ToLower(o.String("decline")))
	}
	if n, ok := o.Int("turn"); ok {
		order := slices.DeleteFunc(slices.Clone(c.TurnOrder), func(s string) bool { return strings.EqualFold(s, f.Name) })
		c.TurnOrder = slices.Insert(order, min(int(n)-1, len(order)), f.Name)
	}
	if hn := o.String("home"); hn != "" {
		hb := c.Habitat(hn)
		if hb == nil || hb.Owner != f.Name {
			return kit.Errorf("%s's home must be one of its habitats", f.Name)
		}
		f.Home = hb.Name
	}
	return nil
}

// setPlayer gives f to owner:, or makes it an NPC (npc:), with the
// standing policy of policy:.
func setPlayer(f *rules.Faction, o kit.Options) error {
	if owner := o.String("owner"); owner != "" {
		f.Owner = owner
	}
	if o.Bool("npc") {
		f.Owner = ""
		if f.Policy == "" {
			f.Policy = rules.PolicyHold
		}
	}
	if o.Has("policy") {
		p, err := parsePolicy(o.String("policy"))
		if err != nil {
			return err
		}
		f.Policy = p
	}
	return nil
}

// applySheet sets what "RES=5 INF=7 max_res=6 base_inf=8 ap=3" says.
func applySheet(f *rules.Faction, text string) error {
	changes, err := kit.ParseStats(text)
	if err != nil {
		return err
	}
	for k, v := range changes {
		if v == nil {
			return kit.Errorf("sheet: %s needs a value, e.g. %s=5", k, k)
		}
		if *v < 0 || *v > 100 {
			return kit.Errorf("sheet: %s=%d: use 0 to 100", k, *v)
		}
		if err := setSheetValue(f, k, *v); err != nil {
			return err
		}
	}
	return nil
}

// setSheetValue sets one value of a sheet: AP, an Attribute (RES, or its
// maximum max_RES) or a Health Stat (INF, or its base base_INF).
func setSheetValue(f *rules.Faction, k string, n int) error {
	prefix, name, cut := strings.Cut(k, "_")
	if !cut {
		name, prefix = prefix, ""
	}
	if name == "ap" && prefix == "" {
		f.AP = n
		return nil
	}
	if a, err := rules.ParseAttr(name); err == nil {
		switch prefix {
		case "":
			f.Attributes.Set(a, n)
			f.MaxAttributes.Set(a, max(f.MaxAttributes.Get(a), n))
		case "max":
			f.MaxAttributes.Set(a, n)
			f.Attributes.Set(a, min(f.Attributes.Get(a), n))
		default:
			return kit.Errorf("sheet: %s: an Attribute takes RES=5 or max_RES=6", k)
		}
		return nil
	}
	if s, err := rules.ParseStat(name); err == nil {
		switch prefix {
		case "":
			f.Stats.Set(s, n)
		case "base":
			f.BaseStats.Set(s, n)
		default:
			return kit.Errorf("sheet: %s: a Stat takes INF=7 or base_INF=6", k)
		}
		return nil
	}
	return kit.Errorf("sheet: %q is not RES, INT, COH, STR, INF, TEC, SOL, POP or AP (with max_ or base_)", k)
}

// setMemes gives f the memes named, active now.
func setMemes(c *rules.Campaign, f *rules.Faction, names []string) error {
	if len(names) == 1 && strings.EqualFold(names[0], "none") {
		names = nil // Discord sends no empty text: "none" takes them all away
	}
	if len(names) > rules.MaxMemes {
		return kit.Errorf("\"At no point may a Faction have more than 3 Memes\": %d given", len(names))
	}
	f.Memes = nil
	for _, n := range names {
		d, ok := c.Config.MemeDef(n)
		if !ok {
			var known []string
			for _, m := range c.Config.Memes {
				known = append(known, m.Name)
			}
			return kit.Errorf("there is no meme %q: use one of %s, or none", n, strings.Join(known, ", "))
		}
		f.Memes = append(f.Memes, rules.Meme{Name: d.Name, ActiveFrom: c.Round, Active: true})
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (h *handlers) delete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var name string
	err := h.updateFaction(ctx, req, func(c *rules.Campaign, f *rules.Faction) error {
		name = f.Name
		removeFaction(c, f)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Deleted the faction **%s**: its habitats are unowned, its orders gone.", kit.EscapeMarkdown(name)),
		Result: map[string]string{"deleted": name}}, nil
}

// removeFaction takes a faction out of the campaign: its habitats become
// unowned, its mercenaries and captives go home, its effects, relations
// and proposals end.
func removeFaction(c *rules.Campaign, f *rules.Faction) {
	c.Factions = slices.DeleteFunc(c.Factions, func(g *rules.Faction) bool { return g == f })
	c.TurnOrder = slices.DeleteFunc(c.TurnOrder, func(s string) bool { return strings.EqualFold(s, f.Name) })
	for _, hb := range c.Habitats {
		if hb.Owner == f.Name {
			hb.Owner, hb.BonusActive = "", false
		}
	}
	for _, g := range c.Factions {
		for _, a := range g.Assets {
			if a.HiredBy == f.Name {
				a.HiredBy = ""
			}
			if a.CapturedBy == f.Name {
				a.CapturedBy = ""
			}
			if a.DoubleFor == f.Name {
				a.DoubleFor = ""
			}
		}
	}
	c.Effects = slices.DeleteFunc(c.Effects, func(e rules.Effect) bool { return e.Faction == f.Name })
	c.Relations = slices.DeleteFunc(c.Relations, func(r rules.Relation) bool { return r.A == f.Name || r.B == f.Name })
	c.Proposals = slices.DeleteFunc(c.Proposals, func(p rules.Proposal) bool { return p.From == f.Name || p.To == f.Name })
}
