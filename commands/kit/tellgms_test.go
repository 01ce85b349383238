package kit

import (
	"context"
	"errors"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// gmChannels is a ChannelStore that knows only the GM channel: "" is
// none set, err a store that fails.
type gmChannels struct {
	ChannelStore
	ch  string
	err error
}

func (g gmChannels) GMChannel(context.Context, string) (string, error) {
	switch {
	case g.err != nil:
		return "", g.err
	case g.ch == "":
		return "", db.ErrNotFound
	}
	return g.ch, nil
}

// TellGMs: a GM reads it privately; a player's answer posts it in the
// GM channel, or nowhere without one; a store that fails is an error.
func TestTellGMs(t *testing.T) {
	msg := Response{Content: "the secret"}
	failed := "could not post in <#%s>"
	for _, tc := range []struct {
		name      string
		gm        bool
		store     gmChannels
		followups int
		post      string
		err       bool
	}{
		{"a GM asks", true, gmChannels{ch: "gms"}, 1, "", false},
		{"a player, a GM channel", false, gmChannels{ch: "gms"}, 0, "gms", false},
		{"a player, none", false, gmChannels{}, 0, "", false},
		{"a player, the store fails", false, gmChannels{err: errors.New("down")}, 0, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Env{Deps: Deps{Channels: tc.store}}
			var resp Response
			err := e.TellGMs(context.Background(), &Request{GuildID: "g", GM: tc.gm}, &resp, msg, failed)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want an error: %v", err, tc.err)
			}
			if len(resp.Followups) != tc.followups || tc.followups == 1 && (!resp.Followups[0].Ephemeral || resp.Followups[0].Content != "the secret") {
				t.Errorf("follow-ups %+v, want %d private", resp.Followups, tc.followups)
			}
			switch {
			case tc.post == "" && len(resp.Posts) != 0:
				t.Errorf("posted %+v", resp.Posts)
			case tc.post != "" && (len(resp.Posts) != 1 || resp.Posts[0].ChannelID != tc.post ||
				resp.Posts[0].Message.Content != "the secret" || resp.Posts[0].Failed != "could not post in <#gms>"):
				t.Errorf("posts %+v, want the secret in %s", resp.Posts, tc.post)
			}
		})
	}
}
