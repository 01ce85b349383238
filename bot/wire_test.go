package bot

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/bot/fakediscord"
)

// The endpoint's own decoder gives every handler the same request that
// discordgo's full decoding gives, for each kind of interaction Tablehand
// answers, and the fields the follow-ups use.
func TestDecodeInteractionMatchesDiscordgo(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	dm := fake.SlashCommand("roll", fakediscord.StringOpt("expression", "2d6"))
	dm.GuildID, dm.User.GlobalName = "", "Mira"
	nick := fake.SlashCommand("character", fakediscord.Subcommand("set",
		fakediscord.StringOpt("name", "Vex"), fakediscord.IntOpt("hp", 12), fakediscord.BoolOpt("private", true),
		fakediscord.NumberOpt("bonus", 1.5), fakediscord.UserOpt("player", "1400000000000000009")))
	nick.Nick, nick.Permissions, nick.Roles = "Vex's player", "8208", []string{"77", "78"}
	// An owner: option's user, resolved with their member (a nick), and
	// two more without a nick, one without a global name.
	owner := fake.SlashCommand("faction", fakediscord.Subcommand("create",
		fakediscord.StringOpt("name", "Red"), fakediscord.UserOpt("owner", "1400000000000000009")))
	owner.Resolved = []fakediscord.Member{
		{User: fakediscord.User{ID: "1400000000000000009", Username: "ann_k", GlobalName: "Ann K"}, Nick: "Captain Ann"},
		{User: fakediscord.User{ID: "1400000000000000008", Username: "bobby", GlobalName: "Bob"}},
		{User: fakediscord.User{ID: "1400000000000000007", Username: "cy_99"}},
	}
	dmOwner := owner
	dmOwner.GuildID = ""
	cases := map[string]fakediscord.Interaction{
		"slash":        fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d20+5")),
		"dm":           dm,
		"subcommand":   nick,
		"resolved":     owner,
		"resolved dm":  dmOwner,
		"group":        fake.SlashCommand("faction", fakediscord.SubcommandGroup("asset", fakediscord.Subcommand("buy", fakediscord.StringOpt("asset", "Militia")))),
		"autocomplete": fake.Autocomplete("roll", fakediscord.StringOpt("expression", "4d").Focus()),
		"click":        fake.Component("roll:again:1d20"),
		"select":       fake.Component("pick", "a", "b"),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			body := interactionJSON(t, in)
			var want discordgo.Interaction
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatal(err)
			}
			got, err := decodeInteraction(body)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := Request(got), Request(&want); !reflect.DeepEqual(g, w) {
				t.Errorf("request\n got %+v\nwant %+v", g, w)
			}
			if in.Resolved != nil && len(Request(got).Resolved) != len(in.Resolved) {
				t.Errorf("resolved %+v, want %d users", Request(got).Resolved, len(in.Resolved))
			}
			if got.ID != want.ID || got.AppID != want.AppID || got.Token != want.Token || got.Type != want.Type {
				t.Errorf("ids: got %q %q %q %v, want %q %q %q %v", got.ID, got.AppID, got.Token, got.Type, want.ID, want.AppID, want.Token, want.Type)
			}
			if want.Type == discordgo.InteractionMessageComponent && !reflect.DeepEqual(got.MessageComponentData().Values, want.MessageComponentData().Values) {
				t.Errorf("values %v, want %v", got.MessageComponentData().Values, want.MessageComponentData().Values)
			}
		})
	}
}

// A body discordgo refuses is refused: no data for a command, or not JSON.
func TestDecodeInteractionRefuses(t *testing.T) {
	for _, body := range []string{
		`{"type":2,"id":"1"}`,
		`{"type":3,"id":"1"}`,
		`{"type":2,"data":{"options":"x"}}`,
		`{"type":2,`,
		`{"type":2,"member":{"permissions":16}}`,
	} {
		if _, err := decodeInteraction([]byte(body)); err == nil {
			t.Errorf("%s: decoded", body)
		}
		var i discordgo.Interaction
		if err := json.Unmarshal([]byte(body), &i); err == nil {
			t.Errorf("%s: discordgo decodes it; the case is wrong", body)
		}
	}
}
