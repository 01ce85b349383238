package core

// /macro: a table's own saved rolls. A player saves `1d20+som [to hit]` as
// atk and rolls it with /roll atk, atk+2, 2#atk; a GM saves the server's,
// which every player of the server rolls, unless they have their own of
// the same name.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// Limits of saved rolls.
const (
	maxMacroName     = 32  // characters of a macro's name
	maxMacroLen      = 200 // characters of a macro's roll
	maxMacrosPerUser = 100 // a player's own macros in a server
	maxServerMacros  = 200 // the server's macros (scope:server)
)

// The scopes of a macro, as the scope: option and the console's result
// name them.
const (
	scopeMe     = "me"
	scopeServer = "server"
)

var macroCommand = kit.Command{
	Name:        "macro",
	Description: "Saved rolls: save 1d20+5 as atk, then /roll atk, atk+2 or 2#atk",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "set", Description: "Save a roll under a name, or change the one saved", Options: []kit.Option{
			// The lengths the client holds to are the general ones: the
			// handler names a longer name or roll's mistake with an example.
			{Type: kit.String, Name: "name", Description: "One word, e.g. atk: /roll atk rolls it", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
			{Type: kit.String, Name: "roll", Description: "What /roll rolls for it, e.g. 1d20+som [to hit]", Required: true, MaxLength: dice.MaxExprLen},
			macroScopeOption("Yours (default), or the server's for every player (GM)"),
		}},
		{Type: kit.SubCommand, Name: "list", Description: "Your saved rolls and the server's"},
		{Type: kit.SubCommand, Name: "delete", Description: "Delete a saved roll", Options: []kit.Option{
			{Type: kit.String, Name: "name", Description: "The saved roll's name", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
			macroScopeOption("Yours (default), or the server's (GM)"),
		}},
	},
}

func macroScopeOption(desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: "scope", Description: desc,
		Choices: []kit.Choice{{Name: scopeMe, Value: scopeMe}, {Name: scopeServer, Value: scopeServer}}}
}

// macroStore is the store of saved rolls, or the user's mistake of asking
// a Tablehand that keeps none.
func (h *handlers) macroStore() (kit.MacroStore, error) {
	if h.Macros == nil {
		return nil, kit.Errorf("this Tablehand keeps no saved rolls: type the roll out in full (example: /roll 1d20+5)")
	}
	return h.Macros, nil
}

// macroOwner is the owner of the macro req's scope: names: the asker, or,
// for the server's, "" (a GM's alone to change).
func macroOwner(req *kit.Request, example string) (string, error) {
	if req.Options.String("scope") != scopeServer {
		return req.User.ID, nil
	}
	if !req.GM {
		return "", kit.Errorf("only a GM changes the server's saved rolls; yours are yours to change (example: %s)", example)
	}
	return "", nil
}

var macroWordRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// macroName checks a macro's name as a character's name is checked (no
// mention, no markup, no invisible characters: kit.CleanName), and holds
// it to what /roll reads as a macro's name: one word of letters, digits
// and '_' that begins with a letter, at most maxMacroName characters, not
// dice. It returns the name in lower case.
func macroName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	if name == "" {
		return "", kit.Errorf("the macro's name is empty (example: /macro set name:atk roll:1d20+5)")
	}
	if n := utf8.RuneCountInString(name); n > maxMacroName {
		return "", kit.Errorf("the macro name is %d characters; at most %d (example: /macro set name:atk roll:1d20+5)", n, maxMacroName)
	}
	if _, err := kit.CleanName("macro name", name); err != nil {
		ue, ok := kit.AsUserError(err)
		if !ok {
			return "", err
		}
		return "", kit.Errorf("%s (example: /macro set name:%s roll:1d20+5)", ue.Msg, wordOf(name))
	}
	if !macroWordRE.MatchString(name) {
		return "", kit.Errorf("a macro's name is one word of letters, digits and _ that begins with a letter, which /roll reads as the macro; %q is not (example: /macro set name:%s roll:1d20+5)", name, wordOf(name))
	}
	lower := strings.ToLower(name)
	if !macroNameOK(lower) {
		return "", kit.Errorf("a macro cannot be named %s: in a roll, %s reads as dice (d, kh, dF, adv, e, r...), so /roll %s would roll dice, not the macro; choose another name (example: /macro set name:my_%s roll:1d20+5)", lower, lower, lower, lower)
	}
	return lower, nil
}

// wordOf makes a name a macro may have of one it may not: the letters,
// digits and '_' of name, with '_' for the rest, behind a letter.
func wordOf(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < utf8.RuneSelf && isWordByte(byte(r)):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	w := strings.Trim(b.String(), "_")
	if w == "" || w[0] < 'A' || (w[0] > 'Z' && w[0] < 'a') {
		w = "my_" + w
	}
	return strings.TrimSuffix(w, "_")
}

// macroRoll checks the roll a macro saves: a roll /roll takes as it is
// (stats' names, read from the roller's sheet, included), at most
// maxMacroLen characters.
func macroRoll(raw, name string) (string, error) {
	roll := strings.TrimSpace(raw)
	if roll == "" {
		return "", kit.Errorf("the roll to save is empty (example: /macro set name:%s roll:1d20+5)", name)
	}
	if n := utf8.RuneCountInString(roll); n > maxMacroLen {
		return "", kit.Errorf("a macro's roll is at most %d characters; this one is %d: shorten it, or save its parts as two macros (example: /macro set name:%s roll:\"1d20+5 [to hit] 2d6+3 [slashing]\")", maxMacroLen, n, name)
	}
	if _, err := dice.Parse(roll); err != nil {
		ue, ok := kit.AsUserError(kit.DiceError(err))
		if !ok {
			return "", err
		}
		out := *ue
		out.Msg = "the roll to save does not roll: " + ue.Msg + fmt.Sprintf(" (example: /macro set name:%s roll:1d20+5)", name)
		return "", &out
	}
	return roll, nil
}

func (h *handlers) macroSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	store, err := h.macroStore()
	if err != nil {
		return kit.Response{}, err
	}
	name, err := macroName(req.Options.String("name"))
	if err != nil {
		return kit.Response{}, err
	}
	roll, err := macroRoll(req.Options.String("roll"), name)
	if err != nil {
		return kit.Response{}, err
	}
	owner, err := macroOwner(req, fmt.Sprintf("/macro set name:%s roll:%q", name, roll))
	if err != nil {
		return kit.Response{}, err
	}
	// A macro's roll is dice and stats: it names no other macro.
	if call, ok := readMacroCall(roll); ok {
		mine, err := store.Macros(ctx, req.GuildID, req.User.ID)
		if err != nil {
			return kit.Response{}, err
		}
		for _, m := range mine {
			if m.Name == call.name {
				return kit.Response{}, kit.Errorf("a saved roll cannot use another (%s is %s): write its roll out (example: /macro set name:%s roll:\"%s\")",
					m.Name, describe(m), name, kit.CodeSafe(m.Roll))
			}
		}
	}
	max, whose, scoped := maxMacrosPerUser, "you have", ""
	if owner == "" {
		max, whose, scoped = maxServerMacros, "the server has", " scope:server"
	}
	m := db.Macro{GuildID: req.GuildID, OwnerID: owner, OwnerName: req.User.Name, Name: name, Roll: roll}
	replaced, err := store.SetMacro(ctx, m, max)
	if errors.Is(err, db.ErrLimit) {
		return kit.Response{}, h.tooManyMacros(ctx, store, req, owner, whose+" "+fmt.Sprint(max), scoped)
	}
	if err != nil {
		return kit.Response{}, err
	}
	verb, scope, forWhom := "Saved", scopeMe, "you"
	if replaced {
		verb = "Changed"
	}
	if owner == "" {
		scope, forWhom = scopeServer, "the server"
	}
	content := fmt.Sprintf("%s **%s** for %s: `%s`\n-# Roll it with /roll %s, /roll %s+2 or /roll 2#%s",
		verb, name, forWhom, kit.CodeSafe(roll), name, name, name)
	if owner == "" {
		content += "; a player's own saved roll of the same name wins over the server's"
	}
	return kit.Response{
		Content:   content,
		Ephemeral: true,
		Result:    map[string]any{"name": name, "roll": roll, "scope": scope, "replaced": replaced},
	}, nil
}

func (h *handlers) macroList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	store, err := h.macroStore()
	if err != nil {
		return kit.Response{}, err
	}
	list, err := store.Macros(ctx, req.GuildID, req.User.ID)
	if err != nil {
		return kit.Response{}, err
	}
	type row struct {
		Name     string `json:"name"`
		Roll     string `json:"roll"`
		Scope    string `json:"scope"`
		Shadowed bool   `json:"shadowed,omitempty"`
	}
	rows := []row{}
	mine := map[string]bool{}
	var own, server []string
	for _, m := range list {
		if !m.Server() {
			mine[m.Name] = true
			own = append(own, fmt.Sprintf("`%s` `%s`", m.Name, kit.CodeSafe(m.Roll)))
			rows = append(rows, row{Name: m.Name, Roll: m.Roll, Scope: scopeMe})
			continue
		}
		line := fmt.Sprintf("`%s` `%s`", m.Name, kit.CodeSafe(m.Roll))
		if mine[m.Name] {
			line += " (yours wins)"
		}
		server = append(server, line)
		rows = append(rows, row{Name: m.Name, Roll: m.Roll, Scope: scopeServer, Shadowed: mine[m.Name]})
	}
	if len(list) == 0 {
		resp := kit.Response{Content: "No saved rolls here yet: save one with /macro set name:atk roll:1d20+5, then /roll atk", Ephemeral: true}
		resp.Result = map[string]any{"macros": rows}
		return resp, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Your saved rolls** (%d of %d)\n", len(own), maxMacrosPerUser)
	if len(own) == 0 {
		b.WriteString("none yet: /macro set name:atk roll:1d20+5\n")
	}
	for _, l := range own {
		b.WriteString(l + "\n")
	}
	if len(server) > 0 {
		b.WriteString("**The server's saved rolls**\n")
		for _, l := range server {
			b.WriteString(l + "\n")
		}
	}
	b.WriteString("-# /roll atk, atk+2 or 2#atk rolls the saved roll atk")
	resp := kit.Paged(b.String())
	resp.Result = map[string]any{"macros": rows}
	return resp, nil
}

func (h *handlers) macroDelete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	store, err := h.macroStore()
	if err != nil {
		return kit.Response{}, err
	}
	name, err := macroName(req.Options.String("name"))
	if err != nil {
		return kit.Response{}, err
	}
	owner, err := macroOwner(req, fmt.Sprintf("/macro delete name:%s", name))
	if err != nil {
		return kit.Response{}, err
	}
	err = store.DeleteMacro(ctx, req.GuildID, owner, name)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, h.noMacro(ctx, store, req, name, owner)
	}
	if err != nil {
		return kit.Response{}, err
	}
	whose, scope := "your", scopeMe
	if owner == "" {
		whose, scope = "the server's", scopeServer
	}
	return kit.Response{
		Content:   fmt.Sprintf("Deleted %s saved roll **%s**", whose, name),
		Ephemeral: true,
		Result:    map[string]any{"name": name, "scope": scope, "deleted": true},
	}, nil
}

// tooManyMacros is the mistake of one saved roll too many for owner
// ("" the server): have is "you have 100", scoped the scope: of the
// example, which deletes one of theirs.
func (h *handlers) tooManyMacros(ctx context.Context, store kit.MacroStore, req *kit.Request, owner, have, scoped string) error {
	list, err := store.Macros(ctx, req.GuildID, req.User.ID)
	if err != nil {
		return err
	}
	example := "atk"
	for _, m := range list {
		if m.OwnerID == owner {
			example = m.Name
			break
		}
	}
	return kit.Errorf("%s saved rolls, the most there may be: delete one first (example: /macro delete name:%s%s; /macro list shows them)", have, example, scoped)
}

// noMacro is the mistake of deleting a macro that is not there: it says
// where one of that name is, if anywhere.
func (h *handlers) noMacro(ctx context.Context, store kit.MacroStore, req *kit.Request, name, owner string) error {
	list, err := store.Macros(ctx, req.GuildID, req.User.ID)
	if err != nil {
		return err
	}
	for _, m := range list {
		switch {
		case owner != "" && m.Server() && m.Name == name && req.GM:
			return kit.Errorf("you have no saved roll named %s; the server has: delete it with /macro delete name:%s scope:server", name, name)
		case owner != "" && m.Server() && m.Name == name:
			return kit.Errorf("%s is the server's saved roll, which only a GM deletes; you have none of that name (see /macro list)", name)
		case owner == "" && !m.Server() && m.Name == name:
			return kit.Errorf("the server has no saved roll named %s; you have: delete it with /macro delete name:%s", name, name)
		}
	}
	return kit.Errorf("there is no saved roll named %s here: see /macro list (example: /macro delete name:atk)", name)
}

// suggestMacros autocompletes a macro's name: the asker's and the
// server's whose names start with what is typed.
func (h *handlers) suggestMacros(ctx context.Context, req *kit.Request) (kit.Response, error) {
	if h.Macros == nil {
		return kit.Response{}, nil
	}
	list, err := h.Macros.Macros(ctx, req.GuildID, req.User.ID)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Choices: macroChoices(list, strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused))), false)}, nil
}

// macroChoices are the macros of list whose names start with prefix, as
// autocomplete choices: the name, its roll and whose. rolled keeps only
// the macro /roll rolls of each name: the player's own, listed first,
// hides the server's.
func macroChoices(list []db.Macro, prefix string, rolled bool) []kit.Choice {
	var out []kit.Choice
	seen := map[string]bool{}
	for _, m := range list {
		if !strings.HasPrefix(m.Name, prefix) || (rolled && seen[m.Name]) {
			continue
		}
		seen[m.Name] = true
		whose := "yours"
		if m.Server() {
			whose = "the server's"
		}
		out = append(out, kit.Choice{Name: fmt.Sprintf("%s = %s (%s)", m.Name, m.Roll, whose), Value: m.Name})
	}
	return out
}
