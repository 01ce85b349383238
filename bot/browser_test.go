package bot

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/tablehand/tablehand/commands/faction"
)

// The browser tests open the pages in headless Chromium, as a person
// would see them. Without Chromium they skip; .ci/run installs it.

// howToChromium is what a skipped browser test says.
const howToChromium = "no Chromium: install Debian's package (apt-get install -y chromium), or set TABLEHAND_CHROMIUM to a Chromium or Chrome binary, to run the browser tests"

// chromium is the browser's path, or "".
func chromium() string {
	if p := os.Getenv("TABLEHAND_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium with a fresh profile and nothing to
// reach on the network, for the test's life.
func browser(t *testing.T, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	path := chromium()
	if path == "" {
		t.Skip(howToChromium)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc, opts...)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Start the browser now, so a broken install fails here, once.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// browserDeadline bounds each step: far above what one takes, so that a
// hung browser fails the test instead of hanging it.
const browserDeadline = 20 * time.Second

// do runs steps in the browser.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserDeadline)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval is the value of a JavaScript expression on the open page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserDeadline)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// domFaction is a faction as the page's DOM shows it.
type domFaction struct {
	Name   string         `json:"name"`
	Stats  map[string]int `json:"stats"`
	Assets []domAsset     `json:"assets"`
}

type domAsset struct {
	ID    int `json:"id"`
	Level int `json:"level"`
}

// readFactions reads every faction from the page's DOM.
const readFactions = `[...document.querySelectorAll('article.faction')].map(a => ({
	name: a.querySelector('.faction-name').textContent,
	stats: Object.fromEntries([...a.querySelectorAll('td.stat')].map(td => [td.dataset.stat.toLowerCase(), +td.querySelector('.value').textContent])),
	assets: [...a.querySelectorAll('tr.asset')].map(tr => ({id: +tr.dataset.asset, level: +tr.querySelector('.level').textContent})),
}))`

// fromShow is a faction as /faction show's result gives it, in the DOM's
// terms.
func fromShow(r faction.FactionResult) domFaction {
	d := domFaction{Name: r.Name, Stats: map[string]int{
		"res": r.Attributes.RES, "int": r.Attributes.INT, "coh": r.Attributes.COH, "str": r.Attributes.STR,
		"inf": r.Stats.INF, "tec": r.Stats.TEC, "sol": r.Stats.SOL, "pop": r.Stats.POP,
	}, Assets: []domAsset{}}
	for _, a := range r.Assets {
		d.Assets = append(d.Assets, domAsset{ID: a.ID, Level: a.Level})
	}
	return d
}

func TestCampaignPageInBrowser(t *testing.T) {
	var dialogs atomic.Int32
	ctx := browser(t, chromedp.WithListener(func(ev any) {
		switch ev.(type) {
		case *page.EventJavascriptDialogOpening, page.EventJavascriptDialogOpening:
			dialogs.Add(1)
		}
	}))
	w := newWebCampaign(t)

	// Each page shows each faction as /faction show shows it to the
	// page's reader: a player who plays neither (carol), and the GM.
	for _, c := range []struct {
		name, link string
		show       map[string]string // faction name -> console input
	}{
		{"players", w.links.Players, map[string]string{"Red": "@carol /faction show faction:Red", "Blue": "@carol /faction show faction:Blue"}},
		{"gm", w.links.GM, map[string]string{"Red": "/faction show faction:Red"}},
	} {
		do(t, ctx, chromedp.Navigate(w.local(c.link)))
		got := eval[[]domFaction](t, ctx, readFactions)
		orders := eval[int](t, ctx, `document.querySelectorAll('tr.order').length`)
		images := eval[int](t, ctx, `document.images.length`)
		text := eval[string](t, ctx, `document.body.innerText`)
		// Red's asset #2 is Covert (campaignLines).
		covert := eval[int](t, ctx, `document.querySelectorAll('tr.asset[data-asset="2"]').length`)
		if want := map[string]int{"players": 0, "gm": 1}[c.name]; covert != want {
			t.Errorf("the %s page shows the covert asset %d times, want %d", c.name, covert, want)
		}
		for name, input := range c.show {
			var res faction.FactionResult
			w.result(t, input, &res)
			want := fromShow(res)
			i := slices.IndexFunc(got, func(d domFaction) bool { return d.Name == name })
			if i < 0 {
				t.Errorf("%s page: no faction %s in %+v", c.name, name, got)
				continue
			}
			if !sameFaction(got[i], want) {
				t.Errorf("%s page shows %+v, /faction show gives %+v", c.name, got[i], want)
			}
		}
		if c.name == "players" && orders != 0 {
			t.Errorf("the players' page shows %d queued orders", orders)
		}
		if c.name == "gm" && orders != 1 {
			t.Errorf("the GM's page shows %d queued orders, want Red's one", orders)
		}
		if images != 0 || !contains(text, xssName) {
			t.Errorf("%s page: %d images; the region shows as text: %v", c.name, images, contains(text, xssName))
		}
	}
	// The chart draws a line a faction, and its table's last column is
	// each faction's Health Stats now, as /faction show gives them.
	do(t, ctx, chromedp.Navigate(w.local(w.links.Players)))
	if n := eval[int](t, ctx, `document.querySelectorAll('svg.chart polyline').length`); n != 2 {
		t.Errorf("the chart draws %d lines, want 2", n)
	}
	if title := eval[string](t, ctx, `document.querySelector('svg.chart title').textContent`); !strings.Contains(title, "Health Stats") {
		t.Errorf("the chart's title: %q", title)
	}
	last := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('table.chart-data tbody tr')].map(tr => [tr.querySelector('th').textContent, tr.querySelector('td:last-child').textContent]))`)
	for name, input := range map[string]string{"Red": "@carol /faction show faction:Red", "Blue": "@carol /faction show faction:Blue"} {
		var res faction.FactionResult
		w.result(t, input, &res)
		if want := strconv.Itoa(res.Stats.INF + res.Stats.TEC + res.Stats.SOL + res.Stats.POP); last[name] != want {
			t.Errorf("the chart's table gives %s %q after the last round, /faction show %s", name, last[name], want)
		}
	}

	// The schedule's next firings are /schedule show's, each in a <time>
	// the script has put in the reader's own zone.
	var sched faction.ScheduleResult
	w.result(t, "@carol /schedule show", &sched)
	times := eval[[]map[string]string](t, ctx, `[...document.querySelectorAll('ol.firings time')].map(t => ({at: t.dateTime, text: t.textContent}))`)
	if len(times) != len(sched.Next) || len(times) == 0 {
		t.Fatalf("the page shows %d firings, /schedule show %d", len(times), len(sched.Next))
	}
	for i, tm := range times {
		if want := time.Unix(sched.Next[i], 0).UTC().Format(time.RFC3339); tm["at"] != want {
			t.Errorf("firing %d at %s, /schedule show %s", i, tm["at"], want)
		}
		if strings.Contains(tm["text"], "Europe/Paris") {
			t.Errorf("firing %d shows %q: the script did not localise it", i, tm["text"])
		}
	}

	if n := dialogs.Load(); n != 0 {
		t.Errorf("%d JavaScript dialogs opened", n)
	}

	checkPhoneWidth(t, ctx, w.local(w.links.GM), "campaign page")
	screenshot(t, ctx, w.local(w.links.GM), "campaign-page.png")
}

func sameFaction(a, b domFaction) bool {
	if a.Name != b.Name || len(a.Stats) != len(b.Stats) || !slices.Equal(a.Assets, b.Assets) {
		return false
	}
	for k, v := range b.Stats {
		if a.Stats[k] != v {
			return false
		}
	}
	return true
}

func contains(s, sub string) bool { return sub != "" && strings.Contains(s, sub) }

// A fight page open in the browser follows the fight: /init next changes
// its turn within a second, without a reload; hidden combatants are not
// there.
func TestFightPageFollowsTheFightInBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWebCampaign(t)
	links := w.fight(t)
	do(t, ctx, chromedp.Navigate(w.local(links.Players)))
	if turn := eval[string](t, ctx, `document.getElementById('turn').textContent`); turn != "Goblin" {
		t.Fatalf("turn %q, want Goblin's", turn)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-combatant="Lurker"]').length`); n != 0 {
		t.Errorf("the hidden Lurker is on the players' page")
	}
	// A mark that a reload would wipe out; and the stream must be open
	// before the change, as a reader's would be.
	do(t, ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](`window.stayed = true`)(ctx, t)
		return err
	}))
	w.run(t, "/init next")
	var next struct {
		Turn *string `json:"turn"`
	}
	w.result(t, "/init next", &next)
	pollCtx, cancel := context.WithTimeout(ctx, browserDeadline)
	defer cancel()
	// Within one second, by the browser's own clock.
	got, err := chromedp.Run(pollCtx, chromedp.Poll[string](`document.getElementById('turn').textContent !== 'Goblin' && document.getElementById('turn').textContent`,
		chromedp.WithPollingTimeout(time.Second)))
	if err != nil {
		t.Fatalf("the page's turn did not change within a second: %v", err)
	}
	if next.Turn == nil || got != *next.Turn {
		t.Errorf("the page shows %q's turn, /init next %v", got, next.Turn)
	}
	if !eval[bool](t, ctx, `window.stayed === true`) {
		t.Errorf("the page was reloaded")
	}
	checkPhoneWidth(t, ctx, w.local(links.GM), "fight page")
	// TestFightPageFitsPhonesAndDesktopsInBrowser takes the fight's
	// screenshots, of its longest names.
}

// checkPhoneWidth fails t if the page at url, named what, scrolls
// sideways on a 400 px wide phone screen.
func checkPhoneWidth(t *testing.T, ctx context.Context, url, what string) {
	t.Helper()
	do(t, ctx, chromedp.EmulateViewport(400, 800), chromedp.Navigate(url))
	if sw, iw := eval[int](t, ctx, `document.documentElement.scrollWidth`), eval[int](t, ctx, `window.innerWidth`); sw > iw {
		t.Errorf("at 400 px the %s is %d px wide: it scrolls sideways", what, sw)
	}
}

// screenshot saves a full-page screenshot of url as name in the folder
// TABLEHAND_SCREENSHOTS names, if any (the ones in docs/ are made so).
func screenshot(t *testing.T, ctx context.Context, url, name string) {
	t.Helper()
	screenshotAt(t, ctx, url, name, 1000)
}

// screenshotAt is screenshot in a window width px wide.
func screenshotAt(t *testing.T, ctx context.Context, url, name string, width int64) {
	t.Helper()
	dir := os.Getenv("TABLEHAND_SCREENSHOTS")
	if dir == "" {
		return
	}
	do(t, ctx, chromedp.EmulateViewport(width, 800), chromedp.Navigate(url))
	shotCtx, cancel := context.WithTimeout(ctx, browserDeadline)
	defer cancel()
	png, err := chromedp.Run(shotCtx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
