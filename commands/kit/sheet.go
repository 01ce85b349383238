package kit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// CharacterOption is the `character:` option of every rules command: read
// stats from the sheet instead of typing them. Options typed explicitly win
// over the sheet.
var CharacterOption = Option{
	Type: String, Name: "character", Autocomplete: true, MaxLength: MaxNameLen,
	Description: "Read stats from this character's sheet",
}

// MaxNameLen bounds names users give (characters, combatants, factions).
const MaxNameLen = 64

var StatNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// CleanName checks a name a user gave: trimmed, no control characters, at
// most MaxNameLen characters, and no mention syntax that could look like a
// ping. what names the thing for the error ("character name").
func CleanName(what, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Errorf("the %s is empty (example: name:\"Red Goblin\")", what)
	}
	if n := utf8.RuneCountInString(name); n > MaxNameLen {
		return "", Errorf("the %s is %d characters; at most %d", what, n, MaxNameLen)
	}
	for _, r := range name {
		// Invisible formatting characters (right-to-left overrides,
		// zero-width joiners) ping nobody but let a name pass for another.
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '@' || r == '<' || r == '>' || r == '`' {
			return "", Errorf("the %s %q has a character names cannot have (@, <, >, `, or an invisible or control character)", what, name)
		}
	}
	return name, nil
}

// CanRead reports whether the asker of req may read c's sheet: anyone may,
// unless it is hidden (an NPC the GM keeps secret), which only the GMs and
// its owner may. Every command that reads a sheet holds to it through
// ReadCharacter, LoadCharacter and Readable.
func CanRead(req *Request, c db.Character) bool {
	return !c.Hidden || req.GM || c.OwnerID == req.User.ID
}

// ReadCharacter finds a character by name in the request's guild, as the
// asker may see it: a hidden sheet they may not read is not there (an
// error wrapping db.ErrNotFound), so that nothing tells of it, and a
// visible sheet of its name is the one the name means. Where the asker
// reads a visible and a hidden sheet of the name (the GM), the name alone
// does not say which: see PickCharacter.
func (h *Env) ReadCharacter(ctx context.Context, req *Request, name string) (db.Character, error) {
	return h.readCharacterWhich(ctx, req, name, nil)
}

// readCharacterWhich is ReadCharacter for a command that can say which
// of a visible and a hidden sheet of the name it means (/character show
// hidden:true): hidden, when not nil.
func (h *Env) readCharacterWhich(ctx context.Context, req *Request, name string, hidden *bool) (db.Character, error) {
	name = strings.TrimSpace(name)
	rows, err := h.Characters.CharactersNamed(ctx, req.GuildID, name)
	if err != nil {
		return db.Character{}, err
	}
	return PickCharacter(req, name, rows, hidden)
}

// ErrTwoSheets is wrapped by the mistake of a name that means two sheets
// to the asker: a visible and a hidden one (see PickCharacter).
var ErrTwoSheets = errors.New("a visible and a hidden sheet have the name")

// TwoSheets is what the mistake of a name that means two sheets wraps:
// the two, for a command that words the mistake its own way.
type TwoSheets struct {
	Shown, Hidden db.Character
}

func (e *TwoSheets) Error() string { return ErrTwoSheets.Error() + " " + e.Shown.Name }

func (e *TwoSheets) Unwrap() error { return ErrTwoSheets }

// PickCharacter is the sheet of rows (the sheets of one name, as
// db.CharactersNamed reads them) that the asker of req means: those they
// may not read are not there (an error wrapping db.ErrNotFound); of a
// visible and a hidden one, both of which they read, the hidden one when
// hidden is true, the visible one when it is false, and with hidden nil
// the mistake (wrapping ErrTwoSheets) names both and how to tell them
// apart. A GM is never handed one of the two unasked.
func PickCharacter(req *Request, name string, rows []db.Character, hidden *bool) (db.Character, error) {
	rows = Readable(req, rows)
	if len(rows) == 0 {
		return db.Character{}, fmt.Errorf("character %q: %w", name, db.ErrNotFound)
	}
	if len(rows) == 1 {
		return rows[0], nil
	}
	shown, secret := SplitSheets(rows)
	switch {
	case hidden == nil:
		return db.Character{}, &UserError{Err: &TwoSheets{Shown: shown, Hidden: secret}, Msg: fmt.Sprintf(
			"two characters are named %s here, %s's and a hidden one: rename the hidden one so that /%s can tell them apart (example: /character set name:%q hidden:true rename:%q)",
			name, shown.OwnerName, strings.ReplaceAll(req.Path, "/", " "), name, name+" 2")}
	case *hidden:
		return secret, nil
	}
	return shown, nil
}

// SplitSheets is the visible and the hidden sheet of rows, a name's two.
func SplitSheets(rows []db.Character) (shown, hidden db.Character) {
	shown, hidden = rows[0], rows[1]
	if shown.Hidden {
		shown, hidden = hidden, shown
	}
	return shown, hidden
}

// LoadCharacter is ReadCharacter for a character that must be there: a
// name that is not (or one the asker may not read) is the user's mistake.
func (h *Env) LoadCharacter(ctx context.Context, req *Request, name string) (db.Character, error) {
	return h.LoadCharacterWhich(ctx, req, name, nil)
}

// LoadCharacterWhich is LoadCharacter as readCharacterWhich reads.
func (h *Env) LoadCharacterWhich(ctx context.Context, req *Request, name string, hidden *bool) (db.Character, error) {
	c, err := h.readCharacterWhich(ctx, req, name, hidden)
	if errors.Is(err, db.ErrNotFound) {
		return db.Character{}, noCharacter(name)
	}
	return c, err
}

// noCharacter is the user's mistake of a character name that is not
// there (or that the asker may not read).
func noCharacter(name string) error {
	return Errorf("there is no character %q here: see /character list, or create it with /character set", name)
}

// Readable returns the characters of list the asker of req may read.
func Readable(req *Request, list []db.Character) []db.Character {
	out := list[:0:0]
	for _, c := range list {
		if CanRead(req, c) {
			out = append(out, c)
		}
	}
	return out
}

// SuggestCharacters autocompletes a character name; a rules command only
// suggests characters of its own system.
func (h *Env) SuggestCharacters(ctx context.Context, req *Request) (Response, error) {
	system := ""
	if _, ok := h.SystemNamed(req.Command()); ok {
		system = req.Command()
	}
	return h.CharacterChoices(ctx, req, "", system)
}

// CharacterChoices suggests the characters of the guild whose names start
// with what is being typed, of ownerID and system when they are not empty.
func (h *Env) CharacterChoices(ctx context.Context, req *Request, ownerID, system string) (Response, error) {
	list, err := h.Characters.Characters(ctx, req.GuildID, ownerID, system, strings.TrimSpace(req.Options.String(req.Focused)), MaxChoices)
	if err != nil {
		return Response{}, err
	}
	var choices []Choice
	for _, c := range Readable(req, list) {
		label := c.Name + " (" + c.System + ")"
		if c.Hidden {
			// The GM may read a visible and a hidden sheet of one name.
			label = c.Name + " (" + c.System + ", hidden)"
		}
		choices = append(choices, Choice{Name: label, Value: c.Name})
	}
	return Response{Choices: choices}, nil
}

// Sheet is the character a rules command reads stats from, if any.
type Sheet struct {
	c *db.Character
	// own: no character: was given, and this is the asker's one
	// character of the command's system (DefaultSheet).
	own bool
}

// DefaultSheet is the sheet a rules command of system reads when no
// character: is given: the asker's one character of system in the server,
// not a hidden one (a GM's secret NPC is not the GM's character); with
// none, or several, no sheet, and the command reads its options alone.
func (h *Env) DefaultSheet(ctx context.Context, req *Request, system string) (Sheet, error) {
	if system == "" || req.Options.String("character") != "" || h.Characters == nil {
		return Sheet{}, nil
	}
	mine, err := h.Characters.Characters(ctx, req.GuildID, req.User.ID, system, "", 3)
	if err != nil {
		return Sheet{}, fmt.Errorf("list the %s characters of %s: %w", system, req.User.ID, err)
	}
	var shown []db.Character
	for _, c := range mine {
		if !c.Hidden {
			shown = append(shown, c)
		}
	}
	if len(shown) != 1 || len(mine) > 2 {
		return Sheet{}, nil
	}
	return Sheet{c: &shown[0], own: true}, nil
}

// OwnNote is the line a reply adds when it read the asker's one
// character without being told: "" otherwise.
func (s Sheet) OwnNote() string {
	if !s.own || s.c == nil {
		return ""
	}
	return "-# " + EscapeMarkdown(s.c.Name) + " is your one " + s.c.System + " character here: character: picks another"
}

// Sheet loads the character of the request's `character:` option, which
// must be of system (of any, when system is ""). No option gives an empty
// Sheet.
func (h *Env) Sheet(ctx context.Context, req *Request, system string) (Sheet, error) {
	return h.SheetNamed(ctx, req, req.Options.String("character"), system)
}

// SheetNamed is Sheet for a sheet named by another option (an opponent's
// target:): read as the asker of req may read it, so a GM reads a hidden
// sheet there as with character:, and to a player it is not there.
func (h *Env) SheetNamed(ctx context.Context, req *Request, name, system string) (Sheet, error) {
	if name == "" {
		return Sheet{}, nil
	}
	c, err := h.LoadCharacter(ctx, req, name)
	if err != nil {
		return Sheet{}, err
	}
	if system != "" && c.System != system {
		return Sheet{}, Errorf("%s is %s %s character; /%s needs %s %s one", c.Name, Article(c.System), c.System, system, Article(system), system)
	}
	return Sheet{c: &c}, nil
}

// OwnSheet is the sheet a roll reads its names from (/roll 1d20+som):
// the `character:` option's, of any system, as Sheet loads it; else the
// asker's character in the server, when they have exactly one, and own is
// true, for the reply to say so. With none, the Sheet is empty; with
// several, which one is the user's to say: example is the roll they typed,
// for the error's example.
func (h *Env) OwnSheet(ctx context.Context, req *Request, example string) (s Sheet, own bool, err error) {
	if req.Options.String("character") != "" {
		s, err = h.Sheet(ctx, req, "")
		return s, false, err
	}
	mine, err := h.Characters.Characters(ctx, req.GuildID, req.User.ID, "", "", 2)
	if err != nil {
		return Sheet{}, false, fmt.Errorf("list the characters of %s: %w", req.User.ID, err)
	}
	return ownSheet(req, example, mine)
}

// SheetFrom is OwnSheet over the sheets the caller has read already, as
// db.RollSources reads them with a roll's macros (one round trip for
// both): the character `character:` names, if there is one, else the
// asker's own (at most two). The same sheet, the same mistakes.
func SheetFrom(req *Request, example string, rows []db.Character) (s Sheet, own bool, err error) {
	if name := req.Options.String("character"); name != "" {
		if strings.TrimSpace(name) == "" {
			return Sheet{}, false, noCharacter(name)
		}
		c, err := PickCharacter(req, strings.TrimSpace(name), rows, nil)
		if errors.Is(err, db.ErrNotFound) {
			return Sheet{}, false, noCharacter(name)
		}
		if err != nil {
			return Sheet{}, false, err
		}
		return Sheet{c: &c}, false, nil
	}
	return ownSheet(req, example, rows)
}

// ownSheet is the sheet of the asker's characters mine (at most two
// read): the one, none, or the mistake of several.
func ownSheet(req *Request, example string, mine []db.Character) (s Sheet, own bool, err error) {
	switch len(mine) {
	case 0:
		return Sheet{}, false, nil
	case 1:
		return Sheet{c: &mine[0]}, true, nil
	}
	return Sheet{}, false, Errorf("you have several characters here: say whose stats to read with character: (example: /%s expression:%q character:%s)",
		req.Path, example, mine[0].Name)
}

// Lookup gives the sheet's stats to a roll's names; nil without a
// character.
func (s Sheet) Lookup() dice.Lookup {
	if s.c == nil {
		return nil
	}
	return func(name string) (int, bool) {
		v, ok := s.c.Stats[name]
		return v, ok
	}
}

// Stats returns the sheet's stats as FormatStats writes them.
func (s Sheet) Stats() string {
	if s.c == nil {
		return FormatStats(nil)
	}
	return FormatStats(s.c.Stats)
}

// Name is the character's name, or "" without a character.
func (s Sheet) Name() string {
	if s.c == nil {
		return ""
	}
	return s.c.Name
}

// Stat returns the integer option name when given, else the sheet's stat
// of the same name. ok is false when neither has it.
func (s Sheet) Stat(req *Request, name string) (v int, ok bool) {
	if n, given := req.Options.Int(name); given {
		return int(n), true
	}
	if s.c != nil {
		v, ok = s.c.Stats[name]
	}
	return v, ok
}

// Need is Stat for a value the rules cannot do without: its absence is the
// user's mistake, named with an example.
func (s Sheet) Need(req *Request, name string) (int, error) {
	if v, ok := s.Stat(req, name); ok {
		return v, nil
	}
	if s.c != nil {
		return 0, Errorf("/%s needs %s: give %s:<number>, or add it to %s's sheet with /character set name:%s stats:\"%s=3\"",
			req.Typed(), name, name, s.c.Name, s.c.Name, name)
	}
	return 0, Errorf("/%s needs %s: give %s:<number>, or character:<name> to read it from a sheet",
		req.Typed(), name, name)
}

// Or is Stat with a default for a value the rules can do without.
func (s Sheet) Or(req *Request, name string, def int) int {
	if v, ok := s.Stat(req, name); ok {
		return v
	}
	return def
}

// ParseStats reads "ks=4 us=3, es=-1 luck=-" into changes: a nil value
// removes the stat.
func ParseStats(text string) (map[string]*int, error) {
	out := map[string]*int{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			k, v, ok = strings.Cut(f, ":")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || !StatNameRE.MatchString(k) || len(k) > MaxStatName {
			return nil, Errorf("stats are written name=value, e.g. stats:\"ks=4 us=3\"; %q is not", f)
		}
		if v == "-" {
			out[k] = nil // a name dice syntax took may still be removed
			continue
		}
		if dice.Reserved(k) {
			return nil, Errorf("a stat cannot be named %s: in a roll, %s reads as dice syntax (dice, keep, explode, reroll and so on: d, kh, dF, adv, e, r), never as a stat; choose another name (example: stats:\"my_%s=3\")", k, k, k)
		}
		n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		if err != nil || n > MaxStatAbs || n < -MaxStatAbs {
			return nil, Errorf("stat %s needs a whole number, not %q (example: %s=3)", k, v, k)
		}
		out[k] = &n
	}
	return out, nil
}

func FormatStats(stats map[string]int) string {
	if len(stats) == 0 {
		return "no stats yet"
	}
	keys := slices.Sorted(maps.Keys(stats))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, stats[k])
	}
	return strings.Join(parts, " · ")
}

// Limits on a sheet.
const (
	MaxStats    = 60
	MaxStatName = 32
	MaxStatAbs  = 1_000_000
)
