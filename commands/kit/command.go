package kit

// OptionType is the type of a command option, numbered as Discord numbers
// them so the edge can convert without a table.
type OptionType int

// Option types, as Discord's APPLICATION_COMMAND_OPTION_TYPE.
const (
	SubCommand      OptionType = 1
	SubCommandGroup OptionType = 2
	String          OptionType = 3
	Integer         OptionType = 4
	Boolean         OptionType = 5
	UserOption      OptionType = 6
	ChannelOption   OptionType = 7
	RoleOption      OptionType = 8
	Number          OptionType = 10
)

func (t OptionType) String() string {
	switch t {
	case SubCommand:
		return "subcommand"
	case SubCommandGroup:
		return "subcommand group"
	case String:
		return "text"
	case Integer:
		return "integer"
	case Boolean:
		return "true/false"
	case UserOption:
		return "user"
	case ChannelOption:
		return "channel"
	case RoleOption:
		return "role"
	case Number:
		return "number"
	}
	return "unknown"
}

// Command is the definition of one top-level slash command.
type Command struct {
	Name        string
	Description string
	Options     []Option
	// GMOnly hides the command from members without Manage Channels in
	// Discord's client (default_member_permissions). The router enforces the
	// GM check on its own as well: a server admin can override what the
	// client shows.
	GMOnly bool
}

// Option is one option, subcommand or subcommand group of a command.
type Option struct {
	Type         OptionType
	Name         string
	Description  string
	Required     bool
	Autocomplete bool
	Choices      []Choice
	MinValue     *float64
	MaxValue     *float64
	MaxLength    int
	Options      []Option // for subcommands and groups
}

// Choice is one fixed choice of an option, or one autocomplete suggestion.
type Choice struct {
	Name  string
	Value any // string, int64 or float64, as the option's type
}

// Float returns a pointer to v, for MinValue and MaxValue.
func Float(v float64) *float64 { return &v }

// Leaf walks path (the subcommand names after the command's own) and returns
// the options of the subcommand it names, or of the command itself when path
// is empty. ok is false when a name in path is not a subcommand or group.
func (c *Command) Leaf(path []string) (opts []Option, ok bool) {
	opts = c.Options
	for _, name := range path {
		found := false
		for _, o := range opts {
			if o.Name == name && (o.Type == SubCommand || o.Type == SubCommandGroup) {
				opts, found = o.Options, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return opts, true
}

// HasSubcommands reports whether opts are subcommands or groups rather than
// values: a command with subcommands cannot itself be invoked.
func HasSubcommands(opts []Option) bool {
	return len(opts) > 0 && (opts[0].Type == SubCommand || opts[0].Type == SubCommandGroup)
}

// LeafNames lists the invocable subcommands under opts, those of groups
// included, by their path after prefix: "roll", "asset add".
func LeafNames(opts []Option, prefix string) []string {
	var out []string
	for _, o := range opts {
		switch o.Type {
		case SubCommandGroup:
			out = append(out, LeafNames(o.Options, prefix+o.Name+" ")...)
		case SubCommand:
			out = append(out, prefix+o.Name)
		}
	}
	return out
}
