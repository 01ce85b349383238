package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/tablehand/tablehand/db"
)

// ChannelStore keeps the rule system chosen for each channel, and for each
// guild as the default of its channels.
type ChannelStore interface {
	// ChannelSystem returns the channel's setting, else its guild's, else
	// an error wrapping db.ErrNotFound.
	ChannelSystem(ctx context.Context, guildID, channelID string) (db.SystemSetting, error)
	SetSystem(ctx context.Context, s db.SystemSetting) error
}

var systemCommand = Command{
	Name:        "system",
	Description: "The rule system of this channel or server: what /init start runs",
	Options: []Option{
		{Type: SubCommand, Name: "set", Description: "Choose the rule system of this channel, or of the whole server (GM)", Options: []Option{
			{Type: String, Name: "name", Description: "The rule system", Required: true, Choices: systemChoices()},
			{Type: String, Name: "scope", Description: "This channel (default) or the whole server",
				Choices: []Choice{{Name: "channel", Value: "channel"}, {Name: "server", Value: "guild"}}},
		}},
		{Type: SubCommand, Name: "show", Description: "Show the rule system in force in this channel"},
	},
}

// registerSystem adds /system.
func (h *handlers) registerSystem(r *Router) {
	r.define(systemCommand)
	r.handle("system/set", h.systemSet, true)
	r.handle("system/show", h.systemShow, false)
}

// SystemResult is the console's `result` of /system: the system in force
// and where it was set ("channel", "guild", or "default" when nothing was).
type SystemResult struct {
	System string `json:"system"`
	Scope  string `json:"scope"`
}

func (h *handlers) systemSet(ctx context.Context, req *Request) (Response, error) {
	name := req.Options.String("name")
	known := false
	for _, s := range Systems {
		known = known || s == name
	}
	if !known {
		return Response{}, Errorf("there is no system named %q: use one of %v", name, Systems)
	}
	s := db.SystemSetting{GuildID: req.GuildID, ChannelID: req.ChannelID, System: name, SetBy: req.User.ID}
	where := "this channel"
	switch req.Options.String("scope") {
	case "", "channel":
	case "guild":
		s.ChannelID = ""
		where = "this server (channels with a system of their own keep it)"
	default:
		return Response{}, Errorf("scope is channel or guild, not %q", req.Options.String("scope"))
	}
	if err := h.Channels.SetSystem(ctx, s); err != nil {
		return Response{}, err
	}
	return Response{
		Content: fmt.Sprintf("The rule system of %s is now **%s**: /init start runs its fights.", where, name),
		Result:  SystemResult{System: name, Scope: s.Scope()},
	}, nil
}

func (h *handlers) systemShow(ctx context.Context, req *Request) (Response, error) {
	s, err := h.Channels.ChannelSystem(ctx, req.GuildID, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return Response{
			Content:   "No rule system is set here: fights run on the generic rules. A GM sets one with /system set.",
			Ephemeral: true,
			Result:    SystemResult{System: "generic", Scope: "default"},
		}, nil
	}
	if err != nil {
		return Response{}, err
	}
	where := "this channel"
	if s.Scope() == "guild" {
		where = "this server"
	}
	return Response{
		Content:   fmt.Sprintf("The rule system here is **%s**, set for %s by <@%s>.", s.System, where, s.SetBy),
		Ephemeral: true,
		Result:    SystemResult{System: s.System, Scope: s.Scope()},
	}, nil
}
