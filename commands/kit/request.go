package kit

import (
	"math"
	"strconv"
	"strings"
)

// Kind says what the user did to cause a request.
type Kind int

// Request kinds.
const (
	KindCommand      Kind = iota + 1 // a slash command
	KindAutocomplete                 // typing in an option with autocomplete
	KindComponent                    // a click on a button or a select menu
)

// ManageChannels is Discord's MANAGE_CHANNELS permission bit: a member who
// holds it in the channel is a GM for Tablehand.
const ManageChannels int64 = 1 << 4

// User is the person behind a request.
type User struct {
	ID string
	// Name is the name they show on the server: their nick there, else
	// their global name, else their username.
	Name string
}

// Request is one interaction, in Tablehand's own terms.
type Request struct {
	Kind Kind
	// Path is the command and its subcommands joined by "/": "roll",
	// "init/next", "faction/asset/add".
	Path    string
	Options Options
	// Focused names the option being typed, for autocomplete.
	Focused string
	// CustomID is the custom_id of the clicked component.
	CustomID string

	User User
	// Resolved are the people the request's user options name, each with
	// the name they show on the server (Discord's resolved users and
	// members; the console names each by what was typed).
	Resolved  []User
	GuildID   string
	ChannelID string
	// Permissions are the member's resolved permissions in the channel.
	Permissions int64
	Roles       []string
	// GM is set by the router: the member has Manage Channels or a
	// configured GM role.
	GM bool
	// SeenAll: the user had read the answer to every request before
	// this one, as with the console's lines, typed one after another
	// (bot.Console). On Discord two people type at once, and a request
	// may follow one its user has not seen: /init next then asks before
	// it ends a turn someone else started a moment ago.
	SeenAll bool
	// checked says Router.Validate held the options to their definition
	// already: Handle does not check them again.
	checked bool
}

// Command returns the top-level command name of the request's path.
func (r *Request) Command() string {
	name, _, _ := strings.Cut(r.Path, "/")
	return name
}

// Typed returns the request's path as the user types the command,
// without the slash: "burst roll", "faction asset add".
func (r *Request) Typed() string { return strings.ReplaceAll(r.Path, "/", " ") }

// Options holds a command's option values by name: string, int64, bool or
// float64, as the option's type.
type Options map[string]any

// String returns the text option name, or "" when it is absent.
func (o Options) String(name string) string {
	s, _ := o[name].(string)
	return s
}

// Int returns the integer option name and whether it was given.
func (o Options) Int(name string) (int64, bool) {
	switch v := o[name].(type) {
	case int64:
		return v, true
	case float64:
		return int64(v), true
	}
	return 0, false
}

// Bool returns the boolean option name, false when it is absent.
func (o Options) Bool(name string) bool {
	b, _ := o[name].(bool)
	return b
}

// Has reports whether the option was given.
func (o Options) Has(name string) bool {
	_, ok := o[name]
	return ok
}

// ParseValue converts text typed for an option into the option's Go value,
// for the console and for tests. A mistake is a *UserError.
func ParseValue(opt Option, text string) (any, error) {
	switch opt.Type {
	case Integer:
		v, err := strconv.ParseInt(strings.TrimPrefix(text, "+"), 10, 64)
		if err != nil {
			return nil, Errorf("option %s needs a whole number, not %q (example: %s:3)", opt.Name, text, opt.Name)
		}
		return v, nil
	case Number:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, Errorf("option %s needs a number, not %q (example: %s:1.5)", opt.Name, text, opt.Name)
		}
		return v, nil
	case Boolean:
		switch strings.ToLower(text) {
		case "true", "yes", "y", "1", "on":
			return true, nil
		case "false", "no", "n", "0", "off":
			return false, nil
		}
		return nil, Errorf("option %s needs true or false, not %q (example: %s:true)", opt.Name, text, opt.Name)
	}
	return text, nil
}
