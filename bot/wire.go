package bot

import (
	"encoding/json"
	"errors"

	"github.com/bwmarrin/discordgo"
)

// wireInteraction is the part of an incoming interaction that Tablehand
// reads, as the HTTP endpoint decodes it. discordgo's
// Interaction.UnmarshalJSON scans the payload twice (the envelope, then
// data by the interaction's type) and decodes every field of the member,
// message and entitlements; decoding only these fields in one pass costs a
// third as much, and JSON decoding was the endpoint's largest cost after
// the signature check and the roll log.
type wireInteraction struct {
	ID        string                    `json:"id"`
	AppID     string                    `json:"application_id"`
	Type      discordgo.InteractionType `json:"type"`
	Token     string                    `json:"token"`
	GuildID   string                    `json:"guild_id"`
	ChannelID string                    `json:"channel_id"`
	Member    *wireMember               `json:"member"`
	User      *wireUser                 `json:"user"`
	Data      *wireData                 `json:"data"`
	Locale    discordgo.Locale          `json:"locale"`
}

type wireMember struct {
	User        *wireUser `json:"user"`
	Nick        string    `json:"nick"`
	Permissions int64     `json:"permissions,string"`
	Roles       []string  `json:"roles"`
}

type wireUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

func (u *wireUser) user() *discordgo.User {
	if u == nil {
		return nil
	}
	return &discordgo.User{ID: u.ID, Username: u.Username, GlobalName: u.GlobalName}
}

// wireResolved is the part of data.resolved Request reads: the users a
// command's user options name, and their members' nicks.
type wireResolved struct {
	Users   map[string]*wireUser `json:"users"`
	Members map[string]*struct {
		Nick string `json:"nick"`
	} `json:"members"`
}

// resolved is r as discordgo holds it, nil when there is none.
func (r *wireResolved) resolved() *discordgo.ApplicationCommandInteractionDataResolved {
	if r == nil || len(r.Users) == 0 {
		return nil
	}
	out := &discordgo.ApplicationCommandInteractionDataResolved{Users: make(map[string]*discordgo.User, len(r.Users))}
	for id, u := range r.Users {
		out.Users[id] = u.user()
	}
	for id, m := range r.Members {
		if m != nil {
			if out.Members == nil {
				out.Members = map[string]*discordgo.Member{}
			}
			out.Members[id] = &discordgo.Member{Nick: m.Nick}
		}
	}
	return out
}

// wireData holds the fields of both kinds of data Tablehand answers: an
// application command's (and its autocomplete's), and a component's.
type wireData struct {
	ID       string                                               `json:"id"`
	Name     string                                               `json:"name"`
	Type     discordgo.ApplicationCommandType                     `json:"type"`
	Options  []*discordgo.ApplicationCommandInteractionDataOption `json:"options"`
	TargetID string                                               `json:"target_id"`
	Resolved *wireResolved                                        `json:"resolved"`

	CustomID      string                  `json:"custom_id"`
	ComponentType discordgo.ComponentType `json:"component_type"`
	Values        []string                `json:"values"`
}

// decodeInteraction decodes an interaction body into the discordgo value
// the rest of the edge works with, holding every field that Request, the
// follow-ups (application ID and token) and the logs use.
func decodeInteraction(body []byte) (*discordgo.Interaction, error) {
	var w wireInteraction
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	i := &discordgo.Interaction{
		ID: w.ID, AppID: w.AppID, Type: w.Type, Token: w.Token,
		GuildID: w.GuildID, ChannelID: w.ChannelID, Locale: w.Locale,
		User: w.User.user(),
	}
	if m := w.Member; m != nil {
		i.Member = &discordgo.Member{User: m.User.user(), Nick: m.Nick, Permissions: m.Permissions, Roles: m.Roles}
	}
	d := w.Data
	if d == nil {
		if w.Type != discordgo.InteractionPing && w.Type != discordgo.InteractionModalSubmit {
			return nil, errors.New("interaction without data") // discordgo's own decoder refuses these too
		}
		return i, nil
	}
	switch w.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		i.Data = discordgo.ApplicationCommandInteractionData{
			ID: d.ID, Name: d.Name, CommandType: d.Type, Options: d.Options, TargetID: d.TargetID,
			Resolved: d.Resolved.resolved(),
		}
	case discordgo.InteractionMessageComponent:
		i.Data = discordgo.MessageComponentInteractionData{
			CustomID: d.CustomID, ComponentType: d.ComponentType, Values: d.Values,
		}
	}
	return i, nil
}
