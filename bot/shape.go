package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// errShape is wrapped by what checkShape returns.
var errShape = errors.New("an interaction Discord would not send")

// MaxCustomID is the longest custom_id Discord allows a component.
const MaxCustomID = 100

// checkShape refuses an interaction whose IDs and text Discord would never
// send, before anything runs: every ID a snowflake, a user behind it (a
// member's in a guild, a user's in a DM), no NUL byte in any text. The
// options' values are held to their definitions by the router
// (kit.Router.Validate). The error names the field, never its value.
func checkShape(i *discordgo.Interaction) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errShape, fmt.Sprintf(format, args...))
	}
	if !isSnowflake(i.ID) {
		return bad("id is not a snowflake")
	}
	if i.AppID != "" && !isSnowflake(i.AppID) {
		return bad("application_id is not a snowflake")
	}
	if !isSnowflake(i.ChannelID) {
		return bad("channel_id is missing or not a snowflake")
	}
	if i.GuildID != "" && !isSnowflake(i.GuildID) {
		return bad("guild_id is not a snowflake")
	}
	var u *discordgo.User
	switch {
	case i.Member != nil:
		u = i.Member.User
		if strings.ContainsRune(i.Member.Nick, 0) {
			return bad("member.nick holds a NUL byte")
		}
		for _, r := range i.Member.Roles {
			if !isSnowflake(r) {
				return bad("member.roles holds an ID that is not a snowflake")
			}
		}
	case i.User != nil:
		u = i.User
	}
	if u == nil {
		return bad("neither member.user nor user is given")
	}
	if !isSnowflake(u.ID) {
		return bad("the user's id is missing or not a snowflake")
	}
	if strings.ContainsRune(u.Username, 0) || strings.ContainsRune(u.GlobalName, 0) {
		return bad("the user's name holds a NUL byte")
	}
	switch d := i.Data.(type) {
	case discordgo.ApplicationCommandInteractionData:
		if d.Name == "" || strings.ContainsRune(d.Name, 0) {
			return bad("data.name is empty or holds a NUL byte")
		}
		if d.TargetID != "" && !isSnowflake(d.TargetID) {
			return bad("data.target_id is not a snowflake")
		}
		return checkOptionShapes(d.Options, bad)
	case discordgo.MessageComponentInteractionData:
		if n := len(d.CustomID); n == 0 || n > MaxCustomID || strings.ContainsRune(d.CustomID, 0) {
			return bad("data.custom_id is empty, longer than %d or holds a NUL byte", MaxCustomID)
		}
		for _, v := range d.Values {
			if strings.ContainsRune(v, 0) {
				return bad("data.values holds a NUL byte")
			}
		}
	}
	return nil
}

// checkOptionShapes checks the names of options at every level, and the
// values whose shape does not depend on the command: no NUL in text, a
// snowflake for a user, channel, role or mentionable.
func checkOptionShapes(opts []*discordgo.ApplicationCommandInteractionDataOption, bad func(string, ...any) error) error {
	for _, o := range opts {
		if o == nil {
			return bad("data.options holds null")
		}
		if o.Name == "" || strings.ContainsRune(o.Name, 0) {
			return bad("an option's name is empty or holds a NUL byte")
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			if err := checkOptionShapes(o.Options, bad); err != nil {
				return err
			}
		case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionChannel,
			discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionMentionable:
			if s, ok := o.Value.(string); !ok || !isSnowflake(s) {
				return bad("option %s is not a snowflake", o.Name)
			}
		default:
			if s, ok := o.Value.(string); ok && strings.ContainsRune(s, 0) {
				return bad("option %s holds a NUL byte", o.Name)
			}
		}
	}
	return nil
}

// isSnowflake reports whether s is a Discord ID: a decimal uint64 without
// a sign or leading zeros.
func isSnowflake(s string) bool {
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64) // base 10: no sign, no underscores
	return err == nil
}
