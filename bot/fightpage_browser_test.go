package bot

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The fight page as the table opens it: on phones and desktops, light and
// dark, with the longest names this project allows; the health each GM
// choice shows; and a page that says when it stops following the fight.

// The longest a combatant's or condition's name may be
// (encounter.MaxNameLen): a name with spaces, one without, and a
// condition.
const (
	longName      = "Seraphina Nightwhisper, Warden of the Silver Vales and Eastmarch"
	longWord      = "Ashkelonvarithandremorgulastrivenhollowmereblackthornsilverwinds"
	longCondition = "Concentrating on Hunter's Mark against the Dread Wyrm of Irongap"
)

// longFightLines start a fight of the longest names: Seraphina (alice's)
// first, then Goblin (the GM's, hp 3/8 after a hit), the one-word name,
// and Lurker, hidden; Seraphina bears the longest condition for the most
// rounds.
var longFightLines = []string{
	`/init start`,
	`/init add name:"` + longName + `" owner:alice hp:30 initiative:20`,
	`/init add name:Goblin hp:8 initiative:15`,
	`/init add name:` + longWord + ` hp:12 initiative:10`,
	`/init add name:Lurker hidden:true hp:5 initiative:1`,
	`/init begin`,
	`/init effect target:"` + longName + `" effect:"` + longCondition + `" rounds:` + fmt.Sprint(encounter.MaxRounds),
	`/init effect target:Goblin effect:stunned rounds:2`,
	`/init damage target:Goblin amount:5`,
	`/init page`,
}

func longFight(t *testing.T, w *webCampaign) kit.PageResult {
	t.Helper()
	for _, s := range []string{longName, longWord, longCondition} {
		if n := utf8.RuneCountInString(s); n != encounter.MaxNameLen {
			t.Fatalf("%q has %d characters, the limit is %d", s, n, encounter.MaxNameLen)
		}
	}
	w.run(t, longFightLines...)
	var links kit.PageResult
	w.result(t, "/init page", &links)
	return links
}

// colorScheme makes the page's prefers-color-scheme scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// nameLines are the lines each combatant's name takes, by name; the
// header "Combatant" is under "".
const nameLines = `Object.fromEntries([
	...[...document.querySelectorAll('tr[data-combatant] .name')].map(n => [n.textContent, n.getClientRects().length]),
	['', document.querySelector('thead th').getClientRects().length > 0 && getComputedStyle(document.querySelector('thead')).position !== 'absolute'
		? Math.round(document.querySelector('thead th').getBoundingClientRect().height / parseFloat(getComputedStyle(document.querySelector('thead th')).lineHeight)) : 0],
])`

// At 400 px and 1280 px, light and dark, neither page scrolls sideways,
// no name takes more than two lines beside the longest condition, and the
// header "Combatant" takes one.
func TestFightPageFitsPhonesAndDesktopsInBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWebCampaign(t)
	links := longFight(t, w)
	for _, width := range []int64{400, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			for _, page := range []struct{ name, link string }{{"players", links.Players}, {"gm", links.GM}} {
				at := fmt.Sprintf("%s page at %d px, %s", page.name, width, scheme)
				do(t, ctx, chromedp.EmulateViewport(width, 800), colorScheme(scheme), chromedp.Navigate(w.local(page.link)))
				if sw, iw := eval[int](t, ctx, `document.documentElement.scrollWidth`), eval[int](t, ctx, `window.innerWidth`); sw > iw {
					t.Errorf("%s: %d px wide in a %d px window: it scrolls sideways", at, sw, iw)
				}
				lines := eval[map[string]int](t, ctx, nameLines)
				for _, name := range []string{longName, longWord, "Goblin"} {
					if n := lines[name]; n < 1 || n > 2 {
						t.Errorf("%s: %q takes %d lines", at, name, n)
					}
				}
				if width > 600 && lines[""] != 1 {
					t.Errorf("%s: the header Combatant takes %d lines", at, lines[""])
				}
				bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
				if want := map[string]string{"light": "rgb(255, 255, 255)", "dark": "rgb(30, 31, 34)"}[scheme]; bg != want {
					t.Errorf("%s: background %s, want %s", at, bg, want)
				}
				if cond := eval[bool](t, ctx, `document.body.innerText.includes(`+jsString(longCondition+" (10000 rounds left)")+`)`); !cond {
					t.Errorf("%s: the longest condition is not shown whole", at)
				}
			}
		}
	}
	do(t, ctx, colorScheme("light"))
	screenshotAt(t, ctx, w.local(links.Players), "fight-page-phone.png", 400)
	screenshotAt(t, ctx, w.local(links.GM), "fight-page.png", 1280)
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { return fmt.Sprintf("%q", s) }

// healthCell is what a combatant's health cell shows on the open page:
// its text, and how many bars.
func healthCell(t *testing.T, ctx context.Context, name string) (string, int) {
	t.Helper()
	sel := `document.querySelector('tr[data-combatant=` + jsString(name) + `] td.vital')`
	return eval[string](t, ctx, sel+`.textContent.trim()`), eval[int](t, ctx, sel+`.querySelectorAll('meter').length`)
}

// waitFor polls expr on the open page until it is true, for at most d.
func waitFor(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	pollCtx, cancel := context.WithTimeout(ctx, browserDeadline)
	defer cancel()
	if _, err := chromedp.Run(pollCtx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(d))); err != nil {
		t.Fatalf("not within %s: %s: %v", d, expr, err)
	}
}

// The players' page shows health as the GM chose, and follows each choice
// live; the GM's page keeps the numbers and says what the players see.
func TestFightPageHealthInBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWebCampaign(t)
	links := longFight(t, w)
	do(t, ctx, chromedp.Navigate(w.local(links.Players)))
	waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)

	// Exact, by default: numbers and a bar, as before the choice.
	if text, bars := healthCell(t, ctx, "Goblin"); text != "hp 3/8 3/8" || bars != 1 {
		t.Errorf("exact: Goblin's health reads %q with %d bars", text, bars)
	}
	if v := eval[float64](t, ctx, `document.querySelector('tr[data-combatant="Goblin"] meter').value`); v != 3 {
		t.Errorf("exact: Goblin's bar at %v, want 3", v)
	}

	for _, c := range []struct {
		line, players, gm string
		bars              int
	}{
		{"/init health show:word", "bloodied", "hp 3/8 3/8 players see: bloodied", 0},
		{"/init health show:none", "not shown", "hp 3/8 3/8 players see: nothing", 0},
		{"/init health show:exact name:Goblin", "hp 3/8 3/8", "hp 3/8 3/8", 1},
	} {
		w.run(t, c.line)
		waitFor(t, ctx, `document.querySelector('tr[data-combatant="Goblin"] td.vital').textContent.trim() === `+jsString(c.players), 2*time.Second)
		if _, bars := healthCell(t, ctx, "Goblin"); bars != c.bars {
			t.Errorf("%s: Goblin has %d bars on the players' page, want %d", c.line, bars, c.bars)
		}
		// Seraphina is alice's: the fight's choice leaves her numbers.
		if text, bars := healthCell(t, ctx, longName); text != "hp 30/30 30/30" || bars != 1 {
			t.Errorf("%s: the players see %q (%d bars) of alice's Seraphina", c.line, text, bars)
		}
		do(t, ctx, chromedp.Navigate(w.local(links.GM)))
		if text, _ := healthCell(t, ctx, "Goblin"); text != c.gm {
			t.Errorf("%s: the GM's page shows %q of Goblin's health, want %q", c.line, text, c.gm)
		}
		do(t, ctx, chromedp.Navigate(w.local(links.Players)))
		waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)
	}
	// A combatant's own choice: nothing of Seraphina's.
	w.run(t, `/init health show:none name:"`+longName+`"`)
	waitFor(t, ctx, `document.querySelector('tr[data-combatant=`+jsString(longName)+`] td.vital').textContent.trim() === 'not shown'`, 2*time.Second)
	if html := eval[string](t, ctx, `document.querySelector('tr[data-combatant=`+jsString(longName)+`]').outerHTML`); strings.Contains(html, "30") {
		t.Errorf("the players' page still holds Seraphina's numbers: %s", html)
	}
}

// The page names the turn and who is up next, and the tab's title the
// round and the turn; a reader's own combatant, once chosen, stays marked.
// Within 2 s of a revoke, and of /init end, it says it stopped and why.
func TestFightPageSaysWhenItStopsInBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWebCampaign(t)
	links := longFight(t, w)
	do(t, ctx, chromedp.EmulateViewport(400, 800), chromedp.Navigate(w.local(links.Players)))
	waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)
	if title, want := eval[string](t, ctx, `document.title`), "Round 1 · "+longName+"'s turn · Fight"; title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	if next := eval[string](t, ctx, `document.getElementById('next').textContent`); next != "Goblin" {
		t.Errorf("up next: %q, want Goblin", next)
	}

	// alice says which is hers; a reload keeps it.
	do(t, ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](`(() => { const s = document.getElementById('me'); s.value = `+jsString(longName)+`; s.dispatchEvent(new Event('change')); })()`)(ctx, t)
		return err
	}))
	mine := `[...document.querySelectorAll('tr.mine')].map(tr => tr.dataset.combatant).join()`
	if got := eval[string](t, ctx, mine); got != longName {
		t.Errorf("marked as alice's: %q", got)
	}
	w.run(t, "/init next")
	waitFor(t, ctx, `document.title === "Round 1 · Goblin's turn · Fight"`, 2*time.Second)
	if got := eval[string](t, ctx, mine); got != longName {
		t.Errorf("after a change, marked as alice's: %q", got)
	}
	do(t, ctx, chromedp.Navigate(w.local(links.Players)))
	if got := eval[string](t, ctx, mine); got != longName {
		t.Errorf("after a reload, marked as alice's: %q", got)
	}
	waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)

	// A revoked link.
	w.run(t, "/init page revoke:true")
	waitFor(t, ctx, `document.getElementById('notice').textContent.includes('This link no longer opens the page')`, 2*time.Second)
	if eval[bool](t, ctx, `document.getElementById('notice').hidden`) {
		t.Errorf("the notice is hidden")
	}

	// The end of the fight, on a page of the new link.
	var renewed kit.PageResult
	w.result(t, "/init page revoke:true", &renewed)
	do(t, ctx, chromedp.Navigate(w.local(renewed.Players)))
	waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)
	w.run(t, "/init end")
	waitFor(t, ctx, `document.getElementById('notice').textContent === 'The fight has ended.' && document.title === 'Fight · ended'`, 2*time.Second)
	if conn := eval[string](t, ctx, `document.getElementById('conn').className`); !strings.Contains(conn, "closed") {
		t.Errorf("after the end the indicator is %q", conn)
	}
}

// When Tablehand cannot be reached, the open page says so, and that it
// retries.
func TestFightPageSaysWhenTablehandIsUnreachableInBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWebCampaign(t)
	links := w.fight(t)
	do(t, ctx, chromedp.Navigate(w.local(links.Players)))
	waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)
	w.srv.Listener.Close()
	w.srv.CloseClientConnections()
	waitFor(t, ctx, `document.getElementById('notice').textContent === 'Cannot reach Tablehand: retrying…' && document.getElementById('conn').classList.contains('down')`, 3*time.Second)
}

// endingPage is a live page whose fight ends when ended is set: it then
// answers, as an ended fight's page may, "The fight has ended." (200)
// instead of the 404 of a fight gone.
type endingPage struct{ ended *atomic.Bool }

func (endingPage) Serves(scope string) bool { return true }

func (p endingPage) Seq(ctx context.Context, _ db.Page) (int64, error) {
	if p.ended.Load() {
		return 2, nil
	}
	return 1, nil
}

func (p endingPage) Render(ctx context.Context, b *bytes.Buffer, _ db.Page) error {
	status, title, ended := "Round 1 · <span id=\"turn\">Goblin</span>'s turn", "Round 1 · Goblin's turn · Fight", ""
	if p.ended.Load() {
		status, title, ended = "The fight has ended.", "Fight · ended", ` data-ended="true"`
	}
	fmt.Fprintf(b, `<!doctype html><html><head><title>%s</title><script src="/static/page.js" defer></script></head>`+
		`<body data-live="events" data-seq="1"%s><header><p id="conn" hidden></p><p id="notice" hidden></p></header>`+
		`<main><p class="status">%s</p></main></body></html>`, title, ended, status)
	return nil
}

// A fight that ends may answer its page with the ended fight: the open
// page says so, and stops.
func TestFightPageSaysAnEndedFightHasEndedInBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWebCampaign(t)
	links := w.fight(t)
	var ended atomic.Bool
	web := NewWeb(w.store, []kit.Page{endingPage{&ended}}, slog.New(slog.NewTextHandler(io.Discard, nil)), WebOptions{Poll: 50 * time.Millisecond})
	srv := httptest.NewServer(web)
	t.Cleanup(srv.Close)
	t.Cleanup(web.Shutdown)
	do(t, ctx, chromedp.Navigate(srv.URL+strings.TrimPrefix(links.Players, "https://pages.example.org")))
	waitFor(t, ctx, `document.getElementById('conn').classList.contains('up')`, 5*time.Second)
	ended.Store(true)
	waitFor(t, ctx, `document.getElementById('notice').textContent === 'The fight has ended.' && document.title === 'Fight · ended' && document.getElementById('conn').classList.contains('closed')`, 2*time.Second)
}
