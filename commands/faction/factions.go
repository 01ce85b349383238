package faction

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

func (h *handlers) factionCreate(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, err := kit.CleanName("faction name", req.Options.String("name"))
	if err != nil {
		return kit.Response{}, err
	}
	policy, err := rules.ParsePolicy(req.Options.String("policy"))
	if err != nil {
		return kit.Response{}, kit.Errorf("%v", err)
	}
	var home string
	if s := req.Options.String("home"); s != "" {
		if home, err = kit.CleanName("habitat name", s); err != nil {
			return kit.Response{}, err
		}
	}
	region := strings.TrimSpace(req.Options.String("region"))
	owner := req.Options.String("owner")
	var result FactionResult
	var embed kit.Embed
	addFaction := func(c *rules.Campaign) error {
		f, err := c.AddFaction(name, owner)
		if err != nil {
			return err
		}
		if req.Options.Has("policy") || owner == "" {
			f.Policy = policy
		}
		if home != "" {
			if hb := c.Habitat(home); hb != nil {
				if hb.Owner != "" {
					return kit.Errorf("%s belongs to %s: give it away first with /faction habitat set", hb.Name, hb.Owner)
				}
				hb.Owner, hb.BonusActive = f.Name, true
				giveHabitatBonus(f, hb)
				f.Home = hb.Name
			} else if _, err := c.AddHabitat(home, f.Name, region); err != nil {
				return err
			}
		}
		result, embed = factionResult(c, req, f), factionEmbed(c, req, f)
		return nil
	}
	// The first faction starts the campaign, in the same transaction: a
	// faction that cannot be made leaves no empty campaign behind.
	var fnErr error
	nc := db.NewCampaign{ChannelID: req.ChannelID, ActorID: req.User.ID, Config: h.factionConfig()}
	_, created, err := h.Factions.EnsureCampaign(ctx, req.GuildID, nc, func(fc *db.FactionCampaign) error {
		fnErr = addFaction(fc.Campaign)
		return fnErr
	})
	if fnErr != nil {
		return kit.Response{}, factionError(fnErr)
	}
	if err != nil {
		return kit.Response{}, err
	}
	content := fmt.Sprintf("Created the faction **%s**.", kit.EscapeMarkdown(name))
	if created {
		content = "Started this server's faction campaign. " + content
	}
	return kit.Response{Content: content, Embeds: []kit.Embed{embed}, Result: result}, nil
}

func (h *handlers) factionShow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	f, err := viewFaction(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Embeds: []kit.Embed{factionEmbed(fc.Campaign, req, f)}, Ephemeral: true, Result: factionResult(fc.Campaign, req, f)}, nil
}

// CampaignResult is the console's `result` of /faction list.
type CampaignResult struct {
	Round     int             `json:"round"`
	TurnOrder []string        `json:"turn_order"`
	Factions  []FactionResult `json:"factions"`
	Habitats  []HabitatResult `json:"habitats"`
}

func (h *handlers) factionList(ctx context.Context, req *kit.Request) (kit.Response, error) {
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
		fmt.Fprintf(&b, "%d. **%s** (%s): %s · AP %d\n", i+1, kit.EscapeMarkdown(f.Name), ownerText(f), statLine(c, f), c.APMax(f))
	}
	if len(c.Factions) == 0 {
		b.WriteString("No factions yet: /faction create name:\"Red Cell\"\n")
	}
	return kit.Response{Content: b.String(), Embeds: []kit.Embed{{Title: "Habitats", Description: habitatLines(c)}}, Ephemeral: true, Result: res}, nil
}

// applySheet sets what "RES=5 INF=7 max_res=6 base_inf=8 ap=3" says.
func applySheet(c *rules.Campaign, f *rules.Faction, text string) error {
	changes, err := kit.ParseStats(text)
	if err != nil {
		return err
	}
	for k, v := range changes {
		if v == nil {
			return kit.Errorf("sheet: %s needs a value, e.g. %s=5", k, k)
		}
		n := *v
		if n < 0 || n > 100 {
			return kit.Errorf("sheet: %s=%d: use 0 to 100", k, n)
		}
		prefix, name, cut := strings.Cut(k, "_")
		if !cut {
			name, prefix = prefix, ""
		}
		if name == "ap" && prefix == "" {
			f.AP = n
			continue
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
			continue
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
			continue
		}
		return kit.Errorf("sheet: %q is not RES, INT, COH, STR, INF, TEC, SOL, POP or AP (with max_ or base_)", k)
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

func (h *handlers) factionSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var result FactionResult
	var embed kit.Embed
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		f := c.Faction(req.Options.String("faction"))
		if f == nil {
			return kit.Errorf("there is no faction %q: see /faction list", req.Options.String("faction"))
		}
		if o := req.Options.String("owner"); o != "" {
			f.Owner = o
		}
		if req.Options.Bool("npc") {
			f.Owner = ""
			if f.Policy == "" {
				f.Policy = rules.PolicyHold
			}
		}
		if req.Options.Has("policy") {
			p, err := rules.ParsePolicy(req.Options.String("policy"))
			if err != nil {
				return kit.Errorf("%v", err)
			}
			f.Policy = p
		}
		if s := req.Options.String("sheet"); s != "" {
			if err := applySheet(c, f, s); err != nil {
				return err
			}
		}
		if req.Options.Has("memes") {
			names := splitList(req.Options.String("memes"))
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
					return kit.Errorf("there is no meme %q: use one of %s", n, strings.Join(known, ", "))
				}
				f.Memes = append(f.Memes, rules.Meme{Name: d.Name, ActiveFrom: c.Round, Active: true})
			}
		}
		if req.Options.Has("decline") {
			f.Decline = splitList(strings.ToLower(req.Options.String("decline")))
		}
		if n, ok := req.Options.Int("turn"); ok {
			order := slices.DeleteFunc(slices.Clone(c.TurnOrder), func(s string) bool { return strings.EqualFold(s, f.Name) })
			i := min(int(n)-1, len(order))
			c.TurnOrder = slices.Insert(order, i, f.Name)
		}
		if hn := req.Options.String("home"); hn != "" {
			hb := c.Habitat(hn)
			if hb == nil || hb.Owner != f.Name {
				return kit.Errorf("%s's home must be one of its habitats", f.Name)
			}
			f.Home = hb.Name
		}
		result, embed = factionResult(c, req, f), factionEmbed(c, req, f)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "Updated **" + kit.EscapeMarkdown(result.Name) + "**.", Embeds: []kit.Embed{embed}, Ephemeral: true, Result: result}, nil
}

func (h *handlers) factionDelete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var name string
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		f := c.Faction(req.Options.String("faction"))
		if f == nil {
			return kit.Errorf("there is no faction %q: see /faction list", req.Options.String("faction"))
		}
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
