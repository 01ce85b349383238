package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/core"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// hostile is text users control (names, labels, display names) meant to
// ping, spoof or break a message.
var hostile = []struct{ name, text string }{
	{"everyone", "@everyone"},
	{"here", "@here"},
	{"user mention", "<@123456789012345678>"},
	{"nick mention", "<@!123456789012345678>"},
	{"role mention", "<@&456456456456456456>"},
	{"channel mention", "<#789789789789789789>"},
	{"zero-width everyone", "@\u200beveryone"},
	{"fullwidth at", "＠everyone"},
	{"NUL", "Bob\x00"},
	{"escape sequence", "Bob\x1b[31mred"},
	{"newline", "Bob\n@everyone"},
	{"carriage return", "Bob\r\nSystem: you are banned"},
	{"DEL", "Bob\x7f"},
	{"RTL override", "\u202eboB"},
	{"zero width", "B\u200bo\u200db"},
	{"BOM", "\ufeffBob"},
	{"markdown", "**bold** ~~x~~ ||spoiler|| `code` > quote # head"},
	{"link", "[click](https://example.com)"},
	{"invalid UTF-8", "Bob\xff\xfe"},
	{"long", strings.Repeat("A", 10_000)},
	{"long mentions", strings.Repeat("@everyone ", 1_000)},
	{"long wide", strings.Repeat("𒐫", 3_000)},
}

// viaJSON is s as a handler receives it from Discord: decoded from JSON,
// which turns invalid UTF-8 into U+FFFD (the console alone can pass raw
// bytes).
func viaJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// hostileBot answers through the router as Serve does, wrapped by Logged.
func hostileBot(t *testing.T) (Answerer, *db.DB) {
	t.Helper()
	store := testStore(t)
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(3, 4))) }
	router := commands.New(deps)
	return Logged(router, slog.New(slog.DiscardHandler), nil), store
}

// wireMessage is what Discord receives of a message's mentions and sizes.
type wireMessage struct {
	Type int `json:"type"`
	Data *struct {
		Content         string `json:"content"`
		AllowedMentions *struct {
			Parse       *[]string `json:"parse"`
			Users       []string  `json:"users"`
			Roles       []string  `json:"roles"`
			RepliedUser bool      `json:"replied_user"`
		} `json:"allowed_mentions"`
		Embeds []struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Fields      []struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			} `json:"fields"`
			Footer *struct {
				Text string `json:"text"`
			} `json:"footer"`
		} `json:"embeds"`
		Components []struct {
			Components []struct {
				CustomID string `json:"custom_id"`
				Label    string `json:"label"`
			} `json:"components"`
		} `json:"components"`
	} `json:"data"`
}

// checkMessage holds one response, as Discord would receive it, to the
// rules for user-supplied text: mentions set explicitly on every message,
// pinging nobody but the users the handler named; within Discord's sizes.
func checkMessage(t *testing.T, what string, r kit.Response) {
	t.Helper()
	body, err := json.Marshal(InteractionResponse(r))
	if err != nil {
		t.Fatalf("%s: encode: %v", what, err)
	}
	var w wireMessage
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("%s: decode %s: %v", what, body, err)
	}
	if w.Type == int(kit.Autocomplete) {
		return
	}
	d := w.Data
	if d == nil || d.AllowedMentions == nil || d.AllowedMentions.Parse == nil {
		t.Errorf("%s: no allowed_mentions.parse: %s", what, body)
		return
	}
	am := d.AllowedMentions
	if len(*am.Parse) != 0 || len(am.Roles) != 0 || am.RepliedUser {
		t.Errorf("%s: allowed_mentions %+v may ping more than named users", what, am)
	}
	if !slices.Equal(am.Users, r.MentionUsers) && !(len(am.Users) == 0 && len(r.MentionUsers) == 0) {
		t.Errorf("%s: allowed_mentions.users %v, want exactly %v", what, am.Users, r.MentionUsers)
	}
	if n := utf8.RuneCountInString(d.Content); n > kit.MaxContent {
		t.Errorf("%s: content is %d characters; Discord takes %d", what, n, kit.MaxContent)
	}
	total := 0
	for _, e := range d.Embeds {
		total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
		for _, f := range e.Fields {
			total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		}
		if e.Footer != nil {
			total += utf8.RuneCountInString(e.Footer.Text)
		}
	}
	if total > 6000 {
		t.Errorf("%s: embeds hold %d characters; Discord takes 6000", what, total)
	}
	for _, row := range d.Components {
		for _, b := range row.Components {
			if n := len(b.CustomID); n == 0 || n > 100 {
				t.Errorf("%s: custom_id of %d characters", what, n)
			}
		}
	}
}

// badInName reports what a stored name must never hold: control
// characters, mention syntax, broken UTF-8, or more than MaxNameLen.
func badInName(name string) string {
	switch {
	case !utf8.ValidString(name):
		return "invalid UTF-8"
	case utf8.RuneCountInString(name) > kit.MaxNameLen:
		return "too long"
	case strings.ContainsAny(name, "@<>`"):
		return "mention syntax"
	case strings.TrimSpace(name) != name:
		return "untrimmed"
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Sprintf("control character %U", r)
		}
	}
	return ""
}

// Hostile character names through /character set, show and list, by a
// user whose display name is hostile too: every message pings nobody and
// fits; every name is refused or stored clean.
func TestHostileCharacterNames(t *testing.T) {
	h, store := hostileBot(t)
	ctx := context.Background()
	var accepted []string
	for i, c := range hostile {
		c.text = viaJSON(t, c.text)
		req := func(path string, opts kit.Options) *kit.Request {
			return &kit.Request{Kind: kit.KindCommand, Path: path, Options: opts, GuildID: "g1", ChannelID: "c1",
				User: kit.User{ID: fmt.Sprint("u", i), Name: c.text}}
		}
		resp, err := h.Handle(ctx, req("character/set", kit.Options{"name": c.text, "system": "arc", "stats": "ks=4"}))
		checkMessage(t, c.name+": /character set", resp)
		if err != nil {
			if _, ok := kit.AsUserError(err); !ok {
				t.Errorf("%s: /character set failed: %v", c.name, err)
			}
			continue
		}
		var stored string
		if cr, ok := resp.Result.(core.CharacterResult); ok {
			stored = cr.Name
		} else {
			t.Fatalf("%s: /character set result %T", c.name, resp.Result)
		}
		if why := badInName(stored); why != "" {
			t.Errorf("%s: stored the name %q: %s", c.name, stored, why)
		}
		if _, err := store.Character(ctx, "g1", stored); err != nil {
			t.Errorf("%s: the stored name %q cannot be looked up: %v", c.name, stored, err)
		}
		for r := range strings.SplitSeq(stored, "") {
			if rr, _ := utf8.DecodeRuneInString(r); unicode.Is(unicode.Cf, rr) {
				// Not a ping, but it can reorder or hide text where the name is shown.
				t.Errorf("%s: accepted with the format character %U: %q", c.name, rr, stored)
				break
			}
		}
		accepted = append(accepted, c.name)
		resp, _ = h.Handle(ctx, req("character/show", kit.Options{"name": stored}))
		checkMessage(t, c.name+": /character show", resp)
		resp, _ = h.Handle(ctx, req("character/set", kit.Options{"name": stored, "owner": "999"}))
		checkMessage(t, c.name+": /character set owner (refused)", resp)
	}
	resp, err := h.Handle(ctx, &kit.Request{Kind: kit.KindCommand, Path: "character/list", Options: kit.Options{}, GuildID: "g1", ChannelID: "c1", User: kit.User{ID: "gm", Name: "GM"}})
	checkMessage(t, "/character list", resp)
	if err != nil {
		t.Errorf("/character list: %v", err)
	}
	t.Logf("accepted (cleaned): %v; the rest refused", accepted)
}

// Hostile labels and expressions through /roll (and the autocomplete on
// it), by users with hostile display names.
func TestHostileRollLabels(t *testing.T) {
	h, _ := hostileBot(t)
	ctx := context.Background()
	for _, c := range hostile {
		c.text = viaJSON(t, c.text)
		label := strings.ReplaceAll(c.text, "]", "")
		for _, expr := range []string{
			"1d20+5 [" + label + "]",
			"2d6[" + label + "] + 1d4 [" + label + "] 1d8",
			c.text,
			"1d6 " + c.text,
		} {
			req := &kit.Request{Kind: kit.KindCommand, Path: "roll", GuildID: "g1", ChannelID: "c1",
				Options: kit.Options{"expression": expr}, User: kit.User{ID: "u1", Name: c.text}}
			resp, err := h.Handle(ctx, req)
			checkMessage(t, c.name+": /roll "+short(expr), resp)
			if err != nil {
				if _, ok := kit.AsUserError(err); !ok {
					t.Errorf("%s: /roll %q failed: %v", c.name, short(expr), err)
				}
			}
			ac := &kit.Request{Kind: kit.KindAutocomplete, Path: "roll", Focused: "expression", GuildID: "g1", ChannelID: "c1",
				Options: kit.Options{"expression": expr}, User: kit.User{ID: "u1", Name: c.text}}
			resp, _ = h.Handle(ctx, ac)
			for _, ch := range resp.Choices {
				if n := utf8.RuneCountInString(ch.Name); n > 100 {
					t.Errorf("%s: autocomplete choice name of %d characters", c.name, n)
				}
				if s, ok := ch.Value.(string); ok && utf8.RuneCountInString(s) > 100 {
					t.Errorf("%s: autocomplete choice value of %d characters", c.name, utf8.RuneCountInString(s))
				}
			}
		}
	}
}

// A message that names users to ping pings exactly them: never a role,
// never @everyone, whatever its text says.
func TestMentionUsersOnly(t *testing.T) {
	r := kit.Response{Type: kit.Message, Content: "<@42> your turn; <@&7> @everyone <@43>", MentionUsers: []string{"42"}}
	checkMessage(t, "a turn ping", r)
	r.MentionUsers = nil
	checkMessage(t, "no ping", r)
}

func short(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%.40q…(%d bytes)", s, len(s))
	}
	return fmt.Sprintf("%q", s)
}
