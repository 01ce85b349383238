package bot

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// Through the HTTP endpoint, with the payloads Discord sends (the acting
// member's nick, global name and username; the resolved users and
// members of an owner: option), the campaign page names each player as
// the server shows them: the nick, else the global name, else the
// username; someone never seen as "a player"; never an ID. A new nick
// shows once its owner acts again, and a name from another server never
// shows. Only the players of factions are named: the GM's name is not on
// the page.
func TestCampaignPageShowsNamesFromDiscord(t *testing.T) {
	ctx := context.Background()
	store := testStore(t)
	deps := seededDeps(store)
	deps.Calendar, deps.PublicURL = Cron{}, "https://pages.example.org"
	router := commands.New(deps)
	s := newSigner(t)
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: router, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	web := NewWeb(store, router.Pages(), slogDiscard(), WebOptions{})
	srv := httptest.NewServer(WithPages(e, web))
	t.Cleanup(srv.Close)
	t.Cleanup(web.Shutdown)
	fake := fakediscord.New(fakediscord.Options{}) // only to build fixtures here
	defer fake.Close()

	gm := fakediscord.Member{User: fakediscord.User{ID: "381234567890120001", Username: "gm_user", GlobalName: "Game Master"}, Nick: "The GM"}
	ann := fakediscord.Member{User: fakediscord.User{ID: "381234567890123456", Username: "ann_k", GlobalName: "Ann K"}, Nick: "Captain Ann"}
	bob := fakediscord.Member{User: fakediscord.User{ID: "381234567890123457", Username: "bobby", GlobalName: "Bob"}}
	cy := fakediscord.Member{User: fakediscord.User{ID: "381234567890123458", Username: "cy_99"}}
	dee := "381234567890123459" // named with no resolved data: never seen
	ids := []string{gm.User.ID, ann.User.ID, bob.User.ID, cy.User.ID, dee}

	send := func(what string, in fakediscord.Interaction, as fakediscord.Member, permissions string) {
		t.Helper()
		in.User, in.Nick, in.Permissions = as.User, as.Nick, permissions
		ir := decodeResponse(t, s.post(t, srv.URL, interactionJSON(t, in), testNow))
		if ir.Data == nil || strings.Contains(ir.Data.Content, "went wrong") || ir.Data.Flags&64 != 0 && !strings.HasPrefix(what, "/faction show") {
			t.Fatalf("%s: %+v", what, ir.Data)
		}
	}
	create := func(name string, owner fakediscord.Member, resolved bool) {
		t.Helper()
		in := fake.SlashCommand("faction", fakediscord.Subcommand("create", fakediscord.StringOpt("name", name), fakediscord.UserOpt("owner", owner.User.ID)))
		if resolved {
			in.Resolved = []fakediscord.Member{owner}
		}
		send("/faction create name:"+name, in, gm, fakediscord.DefaultPermissions)
	}
	create("Red", ann, true)
	create("Blue", bob, true)
	create("Green", cy, true)
	create("Grey", fakediscord.Member{User: fakediscord.User{ID: dee}}, false)

	links, err := store.PageLinks(ctx, fakediscord.DefaultGuildID, db.ScopeCampaign, false)
	if err != nil {
		t.Fatal(err)
	}
	page := func(token string) string {
		t.Helper()
		res, body := get(t, srv.URL+kit.PagePath+token)
		if res.StatusCode != 200 {
			t.Fatalf("page: %d", res.StatusCode)
		}
		for _, id := range ids {
			if strings.Contains(body, id) {
				t.Errorf("the page shows the ID %s", id)
			}
		}
		for _, name := range []string{"The GM", "Game Master", "gm_user"} {
			if strings.Contains(body, name) {
				t.Errorf("the page names the GM, who plays no faction: %q", name)
			}
		}
		return body
	}
	played := func(name string) string { return `Played by <span class="player">` + name + `</span>` }
	for audience, token := range map[string]string{"players": links.Players, "GM": links.GM} {
		body := page(token)
		for _, want := range []string{played("Captain Ann"), played("Bob"), played("cy_99"), "Played by a player"} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s' page: no %q", audience, want)
			}
		}
		for _, not := range []string{"Ann K", "ann_k", "bobby", "Player 3"} {
			if strings.Contains(body, not) {
				t.Errorf("the %s' page shows %q", audience, not)
			}
		}
	}

	// Ann changes her nick on this server and acts: the kept page shows
	// the new one. Her nick on another server never shows here.
	ann.Nick = "Admiral Ann"
	send("/faction show faction:Red", fake.SlashCommand("faction", fakediscord.Subcommand("show", fakediscord.StringOpt("faction", "Red"))), ann, "0")
	elsewhere := fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d20"))
	elsewhere.GuildID = "1200000000000000999"
	send("/roll elsewhere", elsewhere, fakediscord.Member{User: ann.User, Nick: "Ann Elsewhere"}, "0")
	for _, token := range []string{links.Players, links.GM} {
		body := page(token)
		if !strings.Contains(body, played("Admiral Ann")) || strings.Contains(body, "Captain Ann") || strings.Contains(body, "Ann Elsewhere") {
			t.Errorf("after Ann's new nick, the page names her: %q", playerLine(body, "Red"))
		}
	}
}

// playerLine is the line of body that says who plays faction.
func playerLine(body, faction string) string {
	_, after, _ := strings.Cut(body, `data-faction="`+faction+`"`)
	_, after, _ = strings.Cut(after, `<p class="meta">`)
	line, _, _ := strings.Cut(after, "</p>")
	return line
}

// The console's users are their names (--user, @name), and a user option
// names someone by what was typed: the page names the players so.
func TestConsoleNamesPlayersAsTyped(t *testing.T) {
	w := newWebCampaign(t)
	_, body := get(t, w.local(w.links.Players))
	for faction, name := range map[string]string{"Red": "alice", "Blue": "bob"} {
		if got, want := playerLine(body, faction), `Played by <span class="player">`+name+`</span>`; !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to begin %q", faction, got, want)
		}
	}
}
