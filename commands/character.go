package commands

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
)

// Systems are the rule systems Tablehand speaks, by their command names.
var Systems = []string{"faction", "arc", "ulm", "burst", "xhalem"}

func systemChoices() []Choice {
	out := make([]Choice, len(Systems))
	for i, s := range Systems {
		out[i] = Choice{Name: s, Value: s}
	}
	return out
}

// CharacterStore keeps character sheets.
type CharacterStore interface {
	Character(ctx context.Context, guildID, name string) (db.Character, error)
	SaveCharacter(ctx context.Context, c db.Character) (db.Character, error)
	Characters(ctx context.Context, guildID, ownerID, system, prefix string, limit int) ([]db.Character, error)
	DeleteCharacter(ctx context.Context, guildID, name string) error
}

// characterOption is the `character:` option of every rules command: read
// stats from the sheet instead of typing them. Options typed explicitly win
// over the sheet.
var characterOption = Option{
	Type: String, Name: "character", Autocomplete: true, MaxLength: MaxNameLen,
	Description: "Read stats from this character's sheet",
}

var characterCommand = Command{
	Name:        "character",
	Description: "Character sheets: the stats rules commands read",
	Options: []Option{
		{Type: SubCommand, Name: "create", Description: "Create a character", Options: []Option{
			{Type: String, Name: "name", Description: "The character's name", Required: true, MaxLength: MaxNameLen},
			{Type: String, Name: "system", Description: "Its rule system", Required: true, Choices: systemChoices()},
			{Type: String, Name: "stats", Description: "Stats as name=value, e.g. \"ks=4 us=3 es=5\"", MaxLength: 1000},
			{Type: UserOption, Name: "owner", Description: "Who plays it (GM only; default: you)"},
		}},
		{Type: SubCommand, Name: "set", Description: "Create a character or change its stats", Options: []Option{
			{Type: String, Name: "name", Description: "The character's name", Required: true, Autocomplete: true, MaxLength: MaxNameLen},
			{Type: String, Name: "system", Description: "Its rule system (needed when creating)", Choices: systemChoices()},
			{Type: String, Name: "stats", Description: "Stats as name=value, e.g. \"ks=4 us=3 es=5\"; name=- removes one", MaxLength: 1000},
			{Type: UserOption, Name: "owner", Description: "Who plays it (GM only; default: you)"},
		}},
		{Type: SubCommand, Name: "show", Description: "Show a character's sheet", Options: []Option{
			{Type: String, Name: "name", Description: "The character's name", Required: true, Autocomplete: true, MaxLength: MaxNameLen},
		}},
		{Type: SubCommand, Name: "list", Description: "List the characters of this server", Options: []Option{
			{Type: String, Name: "system", Description: "Only this rule system", Choices: systemChoices()},
			{Type: UserOption, Name: "owner", Description: "Only this person's characters"},
		}},
		{Type: SubCommand, Name: "delete", Description: "Delete a character", Options: []Option{
			{Type: String, Name: "name", Description: "The character's name", Required: true, Autocomplete: true, MaxLength: MaxNameLen},
		}},
	},
}

// MaxNameLen bounds names users give (characters, combatants, factions).
const MaxNameLen = 64

// Limits on a sheet.
const (
	maxStats    = 60
	maxStatName = 32
	maxStatAbs  = 1_000_000
)

var statNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

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

// characterCreate is characterSet for a character that must be new: a
// name already taken is a mistake, not an update.
func (h *handlers) characterCreate(ctx context.Context, req *Request) (Response, error) {
	return h.saveCharacter(ctx, req, true)
}

func (h *handlers) characterSet(ctx context.Context, req *Request) (Response, error) {
	return h.saveCharacter(ctx, req, false)
}

func (h *handlers) saveCharacter(ctx context.Context, req *Request, mustBeNew bool) (Response, error) {
	name, err := CleanName("character name", req.Options.String("name"))
	if err != nil {
		return Response{}, err
	}
	old, err := h.Characters.Character(ctx, req.GuildID, name)
	exists := err == nil
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return Response{}, err
	}
	if exists && mustBeNew {
		return Response{}, Errorf("there is already a character named %s here: change it with /character set name:%q stats:\"...\"", old.Name, old.Name)
	}
	c := old
	if !exists {
		c = db.Character{GuildID: req.GuildID, Name: name, OwnerID: req.User.ID, OwnerName: req.User.Name, Stats: map[string]int{}}
	} else if c.OwnerID != req.User.ID && !req.GM {
		return Response{}, Errorf("%s belongs to %s: only they or the GM can change it", c.Name, c.OwnerName)
	}
	if sys := req.Options.String("system"); sys != "" {
		c.System = sys
	}
	if c.System == "" {
		return Response{}, Errorf("a new character needs its rule system (example: /character set name:%s system:arc stats:\"ks=4 us=3\")", name)
	}
	if owner := req.Options.String("owner"); owner != "" && owner != c.OwnerID {
		if !req.GM {
			return Response{}, Errorf("only the GM can give a character to someone else")
		}
		c.OwnerID, c.OwnerName = owner, owner
	}
	changes, err := parseStats(req.Options.String("stats"))
	if err != nil {
		return Response{}, err
	}
	c.Stats = maps.Clone(c.Stats)
	if c.Stats == nil {
		c.Stats = map[string]int{}
	}
	for k, v := range changes {
		if v == nil {
			delete(c.Stats, k)
		} else {
			c.Stats[k] = *v
		}
	}
	if len(c.Stats) > maxStats {
		return Response{}, Errorf("a sheet holds at most %d stats; this one would have %d", maxStats, len(c.Stats))
	}
	saved, err := h.Characters.SaveCharacter(ctx, c)
	switch {
	case errors.Is(err, db.ErrExists):
		return Response{}, Errorf("someone has just created a character named %s here: see /character show name:%q", name, name)
	case errors.Is(err, db.ErrConflict):
		return Response{}, Errorf("%s changed while you were changing it: run the command again", name)
	case err != nil:
		return Response{}, err
	}
	verb := "Updated"
	if !exists {
		verb = "Created"
	}
	return Response{
		Content: fmt.Sprintf("%s **%s** (%s): %s", verb, escapeMarkdown(saved.Name), saved.System, formatStats(saved.Stats)),
		Result:  characterResult(saved),
	}, nil
}

func (h *handlers) characterShow(ctx context.Context, req *Request) (Response, error) {
	c, err := h.loadCharacter(ctx, req, req.Options.String("name"))
	if err != nil {
		return Response{}, err
	}
	return Response{
		Embeds: []Embed{{
			Title:       c.Name,
			Description: fmt.Sprintf("%s character of %s", c.System, escapeMarkdown(c.OwnerName)),
			Fields:      []Field{{Name: "Stats", Value: formatStats(c.Stats)}},
		}},
		Ephemeral: true,
		Result:    characterResult(c),
	}, nil
}

func (h *handlers) characterList(ctx context.Context, req *Request) (Response, error) {
	list, err := h.Characters.Characters(ctx, req.GuildID, req.Options.String("owner"), req.Options.String("system"), "", 100)
	if err != nil {
		return Response{}, err
	}
	if len(list) == 0 {
		return Response{Content: "No characters yet: create one with /character set name:\"Red Goblin\" system:arc stats:\"ks=4 us=3\"", Ephemeral: true, Result: []CharacterResult{}}, nil
	}
	var b strings.Builder
	out := make([]CharacterResult, 0, len(list))
	for _, c := range list {
		fmt.Fprintf(&b, "**%s** (%s, %s): %s\n", escapeMarkdown(c.Name), c.System, escapeMarkdown(c.OwnerName), formatStats(c.Stats))
		out = append(out, characterResult(c))
	}
	return Response{Content: b.String(), Ephemeral: true, Result: out}, nil
}

func (h *handlers) characterDelete(ctx context.Context, req *Request) (Response, error) {
	c, err := h.loadCharacter(ctx, req, req.Options.String("name"))
	if err != nil {
		return Response{}, err
	}
	if c.OwnerID != req.User.ID && !req.GM {
		return Response{}, Errorf("%s belongs to %s: only they or the GM can delete it", c.Name, c.OwnerName)
	}
	if err := h.Characters.DeleteCharacter(ctx, req.GuildID, c.Name); err != nil {
		return Response{}, err
	}
	return Response{Content: fmt.Sprintf("Deleted **%s**.", escapeMarkdown(c.Name)), Result: characterResult(c)}, nil
}

// loadCharacter finds a character by name in the request's guild; a name
// that is not there is the user's mistake.
func (h *handlers) loadCharacter(ctx context.Context, req *Request, name string) (db.Character, error) {
	c, err := h.Characters.Character(ctx, req.GuildID, strings.TrimSpace(name))
	if errors.Is(err, db.ErrNotFound) {
		return db.Character{}, Errorf("there is no character %q here: see /character list, or create it with /character set", name)
	}
	return c, err
}

// suggestCharacters autocompletes a character name; a rules command only
// suggests characters of its own system.
func (h *handlers) suggestCharacters(ctx context.Context, req *Request) (Response, error) {
	system := ""
	if cmd := req.Command(); slices.Contains(Systems, cmd) {
		system = cmd
	}
	return h.characterChoices(ctx, req, "", system)
}

// characterChoices suggests the characters of the guild whose names start
// with what is being typed, of ownerID and system when they are not empty.
func (h *handlers) characterChoices(ctx context.Context, req *Request, ownerID, system string) (Response, error) {
	list, err := h.Characters.Characters(ctx, req.GuildID, ownerID, system, strings.TrimSpace(req.Options.String(req.Focused)), MaxChoices)
	if err != nil {
		return Response{}, err
	}
	var choices []Choice
	for _, c := range list {
		choices = append(choices, Choice{Name: c.Name + " (" + c.System + ")", Value: c.Name})
	}
	return Response{Choices: choices}, nil
}

// Sheet is the character a rules command reads stats from, if any.
type Sheet struct {
	c *db.Character
}

// sheet loads the character of the request's `character:` option, which
// must be of system. No option gives an empty Sheet.
func (h *handlers) sheet(ctx context.Context, req *Request, system string) (Sheet, error) {
	name := req.Options.String("character")
	if name == "" {
		return Sheet{}, nil
	}
	c, err := h.loadCharacter(ctx, req, name)
	if err != nil {
		return Sheet{}, err
	}
	if c.System != system {
		return Sheet{}, Errorf("%s is %s %s character; /%s needs %s %s one", c.Name, article(c.System), c.System, system, article(system), system)
	}
	return Sheet{c: &c}, nil
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
			strings.ReplaceAll(req.Path, "/", " "), name, name, s.c.Name, s.c.Name, name)
	}
	return 0, Errorf("/%s needs %s: give %s:<number>, or character:<name> to read it from a sheet",
		strings.ReplaceAll(req.Path, "/", " "), name, name)
}

// Or is Stat with a default for a value the rules can do without.
func (s Sheet) Or(req *Request, name string, def int) int {
	if v, ok := s.Stat(req, name); ok {
		return v
	}
	return def
}

// parseStats reads "ks=4 us=3, es=-1 luck=-" into changes: a nil value
// removes the stat.
func parseStats(text string) (map[string]*int, error) {
	out := map[string]*int{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			k, v, ok = strings.Cut(f, ":")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || !statNameRE.MatchString(k) || len(k) > maxStatName {
			return nil, Errorf("stats are written name=value, e.g. stats:\"ks=4 us=3\"; %q is not", f)
		}
		if v == "-" {
			out[k] = nil
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		if err != nil || n > maxStatAbs || n < -maxStatAbs {
			return nil, Errorf("stat %s needs a whole number, not %q (example: %s=3)", k, v, k)
		}
		out[k] = &n
	}
	return out, nil
}

func formatStats(stats map[string]int) string {
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

// CharacterResult is the console's `result` for a character.
type CharacterResult struct {
	Name   string         `json:"name"`
	System string         `json:"system"`
	Owner  string         `json:"owner"`
	Stats  map[string]int `json:"stats"`
}

func characterResult(c db.Character) CharacterResult {
	stats := c.Stats
	if stats == nil {
		stats = map[string]int{}
	}
	return CharacterResult{Name: c.Name, System: c.System, Owner: c.OwnerID, Stats: stats}
}

// article is "an" before a vowel, "a" otherwise: "an arc character".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
