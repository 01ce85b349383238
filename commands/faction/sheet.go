package faction

import (
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// FactionResult is the console's `result` of most /faction commands: the
// faction's sheet as the asker may see it.
type FactionResult struct {
	Name       string           `json:"name"`
	Owner      string           `json:"owner,omitempty"`
	Policy     string           `json:"policy,omitempty"`
	Attributes rules.Attributes `json:"attributes"`
	Stats      rules.Stats      `json:"stats"`
	AP         int              `json:"ap"`
	Memes      []rules.Meme     `json:"memes,omitempty"`
	Habitats   []string         `json:"habitats,omitempty"`
	Assets     []AssetResult    `json:"assets,omitempty"`
	Pending    []rules.Effect   `json:"pending,omitempty"`
	Round      int              `json:"round"`
}

// AssetResult is one asset in a result.
type AssetResult struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Chart    string `json:"chart"`
	Category string `json:"category"`
	Type     string `json:"type"`
	Level    int    `json:"level"`
	Health   int    `json:"health"`
	Location string `json:"location,omitempty"`
	Covert   bool   `json:"covert,omitempty"`
}

func assetResult(c *rules.Campaign, own *rules.Faction, a *rules.Asset) AssetResult {
	return AssetResult{ID: a.ID, Name: a.Name, Chart: a.Chart, Category: string(a.Category), Type: string(a.Type),
		Level: a.Level, Health: a.Health, Location: a.Location, Covert: c.Covert(own, a)}
}

func factionResult(c *rules.Campaign, req *kit.Request, f *rules.Faction) FactionResult {
	return factionResultFor(c, viewer(req), f)
}

// factionResultFor is f's sheet as v may see it.
func factionResultFor(c *rules.Campaign, v Viewer, f *rules.Faction) FactionResult {
	r := FactionResult{Name: f.Name, Owner: f.Owner, Policy: string(f.Policy), Stats: seenStats(v, f), AP: seenAP(c, v, f), Memes: f.Memes, Round: c.Round}
	for _, a := range rules.AllAttrs {
		r.Attributes.Set(a, c.Attribute(f, a))
	}
	for _, hb := range habitatsOf(c, f) {
		r.Habitats = append(r.Habitats, hb.Name)
	}
	for _, a := range assetsFor(c, v, f) {
		r.Assets = append(r.Assets, assetResult(c, f, a))
	}
	if v.SeesAll(f) {
		r.Pending = c.Pending(f.Name)
	}
	return r
}

// sheetView is a faction's sheet as the asker may see it: the embed, and
// the console's result.
type sheetView struct {
	embed  kit.Embed
	result FactionResult
}

func sheetOf(c *rules.Campaign, req *kit.Request, f *rules.Faction) sheetView {
	return sheetView{embed: factionEmbed(c, req, f), result: factionResult(c, req, f)}
}

// reply shows the sheet below content.
func (v sheetView) reply(content string, private bool) kit.Response {
	return kit.Response{Content: content, Embeds: []kit.Embed{v.embed}, Ephemeral: private, Result: v.result}
}

// apNow is the AP the faction has now: what it has left in its turn of
// this round, else what it will renew to.
func apNow(c *rules.Campaign, f *rules.Faction) int {
	if f.Turn.Round != c.Round {
		return c.APMax(f)
	}
	return f.AP
}

// seenAP is f's AP now as v reads it: its player and the GM as it is,
// the others as if its Covert actions were unpaid (TurnState.CovertAP).
func seenAP(c *rules.Campaign, v Viewer, f *rules.Faction) int {
	if v.SeesAll(f) || f.Turn.Round != c.Round {
		return apNow(c, f)
	}
	return f.SeenAP()
}

// seenStats are f's Health Stats as v reads them (see seenAP).
func seenStats(v Viewer, f *rules.Faction) rules.Stats {
	if v.SeesAll(f) {
		return f.Stats
	}
	return f.SeenStats()
}

// habitatsOf lists the habitats f holds.
func habitatsOf(c *rules.Campaign, f *rules.Faction) []*rules.Habitat {
	var out []*rules.Habitat
	for _, hb := range c.Habitats {
		if hb.Owner == f.Name {
			out = append(out, hb)
		}
	}
	return out
}

// visibleAssets lists the assets of f the request may see.
func visibleAssets(c *rules.Campaign, req *kit.Request, f *rules.Faction) []*rules.Asset {
	return assetsFor(c, viewer(req), f)
}

// assetsFor lists the assets of f the viewer may see.
func assetsFor(c *rules.Campaign, v Viewer, f *rules.Faction) []*rules.Asset {
	var out []*rules.Asset
	for _, a := range f.Assets {
		if v.Sees(c, f, a) {
			out = append(out, a)
		}
	}
	return out
}

// ownerText names a faction's player for a message.
func ownerText(f *rules.Faction) string {
	if f.Owner == "" {
		p := f.Policy
		if p == "" {
			p = rules.PolicyHold
		}
		return "NPC, policy " + string(p)
	}
	return "played by <@" + f.Owner + ">"
}

func attrLine(c *rules.Campaign, f *rules.Faction) string {
	parts := make([]string, 0, 4)
	for _, a := range rules.AllAttrs {
		v, full := c.Attribute(f, a), attrFull(c, f, a)
		if v != full {
			parts = append(parts, fmt.Sprintf("%s %d/%d", a, v, full))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d", a, v))
		}
	}
	return strings.Join(parts, " · ")
}

// attrFull is f's Attribute a undamaged: what Regroup heals it up to,
// with its assets' bonuses (c.Attribute's, beside the Health Stats'
// c.StatMax).
func attrFull(c *rules.Campaign, f *rules.Faction, a rules.Attr) int {
	return f.MaxAttributes.Get(a) - f.Attributes.Get(a) + c.Attribute(f, a)
}

// statLine writes stats, f's as its reader sees them (seenStats).
func statLine(c *rules.Campaign, f *rules.Faction, stats rules.Stats) string {
	parts := make([]string, 0, 4)
	for _, s := range rules.AllStats {
		parts = append(parts, fmt.Sprintf("%s %d/%d", s, stats.Get(s), c.StatMax(f, s)))
	}
	return strings.Join(parts, " · ")
}

func assetLine(c *rules.Campaign, own *rules.Faction, a *rules.Asset) string {
	s := fmt.Sprintf("`#%d` **%s** (%s %s, Level %d/%d)", a.ID, kit.EscapeMarkdown(a.Name), a.Category, a.Type, a.Health, a.Level)
	switch {
	case a.Transit != nil:
		s += fmt.Sprintf(" to %s, arrives round %d", kit.EscapeMarkdown(a.Transit.To), a.Transit.Arrive)
	case a.Location != "":
		s += " at " + kit.EscapeMarkdown(a.Location)
	}
	var tags []string
	if c.Covert(own, a) {
		tags = append(tags, "covert")
	}
	if a.CapturedBy != "" {
		tags = append(tags, "captive of "+a.CapturedBy)
	}
	if a.HiredBy != "" {
		tags = append(tags, "hired by "+a.HiredBy)
	}
	if a.DoubleFor != "" {
		tags = append(tags, "double agent for "+a.DoubleFor)
	}
	if a.Duplicate {
		tags = append(tags, "duplicate")
	}
	if len(tags) > 0 {
		s += " [" + strings.Join(tags, ", ") + "]"
	}
	return s
}

func factionEmbed(c *rules.Campaign, req *kit.Request, f *rules.Faction) kit.Embed {
	fields := []kit.Field{
		{Name: "Attributes", Value: attrLine(c, f)},
		{Name: "Health Stats", Value: statLine(c, f, seenStats(viewer(req), f))},
		{Name: "AP", Value: fmt.Sprintf("%d (renews to %d)", seenAP(c, viewer(req), f), c.APMax(f)), Inline: true},
	}
	if len(f.Memes) > 0 {
		fields = append(fields, kit.Field{Name: "Memes", Value: memesLine(f), Inline: true})
	}
	var habs, assets []string
	for _, hb := range habitatsOf(c, f) {
		s := fmt.Sprintf("%s (health %d/%d", kit.EscapeMarkdown(hb.Name), hb.Health, hb.MaxHealth)
		if hb.Suppressed {
			s += ", suppressed"
		}
		habs = append(habs, s+")")
	}
	for _, a := range visibleAssets(c, req, f) {
		assets = append(assets, assetLine(c, f, a))
	}
	fields = listField(fields, "Habitats", habs)
	fields = listField(fields, "Assets", assets)
	if viewer(req).SeesAll(f) {
		fields = listField(fields, "Pending", pendingLines(c, f))
	}
	return kit.Embed{Title: f.Name, Description: ownerText(f) + fmt.Sprintf(" · round %d", c.Round), Fields: fields}
}

// listField adds a field of lines to fields, unless there are none.
func listField(fields []kit.Field, name string, lines []string) []kit.Field {
	if len(lines) == 0 {
		return fields
	}
	return append(fields, kit.Field{Name: name, Value: strings.Join(lines, "\n")})
}

func memesLine(f *rules.Faction) string {
	var ms []string
	for _, m := range f.Memes {
		s := m.Name
		if !m.Active {
			s += fmt.Sprintf(" (from round %d)", m.ActiveFrom)
		}
		ms = append(ms, s)
	}
	return strings.Join(ms, ", ")
}

// pendingLines are what f waits for: delayed effects and debts.
func pendingLines(c *rules.Campaign, f *rules.Faction) []string {
	var pend []string
	for _, e := range c.Pending(f.Name) {
		pend = append(pend, fmt.Sprintf("round %d: %s", e.Due, e.Note))
	}
	for _, d := range f.Debts {
		pend = append(pend, fmt.Sprintf("debt %d: %s", d.ID, d.Note))
	}
	return pend
}
