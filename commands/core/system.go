package core

import (
	"context"
	"errors"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// systemCommand is /system, whose name: chooses among systems.
func systemCommand(systems []kit.System) kit.Command {
	return kit.Command{
		Name:        "system",
		Description: "The rule system of this channel or server: what /init start runs",
		Options: []kit.Option{
			{Type: kit.SubCommand, Name: "set", Description: "Choose the rule system of this channel, or of the whole server (GM)", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "The rule system", Required: true, Choices: kit.SystemChoices(systems)},
				{Type: kit.String, Name: "scope", Description: "This channel (default) or the whole server",
					Choices: []kit.Choice{{Name: "channel", Value: "channel"}, {Name: "server", Value: "guild"}}},
			}},
			{Type: kit.SubCommand, Name: "show", Description: "Show the rule system in force in this channel"},
		},
	}
}

// registerSystem adds /system.
func (h *handlers) registerSystem(r *kit.Router) {
	r.Define(systemCommand(h.Systems))
	r.Route("system/set", h.systemSet, true)
	r.Route("system/show", h.systemShow, false)
}

// SystemResult is the console's `result` of /system: the system in force
// and where it was set ("channel", "guild", or "default" when nothing was).
type SystemResult struct {
	System string `json:"system"`
	Scope  string `json:"scope"`
}

func (h *handlers) systemSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name := req.Options.String("name")
	if _, known := h.SystemNamed(name); !known {
		return kit.Response{}, kit.Errorf("there is no system named %q: use one of %v", name, h.SystemNames())
	}
	s := db.SystemSetting{GuildID: req.GuildID, ChannelID: req.ChannelID, System: name, SetBy: req.User.ID}
	where := "this channel"
	switch req.Options.String("scope") {
	case "", "channel":
	case "guild":
		s.ChannelID = ""
		where = "this server (channels with a system of their own keep it)"
	default:
		return kit.Response{}, kit.Errorf("scope is channel or guild, not %q", req.Options.String("scope"))
	}
	if err := h.Channels.SetSystem(ctx, s); err != nil {
		return kit.Response{}, err
	}
	return kit.Response{
		Content: fmt.Sprintf("The rule system of %s is now **%s**: /init start runs its fights.", where, name),
		Result:  SystemResult{System: name, Scope: s.Scope()},
	}, nil
}

func (h *handlers) systemShow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	s, err := h.Channels.ChannelSystem(ctx, req.GuildID, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{
			Content:   "No rule system is set here: fights run on the generic rules. A GM sets one with /system set.",
			Ephemeral: true,
			Result:    SystemResult{System: "generic", Scope: "default"},
		}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	where := "this channel"
	if s.Scope() == "guild" {
		where = "this server"
	}
	return kit.Response{
		Content:   fmt.Sprintf("The rule system here is **%s**, set for %s by <@%s>.", s.System, where, s.SetBy),
		Ephemeral: true,
		Result:    SystemResult{System: s.System, Scope: s.Scope()},
	}, nil
}
