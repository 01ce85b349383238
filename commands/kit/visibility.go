package kit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/db"
)

// Visibility is who sees a roll's result.
type Visibility string

// The visibilities of a roll.
const (
	// Public: everyone in the channel.
	Public Visibility = "public"
	// Self: the roller alone (the `private:` option).
	Self Visibility = "self"
	// GMRoll: the roller and the GMs; the channel sees that a secret roll
	// was made, its roller and its ID.
	GMRoll Visibility = "gm"
	// Blind: the GMs alone; the roller and the channel see that it was
	// made and its ID.
	Blind Visibility = "blind"
)

// Secret reports whether the channel sees only that the roll was made.
func (v Visibility) Secret() bool { return v == GMRoll || v == Blind }

// VisibilityOption is the `visibility:` option of /roll and of every rules
// command that rolls.
// Its words are short: a rules command carries it on every subcommand,
// within Discord's 8000 characters a command.
var VisibilityOption = Option{
	Type: String, Name: "visibility", Description: "Who sees the result",
	Choices: []Choice{
		{Name: "public", Value: string(Public)},
		{Name: "gm", Value: string(GMRoll)},
		{Name: "blind", Value: string(Blind)},
		{Name: "self", Value: string(Self)},
	},
}

// RollVisibilityOption is VisibilityOption for a command whose
// `visibility:` is one of its rules' (/burst: poor visibility).
var RollVisibilityOption = func() Option {
	o := VisibilityOption
	o.Name = "roll_visibility"
	return o
}()

// PrivateOption is `private:`, kept as the alias of visibility:self.
var PrivateOption = Option{Type: Boolean, Name: "private", Description: "Only you see the result"}

// RollVisibility reads req's `roll_visibility:` or `visibility:`, else
// `private:true` as self, else public. A `private:true` beside another
// visibility is the user's mistake.
//
// A command whose rules have a `visibility:` of their own (/burst) takes
// `roll_visibility:` instead (RollVisibilityOption); its `visibility:`
// then holds other words, which are not this one's.
func RollVisibility(req *Request) (Visibility, error) {
	text := strings.ToLower(strings.TrimSpace(req.Options.String("visibility")))
	if req.Options.Has("roll_visibility") {
		text = strings.ToLower(strings.TrimSpace(req.Options.String("roll_visibility")))
	} else if v := Visibility(text); v != Public && !v.Secret() && v != Self {
		text = "" // the rules' visibility:low, say: the router held it to their choices
	}
	private := req.Options.Bool("private")
	switch Visibility(text) {
	case "":
		if private {
			return Self, nil
		}
		return Public, nil
	case Public, GMRoll, Blind, Self:
		if private && Visibility(text) != Self {
			return "", Errorf("private:true means visibility:self, not visibility:%s: give one of them (example: /roll 1d20 visibility:%s)", text, text)
		}
		return Visibility(text), nil
	}
	return "", Errorf("visibility is public, gm, blind or self, not %q (example: /roll 1d20 visibility:gm)", text)
}

// visibilityOf is RollVisibility for a request whose options were already
// checked: a mistake there reads as self, the most discreet.
func visibilityOf(req *Request) Visibility {
	v, err := RollVisibility(req)
	if err != nil {
		return Self
	}
	return v
}

// Post is a message the bot posts on its own in another channel than the
// interaction's (the GM channel): Failed is what the user who caused it
// is told, privately, if Discord refuses it.
type Post struct {
	ChannelID string
	Message   Response
	Failed    string
}

// GMChannelHow says how a GM sets the GM channel, for the replies to a
// secret roll made without one.
const GMChannelHow = "No GM channel is set, so the GMs see this roll only in /history: a GM sets one with /system gm-channel channel:#gm-only."

// GMChannel returns the guild's GM channel, "" when none is set.
func (e *Env) GMChannel(ctx context.Context, guildID string) (string, error) {
	if e.Channels == nil {
		return "", nil
	}
	ch, err := e.Channels.GMChannel(ctx, guildID)
	if errors.Is(err, db.ErrNotFound) {
		return "", nil
	}
	return ch, err
}

// TellGMs gives the GMs msg, which the asker's channel may not read: the
// asker, when a GM, in a private follow-up of resp; else a post of resp
// in the GM channel, when one is set. failed, with the channel for its
// %s, is what the asker reads if that post cannot be made: where the GMs
// find it instead.
func (e *Env) TellGMs(ctx context.Context, req *Request, resp *Response, msg Response, failed string) error {
	if req.GM {
		msg.Ephemeral = true
		resp.Followups = append(resp.Followups, msg)
		return nil
	}
	ch, err := e.GMChannel(ctx, req.GuildID)
	if err != nil || ch == "" {
		return err
	}
	resp.Posts = append(resp.Posts, Post{ChannelID: ch, Message: msg, Failed: fmt.Sprintf(failed, ch)})
	return nil
}

// Conceal turns the full answer to a roll (resp, what its roller would
// see of a public roll) into what each person sees under vis:
//
//   - public: resp.
//   - self: resp, ephemeral.
//   - gm: the channel sees that who made a secret roll and its ID; the
//     roller gets resp as a private follow-up; the GM channel gets resp.
//   - blind: the channel and the roller see that who made a blind roll
//     and its ID; the GM channel gets resp.
//
// gmChannel is the guild's GM channel, "" when none is set: the roller
// is then told how to set one. The concealed answer's Result is a
// SecretResult: it carries no total and no dice.
func Conceal(req *Request, vis Visibility, gmChannel, who, id string, resp Response) Response {
	switch vis {
	case Self:
		resp.Ephemeral = true
		return resp
	case GMRoll, Blind:
	default:
		return resp
	}
	what, sees := "a secret roll", "only they and the GMs see its result"
	if vis == Blind {
		what, sees = "a blind roll", "only the GMs see its result"
	}
	ref := ""
	if id != "" {
		ref = "\n-# roll " + id
	}
	out := Response{
		Content: fmt.Sprintf("🎲 **%s** made %s: %s.%s", who, what, sees, ref),
		Result:  SecretResult{ID: id, Visibility: string(vis), User: req.User.Name},
	}
	if vis == GMRoll {
		mine := resp
		mine.Ephemeral, mine.Followups, mine.Edit, mine.Posted, mine.MentionUsers, mine.Result = true, nil, nil, nil, nil, nil
		if gmChannel == "" {
			mine.Content += "\n-# " + GMChannelHow
		}
		out.Followups = append(out.Followups, mine)
	} else if gmChannel == "" {
		out.Followups = append(out.Followups, Response{Content: GMChannelHow, Ephemeral: true})
	}
	out.Followups = append(out.Followups, resp.Followups...)
	out.Edit, out.Posted = resp.Edit, resp.Posted
	if gmChannel != "" {
		out.Posts = append(out.Posts, Post{
			ChannelID: gmChannel,
			Message: Response{
				Content: fmt.Sprintf("🔒 %s by **%s** in <#%s>\n%s", what, DisplayName(req.User), req.ChannelID, resp.Content),
				Embeds:  resp.Embeds,
			},
			Failed: fmt.Sprintf("Tablehand could not post this roll in the GM channel <#%s>: a GM gives it View Channel and Send Messages there, or sets another with /system gm-channel. The GMs still see it in /history.", gmChannel),
		})
	}
	return out
}

// SecretResult is the console's `result` of a gm or blind roll's public
// answer: who rolled and its ID, never its total or dice.
type SecretResult struct {
	ID         string `json:"id,omitempty"`
	Visibility string `json:"visibility"`
	User       string `json:"user"`
}
