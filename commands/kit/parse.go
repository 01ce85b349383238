package kit

import (
	"strings"
)

// ParseLine reads a command typed as in Discord's message box, for the
// console and for tests: `/roll expression:4d6kh3 dice:6,5,2,4`,
// subcommands as words (`/init add name:Goblin`), values with spaces in
// double quotes (`name:"Red Goblin"`), and the first required option given
// bare (`/roll 4d6kh3`; several bare words are joined with spaces, so
// `/roll 1d20 + 5` works too). It fills Kind, Path and Options; the caller
// sets who sent it and where. A mistake is a *UserError.
func (r *Router) ParseLine(line string) (*Request, error) {
	return r.parseLine(line, false)
}

// ParseAutocomplete reads a command being typed, as ParseLine does, into an
// autocomplete request: the last option written is the focused one, and
// required options may still be missing.
func (r *Router) ParseAutocomplete(line string) (*Request, error) {
	req, err := r.parseLine(line, true)
	if err != nil {
		return nil, err
	}
	if req.Focused == "" {
		return nil, Errorf("autocomplete needs an option being typed, e.g. complete /roll expression:1d2")
	}
	req.Kind = KindAutocomplete
	return req, nil
}

func (r *Router) parseLine(line string, partial bool) (*Request, error) {
	words, err := SplitWords(line)
	if err != nil {
		return nil, err
	}
	path, opts, words, err := r.parsePath(words)
	if err != nil {
		return nil, err
	}
	req := &Request{Kind: KindCommand, Path: strings.Join(path, "/"), Options: Options{}}
	if err := req.parseOptions(path, opts, words); err != nil {
		return nil, err
	}
	if !partial {
		req.Focused = ""
	}
	// A user option names someone by what was typed: the console's users
	// are their names.
	for _, o := range opts {
		if v := req.Options.String(o.Name); o.Type == UserOption && v != "" {
			req.Resolved = append(req.Resolved, User{ID: v, Name: v})
		}
	}
	for _, o := range opts {
		if o.Required && !req.Options.Has(o.Name) && !partial {
			return nil, Errorf("/%s needs %s: e.g. /%s %s", strings.Join(path, " "), o.Name, strings.Join(path, " "), example(opts))
		}
	}
	return req, nil
}

// parsePath reads the command and its subcommands off the front of words:
// the path, the options of the subcommand it names, and the words left.
func (r *Router) parsePath(words []string) (path []string, opts []Option, rest []string, err error) {
	if len(words) == 0 || !strings.HasPrefix(words[0], "/") || len(words[0]) < 2 {
		return nil, nil, nil, Errorf("a command starts with / and its name, e.g. /roll 1d20+5")
	}
	name := strings.ToLower(words[0][1:])
	words = words[1:]
	cmd, ok := r.Command(name)
	if !ok {
		return nil, nil, nil, Errorf("unknown command /%s: try /help for the list", name)
	}
	path = []string{name}
	opts = cmd.Options
	for HasSubcommands(opts) {
		if len(words) == 0 || strings.Contains(words[0], ":") {
			return nil, nil, nil, Errorf("/%s needs one of: %s (e.g. /%s %s)", strings.Join(path, " "), optionNames(opts), strings.Join(path, " "), opts[0].Name)
		}
		sub := strings.ToLower(words[0])
		next, ok := cmd.Leaf(append(path[1:], sub))
		if !ok {
			return nil, nil, nil, Errorf("/%s has no subcommand %q: use one of %s", strings.Join(path, " "), sub, optionNames(opts))
		}
		path, opts, words = append(path, sub), next, words[1:]
	}
	return path, opts, words, nil
}

// parseOptions reads words as the values of opts: name:value, and bare
// words as the first required option's. The last option written is the
// focused one.
func (req *Request) parseOptions(path []string, opts []Option, words []string) error {
	var bare []string
	for _, w := range words {
		key, val, isOpt := strings.Cut(w, ":")
		if isOpt {
			if o, ok := findOption(opts, strings.ToLower(key)); ok {
				if req.Options.Has(o.Name) {
					return Errorf("option %s is given twice", o.Name)
				}
				v, err := ParseValue(o, val)
				if err != nil {
					return err
				}
				req.Options[o.Name] = v
				req.Focused = o.Name
				continue
			}
		}
		bare = append(bare, w)
	}
	if len(bare) == 0 {
		return nil
	}
	first, ok := firstRequired(opts)
	if !ok || req.Options.Has(first.Name) {
		return Errorf("unexpected %q: options are written name:value, e.g. /%s %s", bare[0], strings.Join(path, " "), example(opts))
	}
	v, err := ParseValue(first, strings.Join(bare, " "))
	if err != nil {
		return err
	}
	req.Options[first.Name] = v
	req.Focused = first.Name
	return nil
}

// SplitWords splits a line on spaces, keeping double-quoted runs together
// (the quotes themselves are dropped; \" is a literal quote).
func SplitWords(line string) ([]string, error) {
	var words []string
	var b strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && quoted && i+1 < len(line) && line[i+1] == '"':
			b.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
			inWord = true
		case (c == ' ' || c == '\t') && !quoted:
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, Errorf(`a quote is not closed: write values with spaces as name:"Red Goblin"`)
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, nil
}

func findOption(opts []Option, name string) (Option, bool) {
	for _, o := range opts {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// firstRequired is the option bare words fill: the first required one, or
// when none is required a first option that takes text (/help roll).
func firstRequired(opts []Option) (Option, bool) {
	for _, o := range opts {
		if o.Required {
			return o, true
		}
	}
	if len(opts) > 0 && opts[0].Type == String {
		return opts[0], true
	}
	return Option{}, false
}

func optionNames(opts []Option) string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// exampleWith writes the required options of opts as name:<type>, with
// the option named name (required or not) as name:val.
func exampleWith(opts []Option, name, val string) string {
	var parts []string
	for _, o := range opts {
		switch {
		case o.Name == name:
			parts = append(parts, o.Name+":"+val)
		case o.Required:
			parts = append(parts, o.Name+":<"+o.Type.String()+">")
		}
	}
	return strings.Join(parts, " ")
}

// example writes the required options of opts as name:<type>.
func example(opts []Option) string {
	var parts []string
	for _, o := range opts {
		if o.Required {
			parts = append(parts, o.Name+":<"+o.Type.String()+">")
		}
	}
	if len(parts) == 0 && len(opts) > 0 {
		parts = append(parts, opts[0].Name+":<"+opts[0].Type.String()+">")
	}
	return strings.Join(parts, " ")
}
