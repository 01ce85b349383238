package bot

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/faction"
)

// The rows a campaign page repeats most, each faction's four stat pairs
// and its assets (2,400 rows for 100 factions of 20 assets), are written
// here rather than by campaign.html: html/template evaluates every action
// of a row by reflection and escapes it through a call by reflection, and
// those rows were most of the page's time. What they hold of user text
// (names) passes through template.HTMLEscapeString, which escapes all
// that matters in element text and in a quoted attribute (& < > " ' and
// NUL); the rest is numbers and the rules' own names, escaped alike.

// rowWriter builds rows of HTML.
type rowWriter struct{ strings.Builder }

// text writes s escaped.
func (w *rowWriter) text(s string) { w.WriteString(template.HTMLEscapeString(s)) }

func (w *rowWriter) int(n int) {
	var buf [20]byte
	w.Write(strconv.AppendInt(buf[:0], int64(n), 10))
}

// statRows is a faction's stats table body: each Attribute and the
// Health Stat it pairs with, their bars and values.
func statRows(pairs []faction.StatPair) template.HTML {
	var w rowWriter
	w.Grow(len(pairs) * 420)
	for _, p := range pairs {
		w.WriteString("<tr>\n")
		w.stat(p.Attr, p.AttrValue, p.AttrMax, p.AttrPercent)
		w.WriteString("\n")
		w.stat(p.Stat, p.StatValue, p.StatMax, p.StatPercent)
		w.WriteString("\n</tr>\n")
	}
	return template.HTML(w.String())
}

// stat is a row's header cell and its bar.
func (w *rowWriter) stat(name string, value, max, percent int) {
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

// assetRows is a faction's assets table bodies: one a habitat, its
// header row naming it, then a row an asset.
func assetRows(groups []faction.AssetGroup) template.HTML {
	var w rowWriter
	n := 0
	for _, g := range groups {
		n += 100 + len(g.Assets)*200
	}
	w.Grow(n)
	for _, g := range groups {
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
	return template.HTML(w.String())
}
