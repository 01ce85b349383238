package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// xssName is user-supplied text a page must show as text: a habitat's
// region takes it.
const xssName = "<img src=x onerror=alert(1)>"

// campaignLines make a campaign through the console contract: two
// factions, a covert asset of Red's, an order of Red's queued, a round
// played, and the page links.
var campaignLines = []string{
	`/faction create name:Red owner:alice home:Mars region:"` + xssName + `"`,
	`/faction create name:Blue owner:bob home:Luna`,
	`/faction asset add faction:Red chart:Fixer`,
	`/faction asset add faction:Red chart:Fixer`,
	`/faction asset set asset:2 covert:true`,
	`/faction asset add faction:Blue chart:Fixer`,
	`/faction order faction:Blue action:invest stat:TEC`,
	`/faction round count:3`,
	`/faction order faction:Red action:invest stat:INF`,
	`@carol /faction show faction:Red`,
	`/faction show faction:Red`,
	`@carol /faction show faction:Blue`,
	`/schedule set when:"weekly fri 18:00" timezone:Europe/Paris`,
	`@carol /schedule show`,
	`/faction page`,
}

// webNow is the clock of the console and of the pages alike.
var webNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// webCampaign is a campaign made through the console and the pages over
// its store, served on loopback.
type webCampaign struct {
	store *db.DB
	srv   *httptest.Server
	log   *lockedLog
	// lines are the console's outcomes, by input.
	lines  map[string]consoleOut
	links  kit.PageResult
	router *kit.Router
}

// consoleOut is what the tests read of a console line: the contract's
// input, result and error.
type consoleOut struct {
	Input  string `json:"input"`
	Result any    `json:"result"`
	Error  string `json:"error"`
}

// run types lines in the console and keeps their outcomes; a failed
// command fails the test.
func (w *webCampaign) run(t testing.TB, lines ...string) {
	t.Helper()
	var out bytes.Buffer
	in := strings.Join(lines, "\n") + "\n"
	if err := Console(context.Background(), ConsoleOptions{Router: w.router, JSON: true, User: "gm", GMs: []string{"gm"}, Channel: "table", Guild: "g"}, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	for dec.More() {
		var l consoleOut
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		if l.Error != "" {
			t.Fatalf("%s: %s", l.Input, l.Error)
		}
		w.lines[l.Input] = l
	}
}

func newWebCampaign(t testing.TB, extra ...string) *webCampaign {
	t.Helper()
	store := testStore(t)
	logs := &lockedLog{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	deps := seededDeps(store)
	deps.Log, deps.Calendar, deps.PublicURL = log, Cron{}, "https://pages.example.org"
	deps.Now = func() time.Time { return webNow }
	router := commands.New(deps)
	w := &webCampaign{store: store, lines: map[string]consoleOut{}, router: router}
	w.run(t, append(campaignLines, extra...)...)
	w.result(t, "/faction page", &w.links)
	web := NewWeb(store, router.Pages(), log, WebOptions{Poll: 50 * time.Millisecond})
	w.srv = httptest.NewServer(web)
	t.Cleanup(w.srv.Close)
	t.Cleanup(web.Shutdown) // first: the streams end, then the server

	w.log = logs
	return w
}

// result decodes the console's result of the line input into v.
func (w *webCampaign) result(t testing.TB, input string, v any) {
	t.Helper()
	b, err := json.Marshal(w.lines[input].Result)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", input, err)
	}
}

// local is the page's address on the test server (the links name the
// public address).
func (w *webCampaign) local(link string) string {
	return w.srv.URL + strings.TrimPrefix(link, "https://pages.example.org")
}

func get(t testing.TB, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// The players' page holds what a player reads in Discord and nothing
// more: no covert asset, no queued order; the GM's page holds both. User
// text is escaped, and the headers allow no script or outside asset.
func TestCampaignPagesShowWhatTheirReadersMaySee(t *testing.T) {
	w := newWebCampaign(t)
	res, players := get(t, w.local(w.links.Players))
	if res.StatusCode != 200 {
		t.Fatalf("players' page: %d\n%s", res.StatusCode, players)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if res.Header.Get("Referrer-Policy") != "no-referrer" || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("headers %v", res.Header)
	}
	_, gm := get(t, w.local(w.links.GM))
	for _, s := range []string{`data-asset="2"`, `invest stat=INF`, `covert</span>`} {
		if strings.Contains(players, s) {
			t.Errorf("the players' page holds %q", s)
		}
		if !strings.Contains(gm, s) {
			t.Errorf("the GM's page lacks %q", s)
		}
	}
	for _, page := range []string{players, gm} {
		if strings.Contains(page, xssName) || !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("the region %q is not escaped", xssName)
		}
		if strings.Count(page, "<script") != strings.Count(page, `<script src="/static/page.js" defer></script>`) || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
			t.Errorf("a page holds an inline script or an outside address")
		}
		// Without a script the next firing reads in the schedule's zone.
		if !strings.Contains(page, `<time datetime="2026-11-27T17:00:00Z">Fri 27 Nov 2026 18:00 (Europe/Paris)</time>`) {
			t.Errorf("a page lacks the next firing, Friday 18:00 in Paris")
		}
		if !strings.Contains(page, "Round 1") || !strings.Contains(page, `data-faction="Blue"`) {
			t.Errorf("a page lacks the round played or a faction")
		}
	}
	res, css := get(t, w.srv.URL+"/static/page.css")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") || !strings.Contains(css, "prefers-color-scheme: dark") {
		t.Errorf("stylesheet: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// The rows the page writes without the template (webrows.go) escape user
// text as the template does: an asset's own name and its habitat's, with
// a quote that would end an attribute and an ampersand, show as text
// (names cannot hold < or >).
func TestCampaignPageRowsEscapeUserText(t *testing.T) {
	const hostile = `O'Neil & Sons`
	w := newWebCampaign(t,
		`/faction create name:Green owner:dave home:"`+hostile+`"`,
		`/faction asset add faction:Green chart:Fixer name:"`+hostile+`"`)
	_, gm := get(t, w.local(w.links.GM))
	escaped := "O&#39;Neil &amp; Sons"
	if strings.Contains(gm, hostile) || !strings.Contains(gm, `<td class="asset-name">`+escaped+`</td>`) || !strings.Contains(gm, ">at "+escaped+"</th>") {
		t.Errorf("the asset's or the habitat's name is not escaped:\n%s", gm)
	}
}

// fetchPage fetches a campaign page that must answer 200, from any goroutine.
func fetchPage(url string) (string, error) {
	res, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %d", url, res.StatusCode)
	}
	return string(b), nil
}

// roundOf is the round a campaign page's header shows.
func roundOf(page string) string {
	_, after, _ := strings.Cut(page, `<span id="round">`)
	round, _, _ := strings.Cut(after, "<")
	return round
}

// The pages keep what they rendered of a campaign (webcache.go), yet each
// change shows on the next request: to the campaign's state (an asset
// added, a round played), and to what is stored beside it (an order
// queued, the schedule paused).
func TestCampaignPagesShowEachChangeAtOnce(t *testing.T) {
	w := newWebCampaign(t)
	both := func() (players, gm string) {
		t.Helper()
		var err error
		if players, err = fetchPage(w.local(w.links.Players)); err != nil {
			t.Fatal(err)
		}
		if gm, err = fetchPage(w.local(w.links.GM)); err != nil {
			t.Fatal(err)
		}
		return players, gm
	}
	players, gm := both()
	round := roundOf(gm)
	if round == "" || roundOf(players) != round || strings.Contains(gm, "Beacon") || strings.Contains(gm, "stat=SOL") || strings.Contains(gm, "Paused.") {
		t.Fatalf("the pages before the changes: round %q and %q", roundOf(players), round)
	}
	w.run(t, `/faction asset add faction:Blue chart:Fixer name:Beacon`)
	if players, gm = both(); !strings.Contains(players, ">Beacon<") || !strings.Contains(gm, ">Beacon<") {
		t.Errorf("an asset added is not on the pages")
	}
	w.run(t, `/faction order faction:Blue action:invest stat:SOL`)
	if players, gm = both(); strings.Contains(players, "stat=SOL") || !strings.Contains(gm, "invest stat=SOL") {
		t.Errorf("an order queued: on the players' page %v, on the GM's %v; want only the GM's",
			strings.Contains(players, "stat=SOL"), strings.Contains(gm, "stat=SOL"))
	}
	w.run(t, `/faction round`)
	if players, gm = both(); roundOf(players) == round || roundOf(gm) != roundOf(players) || strings.Contains(gm, "stat=SOL") {
		t.Errorf("after a round played from round %s: the players' page shows round %s, the GM's %s (the order played: %v)",
			round, roundOf(players), roundOf(gm), !strings.Contains(gm, "stat=SOL"))
	}
	w.run(t, `/schedule pause`)
	if players, gm = both(); !strings.Contains(players, "Paused.") || !strings.Contains(gm, "Paused.") {
		t.Errorf("the schedule paused is not on the pages")
	}
}

// The players' page never serves what the GM's page keeps, whichever is
// read first and however many read them at once while the campaign
// changes: Red's covert asset, renamed at each change, is on every GM's
// page read and on no players' page, and its open asset's new name on
// both.
func TestPlayersPageNeverServesTheGMsPage(t *testing.T) {
	w := newWebCampaign(t)
	for i := range 4 {
		w.run(t, fmt.Sprintf("/faction asset set asset:2 name:Mole%d", i), fmt.Sprintf("/faction asset set asset:1 name:Open%d", i))
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range 6 {
					gmFirst := (g+j)%2 == 0
					for _, gm := range []bool{gmFirst, !gmFirst} {
						link := w.links.Players
						if gm {
							link = w.links.GM
						}
						body, err := fetchPage(w.local(link))
						if err != nil {
							t.Error(err)
							return
						}
						mole, open := fmt.Sprintf(">Mole%d", i), fmt.Sprintf(">Open%d<", i)
						switch {
						case !strings.Contains(body, open):
							t.Errorf("change %d: a page lacks the open asset's new name", i)
						case gm && (!strings.Contains(body, mole) || !strings.Contains(body, "covert</span>")):
							t.Errorf("change %d: the GM's page lacks the covert asset", i)
						case !gm && (strings.Contains(body, "Mole") || strings.Contains(body, "covert</span>") || strings.Contains(body, "invest stat=INF")):
							t.Errorf("change %d: the players' page holds the GM's content", i)
						}
					}
				}
			}()
		}
		wg.Wait()
	}
}

// A revoked link and one never made get the same 404, body and all; the
// new links work; no token reaches the log.
func TestRevokedAndUnknownPageLinksAreOneNotFound(t *testing.T) {
	w := newWebCampaign(t, "/faction page revoke:true")
	var renewed kit.PageResult
	w.result(t, "/faction page revoke:true", &renewed)
	type answer struct {
		status      int
		body, ctype string
	}
	fetch := func(link string) answer {
		res, body := get(t, w.local(link))
		return answer{res.StatusCode, body, res.Header.Get("Content-Type")}
	}
	revoked := fetch(w.links.GM)
	if revoked.status != http.StatusNotFound {
		t.Errorf("a revoked link: %d", revoked.status)
	}
	unknown := fetch("https://pages.example.org/p/" + strings.Repeat("A", 43))
	for _, a := range []answer{unknown, fetch(w.links.Players), fetch("https://pages.example.org/p/x"), fetch("https://pages.example.org/p/")} {
		if a != revoked {
			t.Errorf("answers differ: %+v and %+v", a, revoked)
		}
	}
	if a := fetch(renewed.GM); a.status != 200 {
		t.Errorf("the new GM link: %d", a.status)
	}
	for _, tok := range []string{w.links.GM, w.links.Players, renewed.GM, renewed.Players} {
		tok = tok[strings.LastIndex(tok, "/")+1:]
		if strings.Contains(w.log.String(), tok) {
			t.Errorf("a token in the log:\n%s", w.log.String())
		}
	}
}

// http serves the pages beside the interactions endpoint: a GET of a
// page's path goes to the pages, anything else to the endpoint.
func TestWithPagesRoutesPagePaths(t *testing.T) {
	endpoint := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusTeapot) })
	web := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusAccepted) })
	h := WithPages(endpoint, web)
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/p/abc", http.StatusAccepted},
		{"GET", "/static/page.css", http.StatusAccepted},
		{"POST", "/p/abc", http.StatusTeapot},
		{"POST", "/", http.StatusTeapot},
		{"GET", "/", http.StatusTeapot},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, rec.Code, c.want)
		}
	}
}

// fightLines start a fight in the channel: Goblin and Orc in the open,
// Lurker hidden, Orc stunned; then the fight page's links.
var fightLines = []string{
	`/init start`,
	`/init add name:Goblin hp:7 init:15`,
	`/init add name:Orc hp:9 init:12`,
	`/init add name:Lurker hidden:true hp:5 init:-20`,
	`/init begin`,
	`/init effect target:Orc effect:stunned rounds:2`,
	`/init page`,
}

// fight starts fightLines' fight in the campaign's channel and returns
// its page's links.
func (w *webCampaign) fight(t testing.TB) kit.PageResult {
	t.Helper()
	w.run(t, fightLines...)
	var links kit.PageResult
	w.result(t, "/init page", &links)
	return links
}

// The fight's players' page shows the fight as /init shows it to
// players: no hidden combatant; the GM's page shows it.
func TestFightPagesShowWhatTheirReadersMaySee(t *testing.T) {
	w := newWebCampaign(t)
	links := w.fight(t)
	defer func() {
		if t.Failed() {
			t.Log(w.log.String())
		}
	}()
	res, players := get(t, w.local(links.Players))
	if res.StatusCode != 200 {
		t.Fatalf("players' fight page: %d\n%s", res.StatusCode, players)
	}
	_, gm := get(t, w.local(links.GM))
	for _, s := range []string{`data-combatant="Goblin"`, `data-combatant="Orc"`, "stunned (2 rounds left)", "hp 9/9"} {
		if !strings.Contains(players, s) || !strings.Contains(gm, s) {
			t.Errorf("a fight page lacks %q", s)
		}
	}
	if strings.Contains(players, "Lurker") || !strings.Contains(gm, "Lurker") {
		t.Errorf("the hidden Lurker: on the players' page %v, on the GM's %v; want only the GM's",
			strings.Contains(players, "Lurker"), strings.Contains(gm, "Lurker"))
	}
}
