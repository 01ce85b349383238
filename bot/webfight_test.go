package bot

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// eventStream is an open event stream of a page, read line by line.
type eventStream struct {
	res *http.Response
	// events are the events' names as they come; closed at the end of
	// the stream.
	events chan string
}

// openEvents opens the event stream of the page at url (its address on a
// test server), as page.js does: since the journal entry the page shows.
func openEvents(t testing.TB, url string) *eventStream {
	t.Helper()
	_, body := get(t, url)
	since := ""
	if m := regexp.MustCompile(`data-seq="(-?\d+)"`).FindStringSubmatch(body); m != nil {
		since = m[1]
	}
	// A proxy that holds the stream back may hold its headers too.
	client := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: eventWait}}
	res, err := client.Get(url + "/events?since=" + since)
	if err != nil {
		t.Fatalf("open the event stream: %v", err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("events: %d %s", res.StatusCode, b)
	}
	s := &eventStream{res: res, events: make(chan string, 16)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				s.events <- name
			}
		}
	}()
	return s
}

// eventWait bounds the wait for an event: far above the poll of the
// tests' pages (50 ms), and never slept through when the event comes.
const eventWait = 5 * time.Second

// next is the stream's next event, "" at its end; a stream that says
// nothing within eventWait fails t.
func (s *eventStream) next(t testing.TB) string {
	t.Helper()
	select {
	case e, ok := <-s.events:
		if !ok {
			return ""
		}
		return e
	case <-time.After(eventWait):
		t.Fatalf("no event within %v", eventWait)
		return ""
	}
}

// A fight's links open that fight and no other. After /init end an open
// page is told (a change on its stream), and the page, for either
// audience, answers 410 Gone saying the fight has ended; after the next
// /init start in the channel the old links still say so, and show nothing
// of the new fight, whose hidden combatant above all; the new fight's
// links are new. Ending a fight by mistake and undoing the end brings its
// page back.
func TestFightLinksEndWithTheirFight(t *testing.T) {
	w := newWebCampaign(t)
	old := w.fight(t)
	streams := []*eventStream{openEvents(t, w.local(old.Players)), openEvents(t, w.local(old.GM))}

	w.run(t, "/init end")
	for _, s := range streams {
		if e := s.next(t); e != "change" {
			t.Fatalf("the stream after /init end: %q, want a change", e)
		}
	}
	ended := func(when string) {
		t.Helper()
		for _, link := range []string{old.Players, old.GM} {
			res, body := get(t, w.local(link))
			if res.StatusCode != http.StatusGone || !strings.Contains(body, "<h1>The fight has ended.</h1>") ||
				res.Header.Get("Cache-Control") != "no-store" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Errorf("%s, an old link: %d %v\n%s", when, res.StatusCode, res.Header, body)
			}
			for _, s := range []string{"Goblin", "Lurker", "Wraith", "Bandit", "data-live"} {
				if strings.Contains(body, s) {
					t.Errorf("%s, an old link's page holds %q", when, s)
				}
			}
		}
	}
	ended("after /init end")

	w.run(t, "/init undo")
	for _, s := range streams {
		if e := s.next(t); e != "change" {
			t.Fatalf("the stream after the end is undone: %q, want a change", e)
		}
	}
	if res, body := get(t, w.local(old.Players)); res.StatusCode != 200 || !strings.Contains(body, `data-combatant="Goblin"`) {
		t.Errorf("the players' page after the end is undone: %d", res.StatusCode)
	}
	w.run(t, "/init end")

	w.run(t, `/init start`, `/init add name:Wraith hidden:true hp:3 init:5`, `/init add name:Bandit hp:4 init:3`, `/init begin`)
	ended("after the next /init start")
	w.run(t, "/init page")
	var now struct {
		Players string `json:"players_url"`
		GM      string `json:"gm_url"`
	}
	w.result(t, "/init page", &now)
	if now.Players == old.Players || now.GM == old.GM {
		t.Fatalf("the new fight's links are the old fight's")
	}
	_, players := get(t, w.local(now.Players))
	_, gm := get(t, w.local(now.GM))
	if !strings.Contains(players, "Bandit") || strings.Contains(players, "Wraith") || !strings.Contains(gm, "Wraith") {
		t.Errorf("the new fight's pages: Bandit on the players' %v, Wraith on the players' %v, on the GM's %v",
			strings.Contains(players, "Bandit"), strings.Contains(players, "Wraith"), strings.Contains(gm, "Wraith"))
	}
}

// A revoked link's open page is told ("gone"), and its stream ends;
// the page and a new stream are the one 404.
func TestRevokedFightLinkEndsItsStream(t *testing.T) {
	w := newWebCampaign(t)
	old := w.fight(t)
	s := openEvents(t, w.local(old.GM))
	w.run(t, "/init page revoke:true")
	if e := s.next(t); e != "gone" {
		t.Fatalf("the stream after a revoke: %q, want gone", e)
	}
	if e := s.next(t); e != "" {
		t.Errorf("the stream goes on after a revoke: %q", e)
	}
	for _, path := range []string{"", "/events"} {
		if res, _ := get(t, w.local(old.GM)+path); res.StatusCode != http.StatusNotFound {
			t.Errorf("the revoked link%s: %d, want 404", path, res.StatusCode)
		}
	}
}

// The pages' headers: no search engine indexes them (the header, and the
// meta tag of every page), and the event stream tells a proxy in front
// not to buffer it.
func TestPageHeaders(t *testing.T) {
	w := newWebCampaign(t)
	links := w.fight(t)
	for _, path := range []string{w.links.Players, links.GM, "https://pages.example.org/p/unknown", "https://pages.example.org/static/page.css"} {
		res, body := get(t, w.local(path))
		if got := res.Header.Get("X-Robots-Tag"); got != "noindex, nofollow" {
			t.Errorf("%s: X-Robots-Tag %q", path, got)
		}
		if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") && !strings.Contains(body, `<meta name="robots" content="noindex, nofollow">`) {
			t.Errorf("%s: no robots meta tag", path)
		}
	}
	s := openEvents(t, w.local(links.Players))
	for k, want := range map[string]string{"X-Accel-Buffering": "no", "Content-Type": "text/event-stream", "X-Robots-Tag": "noindex, nofollow"} {
		if got := s.res.Header.Get(k); got != want {
			t.Errorf("the event stream's %s: %q, want %q", k, got, want)
		}
	}
}

// The open event streams are capped per link and in all: past a cap a
// stream is refused with a text (429 for the link, 503 for all), and
// closing one makes room again.
func TestEventStreamCaps(t *testing.T) {
	w := newWebCampaign(t)
	links := w.fight(t)
	web := NewWeb(w.store, w.router.Pages(), slogDiscard(), WebOptions{Poll: 50 * time.Millisecond, MaxStreamsPerLink: 2, MaxStreams: 3})
	srv := httptest.NewServer(web)
	t.Cleanup(srv.Close)
	t.Cleanup(web.Shutdown)
	url := func(link string) string {
		return srv.URL + strings.TrimPrefix(link, "https://pages.example.org") + "/events"
	}
	open := func(link string, want int, text string) *http.Response {
		t.Helper()
		res, err := http.Get(url(link))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		if res.StatusCode != want {
			t.Fatalf("a stream: %d, want %d", res.StatusCode, want)
		}
		if text != "" {
			b, _ := io.ReadAll(res.Body)
			if !strings.Contains(string(b), text) || res.Header.Get("Retry-After") == "" {
				t.Errorf("a stream refused with %d: %q, Retry-After %q", want, b, res.Header.Get("Retry-After"))
			}
		}
		return res
	}
	first := open(links.Players, 200, "")
	open(links.Players, 200, "")
	open(links.Players, http.StatusTooManyRequests, "This link has 2 pages following it")
	open(links.GM, 200, "")
	open(links.GM, http.StatusServiceUnavailable, "Tablehand is following 3 open pages")
	first.Body.Close()
	// The server sees the stream closed when it next writes or reads:
	// wait for the room, with a deadline.
	deadline := time.Now().Add(eventWait)
	for {
		res, err := http.Get(url(links.GM))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no room after a stream closed: %d", res.StatusCode)
		}
	}
}
