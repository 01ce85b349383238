package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Interaction types (Interaction.Type).
const (
	InteractionPing         = 1
	InteractionCommand      = 2 // APPLICATION_COMMAND
	InteractionComponent    = 3 // MESSAGE_COMPONENT
	InteractionAutocomplete = 4 // APPLICATION_COMMAND_AUTOCOMPLETE
	InteractionModalSubmit  = 5
)

// Application command option types (Option.Type).
const (
	OptionSubcommand      = 1
	OptionSubcommandGroup = 2
	OptionString          = 3
	OptionInteger         = 4
	OptionBoolean         = 5
	OptionUser            = 6
	OptionChannel         = 7
	OptionRole            = 8
	OptionMentionable     = 9
	OptionNumber          = 10
	OptionAttachment      = 11
)

// Component types (Interaction.ComponentType).
const (
	ComponentButton       = 2
	ComponentStringSelect = 3
)

// fixtureTime is every fixture's member.joined_at and message timestamp.
const fixtureTime = "2024-01-01T00:00:00.000000+00:00"

// defaultAppPermissions is what built interactions say the bot may do in
// the channel (view, send, embed links, read history, ...).
const defaultAppPermissions = "2248473465835073"

// User is a Discord user in an interaction fixture.
type User struct {
	ID         string
	Username   string
	GlobalName string // display name, "" for none
}

// Member is a user as a guild knows them: Nick is their nickname there,
// "" for none.
type Member struct {
	User User
	Nick string
}

// Option is one option of an invoked command, in Discord's wire form:
// a leaf with a Value, or a subcommand (group) with nested Options.
type Option struct {
	Name    string
	Type    int
	Value   any // string, int64, float64, bool, or an ID string for user/channel/role
	Focused bool
	Options []Option
}

// StringOpt is a string option.
func StringOpt(name, value string) Option {
	return Option{Name: name, Type: OptionString, Value: value}
}

// IntOpt is an integer option.
func IntOpt(name string, value int64) Option {
	return Option{Name: name, Type: OptionInteger, Value: value}
}

// NumberOpt is a number option.
func NumberOpt(name string, value float64) Option {
	return Option{Name: name, Type: OptionNumber, Value: value}
}

// BoolOpt is a boolean option.
func BoolOpt(name string, value bool) Option {
	return Option{Name: name, Type: OptionBoolean, Value: value}
}

// UserOpt is a user option holding the user's ID.
func UserOpt(name, userID string) Option { return Option{Name: name, Type: OptionUser, Value: userID} }

// ChannelOpt is a channel option holding the channel's ID.
func ChannelOpt(name, channelID string) Option {
	return Option{Name: name, Type: OptionChannel, Value: channelID}
}

// RoleOpt is a role option holding the role's ID.
func RoleOpt(name, roleID string) Option { return Option{Name: name, Type: OptionRole, Value: roleID} }

// Subcommand is an invoked subcommand with its options.
func Subcommand(name string, opts ...Option) Option {
	return Option{Name: name, Type: OptionSubcommand, Options: opts}
}

// SubcommandGroup is an invoked subcommand group holding one Subcommand.
func SubcommandGroup(name string, sub Option) Option {
	return Option{Name: name, Type: OptionSubcommandGroup, Options: []Option{sub}}
}

// Focus returns o marked as the focused option of an autocomplete.
func (o Option) Focus() Option {
	o.Focused = true
	return o
}

func (o Option) wire() map[string]any {
	m := map[string]any{"name": o.Name, "type": o.Type}
	if o.Type == OptionSubcommand || o.Type == OptionSubcommandGroup {
		opts := make([]map[string]any, 0, len(o.Options))
		for _, c := range o.Options {
			opts = append(opts, c.wire())
		}
		m["options"] = opts
		return m
	}
	m["value"] = o.Value
	if o.Focused {
		m["focused"] = true
	}
	return m
}

// Interaction is an interaction fixture. Build one with SlashCommand,
// Autocomplete or Component, change what the test needs, and send it with
// DispatchInteraction. It marshals to Discord's wire JSON.
type Interaction struct {
	ID, Token, AppID string
	Type             int
	// GuildID "" makes a DM interaction: "user" instead of "member".
	GuildID, ChannelID string
	User               User
	Nick               string   // member nickname
	Permissions        string   // member permissions, decimal string
	Roles              []string // member role IDs
	Locale             string

	// Application commands and autocomplete.
	CommandID   string
	Name        string
	CommandType int // 1 chat input
	Options     []Option
	// Resolved are the users the user options name, as data.resolved
	// carries them: each user, and in a guild their member (with Nick).
	Resolved []Member

	// Components.
	CustomID      string
	ComponentType int
	Values        []string // select menu values
	MessageID     string   // the message the component is on
}

// MarshalJSON renders the interaction as Discord sends it.
func (in Interaction) MarshalJSON() ([]byte, error) {
	user := wireUser(in.User)
	w := map[string]any{
		"id":              in.ID,
		"application_id":  in.AppID,
		"type":            in.Type,
		"token":           in.Token,
		"version":         1,
		"channel_id":      in.ChannelID,
		"locale":          in.Locale,
		"app_permissions": defaultAppPermissions,
		"entitlements":    []any{},
	}
	if in.GuildID != "" {
		roles := in.Roles
		if roles == nil {
			roles = []string{}
		}
		w["guild_id"] = in.GuildID
		w["guild_locale"] = "en-US"
		w["context"] = 0
		w["authorizing_integration_owners"] = map[string]string{"0": in.GuildID}
		w["member"] = map[string]any{
			"user": user, "roles": roles, "permissions": in.Permissions, "joined_at": fixtureTime,
			"nick": nilIfEmpty(in.Nick), "avatar": nil, "deaf": false, "mute": false, "flags": 0,
			"pending": false, "premium_since": nil, "communication_disabled_until": nil,
		}
	} else {
		w["context"] = 1
		w["user"] = user
	}
	switch in.Type {
	case InteractionCommand, InteractionAutocomplete:
		typ := in.CommandType
		if typ == 0 {
			typ = 1
		}
		data := map[string]any{"id": in.CommandID, "name": in.Name, "type": typ}
		if len(in.Options) > 0 {
			opts := make([]map[string]any, 0, len(in.Options))
			for _, o := range in.Options {
				opts = append(opts, o.wire())
			}
			data["options"] = opts
		}
		if in.GuildID != "" {
			data["guild_id"] = in.GuildID
		}
		if len(in.Resolved) > 0 {
			data["resolved"] = in.resolved()
		}
		w["data"] = data
	case InteractionComponent:
		data := map[string]any{"custom_id": in.CustomID, "component_type": in.ComponentType}
		if in.Values != nil {
			data["values"] = in.Values
		}
		w["data"] = data
		w["message"] = map[string]any{
			"id": in.MessageID, "type": 0, "channel_id": in.ChannelID, "content": "",
			"author":    map[string]any{"id": "0", "username": "bot", "discriminator": "0", "bot": true},
			"timestamp": fixtureTime, "edited_timestamp": nil, "tts": false, "mention_everyone": false,
			"mentions": []any{}, "mention_roles": []any{}, "attachments": []any{}, "embeds": []any{},
			"components": []any{}, "pinned": false, "flags": 0, "application_id": in.AppID,
		}
	case InteractionModalSubmit:
		w["data"] = map[string]any{"custom_id": in.CustomID, "components": []any{}}
	}
	return json.Marshal(w)
}

// resolved is data.resolved for in.Resolved: the users by ID and, in a
// guild, their members (which carry no user of their own).
func (in Interaction) resolved() map[string]any {
	users, members := map[string]any{}, map[string]any{}
	for _, m := range in.Resolved {
		users[m.User.ID] = wireUser(m.User)
		members[m.User.ID] = map[string]any{
			"roles": []string{}, "permissions": "0", "joined_at": fixtureTime, "nick": nilIfEmpty(m.Nick),
			"avatar": nil, "flags": 0, "pending": false, "premium_since": nil, "communication_disabled_until": nil,
		}
	}
	r := map[string]any{"users": users}
	if in.GuildID != "" {
		r["members"] = members
	}
	return r
}

// wireUser is u as Discord sends a user.
func wireUser(u User) map[string]any {
	return map[string]any{
		"id": u.ID, "username": u.Username, "discriminator": "0",
		"global_name": nilIfEmpty(u.GlobalName), "avatar": nil, "public_flags": 0,
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// newInteraction fills an interaction with fresh IDs and the defaults.
func (s *Server) newInteraction(typ int) Interaction {
	id := s.newID()
	guild := DefaultGuildID
	if len(s.opts.GuildIDs) > 0 {
		guild = s.opts.GuildIDs[0]
	}
	return Interaction{
		ID:          id,
		Token:       "fake-token-" + id,
		AppID:       s.opts.AppID,
		Type:        typ,
		GuildID:     guild,
		ChannelID:   s.opts.ChannelID,
		User:        s.opts.User,
		Permissions: DefaultPermissions,
		Roles:       []string{},
		Locale:      "en-US",
	}
}

// SlashCommand builds a chat-input command interaction in the first guild,
// invoked by Options.User in Options.ChannelID. The subcommand form is
// SlashCommand("init", Subcommand("next", IntOpt("count", 2))). The
// command ID is the one a bulk overwrite gave the name, else a fresh one.
func (s *Server) SlashCommand(name string, opts ...Option) Interaction {
	in := s.newInteraction(InteractionCommand)
	in.Name, in.CommandType, in.Options = name, 1, opts
	in.CommandID = s.commandID(in.GuildID, name)
	if in.CommandID == "" {
		in.CommandID = s.newID()
	}
	return in
}

// Autocomplete builds an autocomplete interaction; mark the option being
// typed with Focus: Autocomplete("roll", StringOpt("expr", "2d").Focus()).
func (s *Server) Autocomplete(name string, opts ...Option) Interaction {
	in := s.SlashCommand(name, opts...)
	in.Type = InteractionAutocomplete
	return in
}

// Component builds a button press on a message the fake creates at
// dispatch; with values it is a string select instead.
func (s *Server) Component(customID string, values ...string) Interaction {
	in := s.newInteraction(InteractionComponent)
	in.CustomID, in.ComponentType, in.MessageID = customID, ComponentButton, s.newID()
	if len(values) > 0 {
		in.ComponentType, in.Values = ComponentStringSelect, values
	}
	return in
}

// DispatchInteraction sends the interaction as an INTERACTION_CREATE
// dispatch and starts accepting its callback.
func (s *Server) DispatchInteraction(in Interaction) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode interaction %s: %w", in.ID, err)
	}
	return s.DispatchInteractionJSON(raw)
}

// DispatchInteractionJSON sends raw as an INTERACTION_CREATE dispatch
// (for shapes the builders don't make) and starts accepting its callback.
// raw must have "id" and "token".
func (s *Server) DispatchInteractionJSON(raw json.RawMessage) error {
	if err := s.AddInteractionJSON(raw); err != nil {
		return err
	}
	return s.Dispatch("INTERACTION_CREATE", raw)
}

// AddInteraction makes the fake accept callbacks for an interaction it did
// not dispatch (for REST-only tests).
func (s *Server) AddInteraction(in Interaction) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode interaction %s: %w", in.ID, err)
	}
	return s.AddInteractionJSON(raw)
}

// AddInteractionJSON is AddInteraction for raw JSON.
func (s *Server) AddInteractionJSON(raw json.RawMessage) error {
	var in struct {
		ID        string `json:"id"`
		Token     string `json:"token"`
		Type      int    `json:"type"`
		ChannelID string `json:"channel_id"`
		Message   *struct {
			ID string `json:"id"`
		} `json:"message"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return fmt.Errorf("decode interaction: %w", err)
	}
	if in.ID == "" || in.Token == "" {
		return errors.New("interaction needs an id and a token")
	}
	st := &interactionState{id: in.ID, token: in.Token, channelID: in.ChannelID, typ: in.Type, dispatched: time.Now()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in.Message != nil && in.Message.ID != "" {
		st.componentMessage = in.Message.ID
		if s.messages[in.Message.ID] == nil {
			id := s.storeMessageLocked(in.ChannelID, messageTypeDefault, nil)
			m := s.messages[id]
			delete(s.messages, id)
			m["id"] = in.Message.ID
			s.messages[in.Message.ID] = m
		}
	}
	s.interaction[in.ID] = st
	s.byToken[in.Token] = st
	return nil
}
