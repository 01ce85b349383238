package bot

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/commands/kit"
)

// Errors logged here are passed through redact: a transport error quotes
// the webhook URL, which holds the interaction's token.
//
// deliverExtras does what a response asks beyond the interaction's answer,
// once the answer is with Discord: tell the handler which message the
// answer became, edit an earlier message (the encounter tracker), send
// follow-up messages (a ping an edit cannot carry), post in other
// channels (a secret roll in the GM channel). A failure here is logged:
// the user already has the answer; a post Discord refuses is also told
// to the user, privately, in the words of its Failed.
func deliverExtras(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r kit.Response, log *slog.Logger) {
	if r.Posted != nil {
		if err := posted(ctx, s, i, r.Posted); err != nil {
			log.Warn("record the answer's message", "interaction", i.ID, "err", redact(err, Secret(i.Token)))
		}
	}
	if e := r.Edit; e != nil {
		data := editData(e)
		edit := &discordgo.MessageEdit{
			ID: e.MessageID, Channel: e.ChannelID,
			Embeds: &data.Embeds, Components: &data.Components, AllowedMentions: data.AllowedMentions,
		}
		if e.Content != "" {
			edit.Content = &data.Content
		}
		if _, err := s.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx)); err != nil {
			log.Warn("edit message", "channel", e.ChannelID, "message", e.MessageID, "err", err)
		}
	}
	for _, p := range r.Posts {
		err := SessionPoster{Session: s}.Post(ctx, p.ChannelID, p.Message)
		if err == nil {
			continue
		}
		log.Warn("post in another channel", "interaction", i.ID, "channel", p.ChannelID, "err", err)
		if p.Failed != "" {
			r.Followups = append(r.Followups, kit.Response{Content: p.Failed, Ephemeral: true})
		}
	}
	for _, f := range r.Followups {
		data := InteractionResponse(f).Data
		params := &discordgo.WebhookParams{
			Content: data.Content, Embeds: data.Embeds, Components: data.Components, Files: data.Files,
			AllowedMentions: data.AllowedMentions, Flags: data.Flags,
		}
		if _, err := s.FollowupMessageCreate(i, false, params, discordgo.WithContext(ctx)); err != nil {
			log.Warn("send follow-up", "interaction", i.ID, "err", redact(err, Secret(i.Token)))
		}
	}
}

// posted looks up the message the interaction's answer became and hands
// its ID to fn.
// Over the HTTP endpoint the answer leaves with the HTTP response, so
// Discord may not have made the message yet on the first try.
func posted(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, fn func(context.Context, string) error) error {
	var err error
	for try, wait := 0, 250*time.Millisecond; try < 3; try, wait = try+1, wait*2 {
		var m *discordgo.Message
		if m, err = s.InteractionResponse(i, discordgo.WithContext(ctx)); err == nil {
			return fn(ctx, m.ID)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return fmt.Errorf("get the original message: %w", err)
}

// editData is a message edit as Discord receives it, with the allowed
// mentions every message carries.
func editData(e *kit.MessageEdit) *discordgo.InteractionResponseData {
	return InteractionResponse(kit.Response{Type: kit.Message, Content: e.Content, Embeds: e.Embeds, Rows: e.Rows}).Data
}
