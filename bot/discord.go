// Package bot holds Tablehand's edges: the Discord gateway session, the
// console, and (later) the HTTP interactions endpoint and the scheduler. It
// is the only package that knows discordgo; it turns Discord's interactions
// into kit.Request values and kit.Response values back into
// Discord's wire format.
package bot

import (
	"bytes"
	"math"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/commands/kit"
)

// ApplicationCommands converts command definitions into the array that a
// bulk overwrite sends. `tablehand commands` prints exactly this.
func ApplicationCommands(defs []kit.Command) []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, 0, len(defs))
	for _, c := range defs {
		ac := &discordgo.ApplicationCommand{
			Type:        discordgo.ChatApplicationCommand,
			Name:        c.Name,
			Description: c.Description,
			Options:     options(c.Options),
			Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
		}
		if c.GMOnly {
			perm := kit.ManageChannels
			ac.DefaultMemberPermissions = &perm
			ac.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
		}
		out = append(out, ac)
	}
	return out
}

func options(opts []kit.Option) []*discordgo.ApplicationCommandOption {
	out := make([]*discordgo.ApplicationCommandOption, 0, len(opts))
	for _, o := range opts {
		ao := &discordgo.ApplicationCommandOption{
			Type:         discordgo.ApplicationCommandOptionType(o.Type),
			Name:         o.Name,
			Description:  o.Description,
			Required:     o.Required,
			Autocomplete: o.Autocomplete,
			MinValue:     o.MinValue,
			MaxLength:    o.MaxLength,
		}
		if o.MaxValue != nil {
			ao.MaxValue = *o.MaxValue
		}
		if len(o.Options) > 0 {
			ao.Options = options(o.Options)
		}
		for _, ch := range o.Choices {
			ao.Choices = append(ao.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch.Name, Value: ch.Value})
		}
		out = append(out, ao)
	}
	return out
}

// mentions allows pinging only the listed users, and nobody when there are
// none: user-supplied text (names, labels) must never ping @everyone, a role
// or a user. Set on every message.
func mentions(users []string) *discordgo.MessageAllowedMentions {
	am := &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
	if len(users) > 0 {
		am.Users = users
	}
	return am
}

// InteractionResponse converts a handler's response into what Discord
// receives as the interaction callback. The console prints exactly this.
func InteractionResponse(r kit.Response) *discordgo.InteractionResponse {
	if r.Type == kit.Autocomplete {
		choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(r.Choices))
		for _, c := range r.Choices {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value})
		}
		return &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		}
	}
	data := &discordgo.InteractionResponseData{
		Content:         r.Content,
		AllowedMentions: mentions(r.MentionUsers),
		Embeds:          embeds(r.Embeds),
		Components:      components(r.Rows),
	}
	if r.Ephemeral {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	for _, f := range r.Files {
		data.Files = append(data.Files, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)})
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseType(r.Type), Data: data}
}

func embeds(in []kit.Embed) []*discordgo.MessageEmbed {
	out := make([]*discordgo.MessageEmbed, 0, len(in))
	for _, e := range in {
		me := &discordgo.MessageEmbed{Title: e.Title, Description: e.Description, Color: e.Color}
		if e.Image != "" {
			me.Image = &discordgo.MessageEmbedImage{URL: e.Image}
		}
		if e.Footer != "" {
			me.Footer = &discordgo.MessageEmbedFooter{Text: e.Footer}
		}
		for _, f := range e.Fields {
			me.Fields = append(me.Fields, &discordgo.MessageEmbedField{Name: f.Name, Value: f.Value, Inline: f.Inline})
		}
		out = append(out, me)
	}
	return out
}

func components(rows []kit.Row) []discordgo.MessageComponent {
	out := make([]discordgo.MessageComponent, 0, len(rows))
	for _, row := range rows {
		ar := discordgo.ActionsRow{}
		for _, b := range row {
			ar.Components = append(ar.Components, discordgo.Button{
				Label: b.Label, Style: discordgo.ButtonStyle(b.Style), CustomID: b.CustomID, Disabled: b.Disabled,
			})
		}
		out = append(out, ar)
	}
	return out
}

// Request converts a Discord interaction into a handler's request.
func Request(i *discordgo.Interaction) *kit.Request {
	req := &kit.Request{GuildID: i.GuildID, ChannelID: i.ChannelID}
	switch {
	case i.Member != nil && i.Member.User != nil:
		req.User = kit.User{ID: i.Member.User.ID, Name: memberName(i.Member)}
		req.Permissions = i.Member.Permissions
		req.Roles = i.Member.Roles
	case i.User != nil:
		req.User = kit.User{ID: i.User.ID, Name: userName(i.User)}
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		req.Kind = kit.KindCommand
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			req.Kind = kit.KindAutocomplete
		}
		data := i.ApplicationCommandData()
		path := []string{data.Name}
		opts := data.Options
		// Walk down subcommand groups and subcommands to the leaf's values.
		for len(opts) == 1 && opts[0] != nil && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			path = append(path, opts[0].Name)
			opts = opts[0].Options
		}
		req.Path = strings.Join(path, "/")
		req.Resolved = resolvedUsers(data.Resolved)
		req.Options = kit.Options{}
		for _, o := range opts {
			if o == nil { // a malformed payload: nothing to read
				continue
			}
			req.Options[o.Name] = optionValue(o)
			if o.Focused {
				req.Focused = o.Name
			}
		}
	case discordgo.InteractionMessageComponent:
		req.Kind = kit.KindComponent
		req.CustomID = i.MessageComponentData().CustomID
		req.Options = kit.Options{}
	}
	return req
}

// optionValue returns an option's value as kit.Options holds it.
// discordgo decodes JSON numbers as float64; integer options become int64.
// A value of another type is kept as it is, for the router to refuse.
func optionValue(o *discordgo.ApplicationCommandInteractionDataOption) any {
	switch o.Type {
	case discordgo.ApplicationCommandOptionInteger:
		// A fraction, or a number beyond what Discord allows, stays a
		// float64, which the router refuses for an integer option.
		if f, ok := o.Value.(float64); ok && f == math.Trunc(f) && math.Abs(f) <= kit.MaxInteger {
			return int64(f)
		}
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionChannel,
		discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionMentionable:
		if s, ok := o.Value.(string); ok {
			return s
		}
	}
	return o.Value
}

// resolvedUsers are the users Discord resolved for the user options,
// each with the name they show on the server (the resolved member's nick,
// else their own name), in the order of their IDs.
func resolvedUsers(r *discordgo.ApplicationCommandInteractionDataResolved) []kit.User {
	if r == nil || len(r.Users) == 0 {
		return nil
	}
	out := make([]kit.User, 0, len(r.Users))
	for id, u := range r.Users {
		if u == nil {
			continue
		}
		name := userName(u)
		if m := r.Members[id]; m != nil && m.Nick != "" {
			name = m.Nick
		}
		out = append(out, kit.User{ID: id, Name: name})
	}
	slices.SortFunc(out, func(a, b kit.User) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func memberName(m *discordgo.Member) string {
	if m.Nick != "" {
		return m.Nick
	}
	return userName(m.User)
}

func userName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}
