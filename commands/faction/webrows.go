package faction

import (
	"html/template"
	"strconv"
	"strings"
)

// What a campaign page repeats for each faction, habitat, round and
// report (for 100 factions of 20 assets, 100 cards of 2,400 rows, 500 KB;
// after 20 rounds, 2,000 dots on the chart, 2,000 cells in its table and
// 2,000 reports) is written here rather than by campaign.html:
// html/template evaluates each action by reflection and escapes its value
// through another call by reflection, and those parts were most of the
// page's time. Every value, user text (names, reports) or not, passes
// through template.HTMLEscapeString, which escapes all that matters in
// element text and in a quoted attribute (& < > " ' and NUL); the markup
// is the template's own, and the page's tests read it as they read the
// template's.

// htmlWriter builds HTML.
type htmlWriter struct{ strings.Builder }

// text writes s escaped.
func (w *htmlWriter) text(s string) { w.WriteString(template.HTMLEscapeString(s)) }

// int writes n.
func (w *htmlWriter) int(n int) {
	var buf [20]byte
	w.Write(strconv.AppendInt(buf[:0], int64(n), 10))
}

// grown is a writer with room for the HTML of xs, about size(x) bytes
// each, so that it is written without copying.
func grown[T any](xs []T, size func(T) int) *htmlWriter {
	n := 0
	for _, x := range xs {
		n += size(x)
	}
	w := new(htmlWriter)
	w.Grow(n)
	return w
}

// html is what w holds, as HTML.
func (w *htmlWriter) html() template.HTML { return template.HTML(w.String()) }

// Where a faction's card begins each table.
const (
	statsHead = "<div class=\"scroll\">\n<table class=\"stats\">\n<caption>Attributes and Health Stats</caption>\n" +
		`<thead><tr><th scope="col">Attribute</th><th scope="col">Value</th><th scope="col">Health Stat</th><th scope="col">Value</th></tr></thead>` + "\n<tbody>\n"
	assetsHead = "\n<div class=\"scroll\">\n<table class=\"assets\">\n<caption>Assets</caption>\n" +
		`<thead><tr><th scope="col">#</th><th scope="col">Asset</th><th scope="col">Type</th><th scope="col">Level</th><th scope="col">Health</th></tr></thead>` + "\n"
)

// factionCards is each faction's card: who plays it, its AP, habitats and
// memes, its stats table, its assets table, its research and pending
// effects (those the page's reader may see; gm: the reader is the GM).
func factionCards(factions []PageFaction, gm bool) template.HTML {
	w := grown(factions, func(f PageFaction) int { return 2500 + 200*len(f.Assets) })
	for _, f := range factions {
		w.card(f, gm)
	}
	return w.html()
}

func (w *htmlWriter) card(f PageFaction, gm bool) {
	w.WriteString("\n<article class=\"faction\" data-faction=\"")
	w.text(f.Name)
	w.WriteString("\">\n<h3 class=\"faction-name\">")
	w.text(f.Name)
	w.WriteString("</h3>\n<p class=\"meta\">")
	switch {
	case f.Owner == "":
		w.WriteString("NPC")
		if f.Policy != "" {
			w.WriteString(", policy ")
			w.text(f.Policy)
		}
	case f.PlayerName != "":
		w.WriteString(`Played by <span class="player">`)
		w.text(f.PlayerName)
		w.WriteString(`</span>`)
	default:
		// Someone who has not acted since names were kept: never their ID.
		w.WriteString("Played by a player")
	}
	w.WriteString(` · AP <span class="ap">`)
	w.int(f.AP)
	w.WriteString("</span>")
	w.list(len(f.Habitats), " · holds ", ", ", "", func(i int) { w.text(f.Habitats[i]) })
	w.WriteString("</p>\n")
	w.list(len(f.Memes), `<p class="memes">Memes: `, ", ", "</p>", func(i int) {
		m := f.Memes[i]
		w.text(m.Name)
		if !m.Active {
			w.WriteString(" (from round ")
			w.int(m.ActiveFrom)
			w.WriteString(")")
		}
	})
	w.WriteString("\n" + statsHead)
	for _, p := range f.Pairs {
		w.WriteString("<tr>\n")
		w.stat(p.Attr, p.AttrValue, p.AttrMax, p.AttrPercent)
		w.WriteString("\n")
		w.stat(p.Stat, p.StatValue, p.StatMax, p.StatPercent)
		w.WriteString("\n</tr>\n")
	}
	w.WriteString("</tbody>\n</table>\n</div>\n")
	switch {
	case len(f.Groups) > 0:
		w.WriteString(assetsHead)
		for _, g := range f.Groups {
			w.assets(g)
		}
		w.WriteString("</table>\n</div>\n")
	case gm:
		w.WriteString("<p>No assets.</p>")
	default:
		w.WriteString("<p>No assets that players can see.</p>")
	}
	w.WriteString("\n")
	w.list(len(f.Research), `<h4>Research in progress</h4><ul class="research">`, "", "</ul>", func(i int) {
		r := f.Research[i]
		w.WriteString("<li>")
		w.text(r.Kind)
		if r.Target != "" {
			w.WriteString(" of ")
			w.text(r.Target)
		}
		w.WriteString(" to ")
		w.int(r.New)
		w.WriteString(": ")
		w.text(r.Status)
		if r.Ready != 0 {
			w.WriteString(", ready round ")
			w.int(r.Ready)
		}
		w.WriteString("</li>")
	})
	w.WriteString("\n")
	w.list(len(f.Pending), "<h4>Pending</h4><ul>", "", "</ul>", func(i int) {
		w.WriteString("<li>round ")
		w.int(f.Pending[i].Due)
		w.WriteString(": ")
		w.text(f.Pending[i].Note)
		w.WriteString("</li>")
	})
	w.WriteString("\n</article>\n")
}

// list writes a list of n items, if any: open, each item (written by
// item, sep between two), then close.
func (w *htmlWriter) list(n int, open, sep, close string, item func(i int)) {
	if n == 0 {
		return
	}
	w.WriteString(open)
	for i := range n {
		if i > 0 {
			w.WriteString(sep)
		}
		item(i)
	}
	w.WriteString(close)
}

// stat is a stats row's header cell and its bar.
func (w *htmlWriter) stat(name string, value, max, percent int) {
	w.WriteString(`<th scope="row">`)
	w.text(name)
	w.WriteString(`</th><td class="stat" data-stat="`)
	w.text(name)
	w.WriteString(`"><meter min="0" max="`)
	w.int(max)
	w.WriteString(`" value="`)
	w.int(value)
	w.WriteString(`">`)
	w.int(percent)
	w.WriteString(`%</meter> <span class="value">`)
	w.int(value)
	w.WriteString(`</span>/`)
	w.int(max)
	w.WriteString(`</td>`)
}

// assets is the assets table's body of one habitat: a header row naming
// it, then a row an asset.
func (w *htmlWriter) assets(g AssetGroup) {
	w.WriteString("<tbody>\n<tr><th scope=\"rowgroup\" colspan=\"5\" class=\"where\">")
	if g.Habitat != "" {
		w.WriteString("at ")
		w.text(g.Habitat)
	} else {
		w.WriteString("no habitat")
	}
	w.WriteString("</th></tr>\n")
	for _, a := range g.Assets {
		w.WriteString(`<tr class="asset" data-asset="`)
		w.int(a.ID)
		w.WriteString(`"><td>`)
		w.int(a.ID)
		w.WriteString(`</td><td class="asset-name">`)
		w.text(a.Name)
		if a.Covert {
			w.WriteString(` <span class="tag">covert</span>`)
		}
		w.WriteString(`</td><td>`)
		w.text(a.Category)
		w.WriteString(" ")
		w.text(a.Type)
		w.WriteString(`</td><td class="level">`)
		w.int(a.Level)
		w.WriteString(`</td><td class="health">`)
		w.int(a.Health)
		w.WriteString("</td></tr>\n")
	}
	w.WriteString("</tbody>\n")
}

// habitatRows is the habitats table's rows: each habitat, its owner,
// region and health.
func habitatRows(habitats []HabitatResult) template.HTML {
	w := grown(habitats, func(HabitatResult) int { return 250 })
	for _, h := range habitats {
		w.WriteString(`<tr><th scope="row">`)
		w.text(h.Name)
		w.WriteString(`</th><td>`)
		if h.Owner != "" {
			w.text(h.Owner)
		} else {
			w.WriteString("unowned")
		}
		w.WriteString(`</td><td>`)
		w.text(h.Region)
		w.WriteString(`</td><td><meter min="0" max="`)
		w.int(h.MaxHealth)
		w.WriteString(`" value="`)
		w.int(h.Health)
		w.WriteString(`"></meter> `)
		w.int(h.Health)
		w.WriteString("/")
		w.int(h.MaxHealth)
		if h.Suppressed {
			w.WriteString(" (suppressed)")
		}
		w.WriteString("</td></tr>\n")
	}
	return w.html()
}

// chartAxes is what every panel of the chart draws first: the grid and
// the labels of the y axis, the labels of the x axis, and the x axis.
func chartAxes(ch *StatsChart) template.HTML {
	w := grown(ch.YTicks, func(ChartTick) int { return 250 })
	for _, t := range ch.YTicks {
		w.WriteString(`<line class="grid" x1="`)
		w.int(ch.Left)
		w.WriteString(`" x2="`)
		w.int(ch.Right)
		w.WriteString(`" y1="`)
		w.int(t.At)
		w.WriteString(`" y2="`)
		w.int(t.At)
		w.WriteString(`"/><text class="tick" x="`)
		w.int(ch.Left)
		w.WriteString(`" dx="-6" y="`)
		w.int(t.At)
		w.WriteString(`" dy="4" text-anchor="end">`)
		w.text(t.Label)
		w.WriteString("</text>\n")
	}
	for _, t := range ch.XTicks {
		w.WriteString(`<text class="tick" x="`)
		w.int(t.At)
		w.WriteString(`" y="`)
		w.int(ch.Bottom)
		w.WriteString(`" dy="18" text-anchor="middle">`)
		w.text(t.Label)
		w.WriteString("</text>\n")
	}
	w.WriteString(`<line class="axis" x1="`)
	w.int(ch.Left)
	w.WriteString(`" x2="`)
	w.int(ch.Right)
	w.WriteString(`" y1="`)
	w.int(ch.Bottom)
	w.WriteString(`" y2="`)
	w.int(ch.Bottom)
	w.WriteString("\"/>\n")
	return w.html()
}

// chartLines is a panel's lines: each faction's polyline, in its colour
// and dash, and its marker at each round, titled with what it says.
func chartLines(lines []ChartLine) template.HTML {
	w := grown(lines, func(l ChartLine) int { return 140 + len(l.Points) + 100*len(l.Dots) })
	for _, l := range lines {
		w.WriteString(`<g class="line" fill="`)
		w.text(l.Color)
		w.WriteString(`"><polyline fill="none" stroke="`)
		w.text(l.Color)
		w.WriteString(`" stroke-width="2.5"`)
		w.dash(l.Dash)
		w.WriteString(` points="`)
		w.text(l.Points)
		w.WriteString(`"/>`)
		for _, d := range l.Dots {
			end := w.marker(l.Marker, d.X, d.Y)
			w.WriteString(`<title>`)
			w.text(d.Label)
			w.WriteString(`</title>`)
			w.WriteString(end)
		}
		w.WriteString("</g>\n")
	}
	return w.html()
}

// dash writes the stroke-dasharray attribute of dash, if any.
func (w *htmlWriter) dash(dash string) {
	if dash != "" {
		w.WriteString(` stroke-dasharray="`)
		w.text(dash)
		w.WriteString(`"`)
	}
}

// marker opens the element of marker m at (x, y) and returns its end
// tag.
func (w *htmlWriter) marker(m Marker, x, y int) (end string) {
	switch m {
	case MarkerSquare:
		w.WriteString(`<rect x="`)
		w.int(x - 3)
		w.WriteString(`" y="`)
		w.int(y - 3)
		w.WriteString(`" width="6" height="6">`)
		return "</rect>"
	case MarkerTriangle, MarkerDiamond:
		w.WriteString(`<path d="M`)
		w.int(x)
		w.WriteString(",")
		w.int(y - 5)
		if m == MarkerTriangle {
			w.WriteString(`l5,8h-10z">`)
		} else {
			w.WriteString(`l5,5 -5,5 -5,-5z">`)
		}
		return "</path>"
	default:
		w.WriteString(`<circle cx="`)
		w.int(x)
		w.WriteString(`" cy="`)
		w.int(y)
		w.WriteString(`" r="3.5">`)
		return "</circle>"
	}
}

// chartKey is a panel's key: each faction's name after a sample of its
// line, colour, dash and marker (drawn in SVG: the page allows no inline
// style).
func chartKey(lines []ChartLine) template.HTML {
	w := grown(lines, func(l ChartLine) int { return 330 + len(l.Name) })
	for i, l := range lines {
		if i > 0 {
			w.WriteString(" · ")
		}
		w.WriteString(`<span class="key"><svg class="swatch" width="30" height="12" viewBox="0 0 30 12" aria-hidden="true"><g fill="`)
		w.text(l.Color)
		w.WriteString(`"><line x1="1" y1="6" x2="29" y2="6" stroke="`)
		w.text(l.Color)
		w.WriteString(`" stroke-width="2.5"`)
		w.dash(l.Dash)
		w.WriteString(`/>`)
		w.WriteString(w.marker(l.Marker, 15, 6))
		w.WriteString(`</g></svg>&nbsp;`) // the name stays beside its sample
		w.text(l.Name)
		w.WriteString(`</span>`)
	}
	return w.html()
}

// chartRows is the chart's table's rows: a faction's value each round.
func chartRows(rows []ChartRow) template.HTML {
	w := grown(rows, func(r ChartRow) int { return 40 + len(r.Name) + 12*len(r.Values) })
	for _, r := range rows {
		w.WriteString(`<tr><th scope="row">`)
		w.text(r.Name)
		w.WriteString(`</th>`)
		for _, v := range r.Values {
			w.WriteString(`<td>`)
			w.text(v)
			w.WriteString(`</td>`)
		}
		w.WriteString("</tr>\n")
	}
	return w.html()
}

// roundReports is a round's reports: each faction's part, headed with
// its name.
func roundReports(reports []PageReport) template.HTML {
	w := grown(reports, func(r PageReport) int { return 40 + len(r.Faction) + len(r.Text) })
	for _, r := range reports {
		w.WriteString("<h4>")
		w.text(r.Faction)
		w.WriteString("</h4>\n<p class=\"report\">")
		w.text(r.Text)
		w.WriteString("</p>\n")
	}
	return w.html()
}
