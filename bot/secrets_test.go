package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// The secret-keeping property: for a player P, everything sent to P's
// client is the same whether or not the session holds state P may not
// see. A secret session is a console session whose lines marked secret
// (a leading "!") make such state: hidden combatants, hidden sheets,
// covert assets, other factions' orders, gm and blind rolls. The harness
// plays it twice, with and without those lines, and compares what P
// receives, line by line, byte for byte once the IDs that identify
// nothing (roll IDs) are normalised.
//
// Each line gets dice and roll IDs of its own, seeded by its place among
// the lines both runs play, so that a secret line's rolls do not shift
// the dice of the lines after it: what a secret changes is then what the
// bot tells, never the luck of the draw.

// secretSession is a hand-written session: lines as the console reads
// them, the secret ones marked with a leading "!"; player is whose view is
// compared.
type secretSession struct {
	name   string
	player string
	lines  []string
}

// secretGM is the GM of every secret session; it is also the console's
// default user.
const secretGM = "gm"

// playerView plays s, with its secret lines when withSecrets, and returns
// what s.player received: one entry a line the two runs share, and one
// for each secret line that sent the player anything (there should be
// none).
func playerView(t *testing.T, s secretSession, withSecrets bool) []string {
	t.Helper()
	ctx := context.Background()
	store := testStore(t)
	var roller dice.Roller
	var codes func() string
	deps := kit.NewDeps(store, commands.DefaultRules())
	// Each system's own fight rules, as serve and the console run them:
	// without, every fight would run on the generic rules.
	deps.Policies = commands.Policies(nil, deps.Rules)
	deps.Roller = func() dice.Roller { return roller }
	deps.Codes = func() string { return codes() }
	clock := time.Date(2026, 1, 2, 18, 0, 0, 0, time.UTC)
	deps.Now = func() time.Time { return clock }
	o := ConsoleOptions{Router: commands.New(deps), JSON: true, User: secretGM, GMs: []string{secretGM}, Channel: "table", Guild: "g"}
	page, campaign := "", playersCampaignPage(t, o.Router)

	var view []string
	common := 0
	for i, input := range s.lines {
		secret := strings.HasPrefix(input, "!")
		if secret && !withSecrets {
			continue
		}
		input = strings.TrimPrefix(input, "!")
		// The line's number names the messages it makes (console-N): a
		// shared line has the same number in both runs.
		n := 1 + common
		if secret {
			n = 100000 + i
		} else {
			common++
		}
		roller = dice.NewRandom(rand.New(rand.NewPCG(uint64(n), 20)))
		codes = kit.NewCodes(uint64(n), true)
		line := runLine(ctx, o, n, input, true)
		seen := seenBy(t, s.player, line)
		before, beforeCampaign := page, campaign
		page = playersFightPage(t, o.Router, store)
		campaign = playersCampaignPage(t, o.Router)
		if secret {
			if seen != "" {
				view = append(view, fmt.Sprintf("secret line %q sent %s:\n%s", input, s.player, seen))
			}
			if page != before {
				view = append(view, fmt.Sprintf("secret line %q changed the players' fight page:\n%s\nto:\n%s", input, before, page))
			}
			if campaign != beforeCampaign {
				view = append(view, fmt.Sprintf("secret line %q changed the players' campaign page:\n%s\nto:\n%s", input, beforeCampaign, campaign))
			}
			continue
		}
		view = append(view, fmt.Sprintf("%s\n%s\nplayers' fight page: %s\nplayers' campaign page: %s", input, seen, page, campaign))
	}
	return view
}

// playersFightPage is the players' web page of the fight running in the
// sessions' channel, and its Seq, which its event stream watches (a
// change is an event): "" when no fight runs.
func playersFightPage(t *testing.T, r *kit.Router, store *db.DB) string {
	t.Helper()
	enc, err := store.Encounter(context.Background(), "table")
	if err != nil {
		return ""
	}
	return playersPage(t, r, db.Page{GuildID: "g", Scope: db.FightScope("table", enc.ID), Audience: db.AudiencePlayers})
}

// playersCampaignPage is the players' web page of the sessions' faction
// campaign (an error's words when there is none).
func playersCampaignPage(t *testing.T, r *kit.Router) string {
	t.Helper()
	return playersPage(t, r, db.Page{GuildID: "g", Scope: db.ScopeCampaign, Audience: db.AudiencePlayers})
}

// playersPage renders p with the page that serves its scope, normalised,
// after its Seq when it is a live page.
func playersPage(t *testing.T, r *kit.Router, p db.Page) string {
	t.Helper()
	ctx := context.Background()
	for _, pg := range r.Pages() {
		if !pg.Serves(p.Scope) {
			continue
		}
		var b bytes.Buffer
		if err := pg.Render(ctx, &b, p); err != nil {
			return "error: " + err.Error()
		}
		live, ok := pg.(kit.LivePage)
		if !ok {
			return normalise(b.String())
		}
		seq, err := live.Seq(ctx, p)
		if err != nil {
			return "seq error: " + err.Error()
		}
		return fmt.Sprintf("seq %d\n%s", seq, normalise(b.String()))
	}
	t.Fatalf("no page serves %s", p.Scope)
	return ""
}

// seenBy is what player received of one console line, as Discord would
// deliver it: all of the answer to their own command; of another's, the
// answer and follow-ups that are not ephemeral; the edits of channel
// messages; the posts outside the GM channel.
func seenBy(t *testing.T, player string, l ConsoleLine) string {
	t.Helper()
	var parts []string
	add := func(what string, d *discordgo.InteractionResponseData) {
		if d == nil {
			return
		}
		if l.User != player && d.Flags&discordgo.MessageFlagsEphemeral != 0 {
			return
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, what+": "+normalise(string(b)))
	}
	if l.Response != nil {
		add("answer", l.Response.Data)
	}
	if l.User == player && l.Error != "" {
		parts = append(parts, "error: "+normalise(l.Error))
	}
	for _, f := range l.Followups {
		add("follow-up", f)
	}
	if l.Edit != nil {
		add("edit "+l.Edit.MessageID, l.Edit.Data)
	}
	for _, p := range l.Posts {
		if p.ChannelID != secretGMChannel {
			add("post in "+p.ChannelID, p.Data)
		}
	}
	return strings.Join(parts, "\n")
}

// secretGMChannel is the GM channel of the secret sessions.
const secretGMChannel = "gm-only"

// rollIDs are the short IDs of rolls (kit.CodeLen characters of the
// codes' alphabet), which identify nothing once normalised.
var rollIDs = regexp.MustCompile(`\b[0-9A-HJKMNP-TV-Z]{6}\b`)

// timestamps are Discord's timestamps (<t:1795795455:R>), as JSON
// writes them too: the store stamps rolls with the real clock, and a
// session that runs over a second's turn would see another.
var timestamps = regexp.MustCompile(`(<|\\u003c)t:[0-9]+:R(>|\\u003e)`)

// normalise replaces the roll IDs and timestamps in s.
func normalise(s string) string {
	s = timestamps.ReplaceAllString(s, "<t:time:R>")
	return rollIDs.ReplaceAllStringFunc(s, func(id string) string {
		// Only what mixes letters and digits, as codes nearly always do;
		// a word in capitals or a number stays.
		if strings.IndexFunc(id, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 ||
			strings.IndexFunc(id, func(r rune) bool { return r >= 'A' && r <= 'Z' }) < 0 {
			return id
		}
		return "<id>"
	})
}

// checkSessionKeepsSecrets plays s with and without its secrets and reports the
// first line whose view differs.
func checkSessionKeepsSecrets(t *testing.T, s secretSession) {
	t.Helper()
	without, with := playerView(t, s, false), playerView(t, s, true)
	for i := range max(len(without), len(with)) {
		var a, b string
		if i < len(without) {
			a = without[i]
		}
		if i < len(with) {
			b = with[i]
		}
		if a != b {
			t.Errorf("%s: %s receives something else when the session holds secrets:\nwithout:\n%s\nwith:\n%s", s.name, s.player, a, b)
			return
		}
	}
}

func TestSecretsKept(t *testing.T) {
	for _, s := range secretSessions {
		t.Run(s.name, func(t *testing.T) { checkSessionKeepsSecrets(t, s) })
	}
}

// TestSecretsHarnessFindsAPlantedLeak: a secret line that posts in the
// channel is found.
func TestSecretsHarnessFindsAPlantedLeak(t *testing.T) {
	s := secretSession{name: "planted", player: "bob", lines: []string{
		"@bob /roll 1d20",
		"!/roll 1d20+3", // a GM's public roll: a secret line may not post it
		"@bob /roll 1d6",
	}}
	if without, with := playerView(t, s, false), playerView(t, s, true); strings.Join(without, "\n") == strings.Join(with, "\n") {
		t.Errorf("the harness found no difference with a public roll among the secret lines:\n%s", strings.Join(with, "\n"))
	}
}

// TestSecretsKeptGenerated plays generated tracker sessions (a fixed
// seed, a bounded number): random initiatives in a narrow range, so that
// hidden combatants often tie with visible ones, then a random run of
// the players' and the GM's commands, with secret ones (on hidden
// combatants, private rolls) among them.
func TestSecretsKeptGenerated(t *testing.T) {
	sessions := 12
	if testing.Short() {
		sessions = 3
	}
	r := rand.New(rand.NewPCG(20, 2026))
	for i := range sessions {
		s := generatedSession(r, i)
		t.Run(s.name, func(t *testing.T) { checkSessionKeepsSecrets(t, s) })
	}
}

// generatedSession is one generated tracker session; see
// TestSecretsKeptGenerated.
func generatedSession(r *rand.Rand, i int) secretSession {
	init := func() int { return 10 + r.IntN(3) }
	lines := []string{
		"/init start",
		fmt.Sprintf("/init add name:Brom initiative:%d hp:12 owner:bob", init()),
		fmt.Sprintf("!/init add name:Ogre initiative:%d hp:20 hidden:true", init()),
		fmt.Sprintf("/init add name:Gob initiative:%d hp:9", init()),
		fmt.Sprintf("!/init add name:Lurker initiative:%d hp:8 hidden:true", init()),
		"/init begin",
	}
	steps := []func() string{
		func() string { return fmt.Sprintf("@bob /init damage target:Gob amount:%d", 1+r.IntN(3)) },
		func() string { return fmt.Sprintf("/init damage target:Brom amount:%d", 1+r.IntN(3)) },
		func() string { return fmt.Sprintf("!/init damage target:Ogre amount:%d", 1+r.IntN(5)) },
		func() string { return fmt.Sprintf("!/init heal target:Lurker amount:%d", 1+r.IntN(2)) },
		func() string { return "@bob /init list" },
		func() string { return "@bob /init log" },
		func() string { return "@bob complete /init damage target:" },
		func() string { return fmt.Sprintf("@bob /roll 1d20+%d", r.IntN(5)) },
		func() string { return "!@alice /roll 1d20 visibility:self" },
		func() string { return "!/init list" },
		func() string { return "@bob /history" },
	}
	for range 8 + r.IntN(8) {
		lines = append(lines, steps[r.IntN(len(steps))]())
	}
	return secretSession{name: fmt.Sprintf("generated-%d", i), player: "bob", lines: lines}
}
