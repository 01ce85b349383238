package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

func (h *handlers) roll(ctx context.Context, req *kit.Request) (kit.Response, error) {
	vis, err := kit.RollVisibility(req)
	if err != nil {
		return kit.Response{}, err
	}
	text := req.Options.String("expression")
	if isHelp(text) {
		return kit.Response{Content: rollHelp, Ephemeral: true}, nil
	}
	if call, ok := readMacroCall(text); ok && h.Macros != nil {
		return h.rollWord(ctx, req, vis, call)
	}
	text, note := dice.Translate(text)
	expr, parseErr := dice.Parse(text)
	st, err := h.sheetStats(ctx, req, text, parseErr == nil && expr.HasNames())
	if err != nil {
		return kit.Response{}, err
	}
	if parseErr != nil {
		return kit.Response{}, kit.DiceError(parseErr)
	}
	if err := h.questionReason(ctx, req, expr, st); err != nil {
		return kit.Response{}, err
	}
	return h.rollReply(ctx, req, text, expr, vis, st, nil, readings(note, expr))
}

// readings are the notes of how a roll was read: note, what
// dice.Translate left out or changed ("" for nothing), and the readings
// of expr's notations of other bots.
func readings(note string, expr *dice.Expr) []string {
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	return append(notes, expr.Readings()...)
}

// isHelp reports whether a roll's text asks how to roll: "help", as in
// Dice Maiden's /roll help, or "?".
func isHelp(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	return t == "help" || t == "?" || strings.HasPrefix(t, "help ")
}

// rollHelp answers /roll help: the dice language in brief.
const rollHelp = diceGuide + "-# More in /help command:roll; every notation, and other bots', in docs/dice.md."

// questionReason refuses a roll whose reason, introduced by white space,
// holds what the player may have meant to roll (see dice.ReasonDoubt): a
// dice term, adv or dis, or a stat of the roller's sheet first. The
// answer gives both readings; "#" keeps the reason as words.
func (h *handlers) questionReason(ctx context.Context, req *kit.Request, expr *dice.Expr, st rollStats) error {
	if expr.Reason() == "" {
		return nil
	}
	look := st.look
	if look == nil {
		sheet, _, err := h.OwnSheet(ctx, req, expr.String())
		if _, several := kit.AsUserError(err); err != nil && !several {
			return err
		}
		// With several characters and none named, no sheet says which
		// words are stats: the reason is left to the other doubts.
		look = sheet.Lookup()
	}
	isStat := func(name string) bool {
		if look == nil {
			return false
		}
		_, ok := look(name)
		return ok
	}
	d, ok := expr.ReasonDoubt(isStat)
	if !ok {
		return nil
	}
	msg := fmt.Sprintf("the reason %q holds %s, which is not rolled", expr.Reason(), d.Word)
	if isStat(strings.ToLower(d.Word)) && strings.HasPrefix(expr.Reason(), d.Word) {
		msg = fmt.Sprintf("the reason %q begins with %s, a stat of your character's sheet, which is not added", expr.Reason(), d.Word)
	}
	if d.Rolled != "" {
		msg += fmt.Sprintf(": to roll it, write `%s`", kit.CodeSafe(d.Rolled))
	}
	msg += fmt.Sprintf("; to keep it as words, `%s`", kit.CodeSafe(d.Words))
	return &kit.UserError{Msg: msg}
}

// rollWord answers a roll that begins with a word (call): the roller's
// macro of that name, else the server's, expanded; or, with neither, the
// roll as typed, whose word is then a stat's name. One read gives the
// macros of the name and the sheets a roll reads (db.RollSources), so a
// roll of a macro costs the round trips of a roll of a stat: that read
// and the roll log's write.
func (h *handlers) rollWord(ctx context.Context, req *kit.Request, vis kit.Visibility, call macroCall) (kit.Response, error) {
	src, err := h.Macros.RollSources(ctx, req.GuildID, req.User.ID, call.name, strings.TrimSpace(req.Options.String("character")))
	if err != nil {
		return kit.Response{}, err
	}
	text := call.typed
	var used *usedMacro
	if len(src.Macros) > 0 {
		m := src.Macros[0] // the roller's own before the server's
		if text, err = call.expand(m); err != nil {
			return kit.Response{}, err
		}
		used = &usedMacro{call: call, macro: m, text: text}
	}
	note := ""
	if used == nil {
		text, note = dice.Translate(text)
	}
	expr, parseErr := dice.Parse(text)
	var st rollStats
	if (parseErr == nil && expr.HasNames()) || req.Options.String("character") != "" {
		sheet, own, err := kit.SheetFrom(req, text, src.Characters)
		if err != nil {
			return kit.Response{}, err
		}
		st = sheetRollStats(sheet, own)
	}
	if parseErr != nil {
		return kit.Response{}, used.explain(kit.DiceError(parseErr))
	}
	if err := h.questionReason(ctx, req, expr, st); err != nil {
		return kit.Response{}, used.explain(err)
	}
	resp, err := h.rollReply(ctx, req, text, expr, vis, st, used, readings(note, expr))
	return resp, used.explain(err)
}

// sheetStats are the stats a roll of text reads: those of the sheet of
// `character:`, or, when text has names (named), of the roller's one
// character (see kit.OwnSheet). A text that does not parse reads only
// the sheet of `character:`: roll names its mistake after the sheet's.
func (h *handlers) sheetStats(ctx context.Context, req *kit.Request, text string, named bool) (rollStats, error) {
	if !named && req.Options.String("character") == "" {
		return rollStats{}, nil
	}
	sheet, own, err := h.OwnSheet(ctx, req, text)
	if err != nil {
		return rollStats{}, err
	}
	return sheetRollStats(sheet, own), nil
}

// sheetRollStats are the stats of sheet; own says it is the roller's one
// character, not one they named.
func sheetRollStats(sheet kit.Sheet, own bool) rollStats {
	return rollStats{character: sheet.Name(), look: sheet.Lookup(), list: sheet.Stats(), own: own}
}

// rollStats are where a roll's names ("som" in "1d20+som") take their
// values: a character's sheet, or, for Roll again, the values the first
// roll read.
type rollStats struct {
	character string         // "" for none
	look      dice.Lookup    // nil for none
	list      string         // the stats there are, for an unknown name's error
	values    map[string]int // for Roll again: the values the first roll read
	own       bool           // the sheet is the roller's one character, not one they named
}

// statsOf returns the stats a logged roll read, from its detail (a
// kit.RollResult): the values themselves, not the sheet, which may have
// changed since or be one the clicker may not read.
func statsOf(detail json.RawMessage) (rollStats, error) {
	var prev kit.RollResult
	if err := json.Unmarshal(detail, &prev); err != nil {
		return rollStats{}, fmt.Errorf("read the logged roll: %w", err)
	}
	if len(prev.Stats) == 0 {
		return rollStats{}, nil
	}
	return rollStats{
		character: prev.Character,
		values:    prev.Stats,
		look:      func(name string) (int, bool) { v, ok := prev.Stats[name]; return v, ok },
		list:      kit.FormatStats(prev.Stats),
	}, nil
}

// rollAgain answers the "Roll again" button: the same expression, rolled
// afresh by whoever clicked, seen by the same people as the first.
func (h *handlers) rollAgain(ctx context.Context, req *kit.Request) (kit.Response, error) {
	_, code, _ := strings.Cut(req.CustomID, ":")
	prev, found, err := h.Rolls.RollByCode(ctx, req.ChannelID, code)
	if err != nil {
		return kit.Response{}, err
	}
	if !found || (prev.Private && prev.UserID != req.User.ID) {
		// A private roll is its roller's alone: to anyone else who has its
		// ID it is not there, and its expression is not rolled again.
		return kit.Response{}, kit.Errorf("roll %s is not in this channel's log any more: use /roll", code)
	}
	req.Options = kit.Options{} // a click carries no dice: roll at random
	vis := kit.Visibility(prev.Visibility)
	if vis == "" {
		vis = kit.Public
	}
	st, err := statsOf(prev.Detail)
	if err != nil {
		return kit.Response{}, fmt.Errorf("roll %s again: %w", code, err)
	}
	expr, err := dice.Parse(prev.Expr)
	if err != nil {
		return kit.Response{}, kit.DiceError(err)
	}
	return h.rollReply(ctx, req, prev.Expr, expr, vis, st, nil, expr.Readings())
}

// rollReply rolls expr (text, parsed) on the kit.Call of req, seen as vis
// asks, with the values of its names from st, logs it and answers; used
// is the macro text came from, nil for none. Every mistake comes back as
// a *UserError.
//
// notes say how a notation of another bot was read (dice.Translate,
// Expr.Readings): each a line below the head, and the result's notes.
func (h *handlers) rollReply(ctx context.Context, req *kit.Request, text string, expr *dice.Expr, vis kit.Visibility, st rollStats, used *usedMacro, notes []string) (kit.Response, error) {
	c, err := h.BeginRoll(req, vis)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := c.Tray.RollWith(expr, st.look)
	var de *dice.Error
	if errors.As(err, &de) && de.Name != "" {
		return kit.Response{}, nameError(de, text, st)
	}
	if err != nil {
		return kit.Response{}, err
	}
	result := kit.NewRollResult(res)
	head := fmt.Sprintf("🎲 **%s** rolled `%s`", kit.DisplayName(req.User), kit.CodeSafe(res.Expr))
	if len(res.Refs) > 0 && st.character != "" {
		result.Character = st.character
		head += " with **" + kit.EscapeMarkdown(st.character) + "**'s stats"
		if st.own {
			head += "\n-# " + kit.EscapeMarkdown(st.character) + " is your one character here: character: picks another"
		}
	}
	if used != nil {
		result.Macro = used.result()
		head += "\n" + used.line()
	}
	for _, n := range notes {
		head += "\n-# " + n
	}
	result.Notes = notes
	// result holds the dice already (kit.NewRollResult): no kit.Outcome to
	// fill, so the call is ended as Finish ends it, without converting
	// the tray's rolls again.
	if err := c.Tray.Done(); err != nil {
		return kit.Response{}, kit.WithHint(err, fmt.Sprintf("example: /roll %s dice:%s", expr, kit.ExampleDice(res)))
	}
	id, err := c.Log(ctx, res.Expr, res.Total, c.Visibility(), result)
	if err != nil {
		return kit.Response{}, err
	}
	result.ID = id
	out := c.Reply(id, result, head)
	// The button rolls again with the same visibility: on the answer its
	// roller sees (a blind roll's roller sees none to click).
	again := []kit.Row{{{Label: "Roll again", Style: kit.Secondary, CustomID: "reroll:" + id}}}
	switch {
	case !vis.Secret():
		out.Rows = again
	case vis == kit.GMRoll:
		out.Followups[0].Rows = again
	}
	return out, nil
}

// suggestRolls autocompletes an expression: first what is being typed,
// checked as it is typed (a mistake shows before sending), then the user's
// recent expressions that contain it.
func (h *handlers) suggestRolls(ctx context.Context, req *kit.Request) (kit.Response, error) {
	typed := strings.TrimSpace(req.Options.String("expression"))
	var choices []kit.Choice
	if typed != "" && len(typed) <= kit.MaxChoiceStringLen {
		name := typed
		_, err := dice.Parse(typed)
		if err != nil {
			name = "⚠️ " + typed + ": " + err.Error()
		}
		choices = append(choices, kit.Choice{Name: name, Value: typed})
		if s := dice.Suggest(typed); err != nil && s != "" {
			choices = append(choices, kit.Choice{Name: "did you mean " + s, Value: s})
		}
	}
	// The saved rolls (/macro) whose names start with the word being
	// typed, before the recent expressions; a saved roll's name typed
	// whole is offered as the saved roll.
	if prefix, ok := macroPrefix(typed); ok && req.Command() == "roll" && h.Macros != nil {
		list, err := h.Macros.Macros(ctx, req.GuildID, req.User.ID)
		if err != nil {
			return kit.Response{}, err
		}
		saved := macroChoices(list, prefix, true)
		if len(saved) > 0 && saved[0].Value == strings.ToLower(typed) {
			choices = nil
		}
		choices = append(choices, saved...)
	}
	recent, err := h.Rolls.RecentExprs(ctx, req.User.ID, kit.MaxChoices)
	if err != nil {
		return kit.Response{}, err
	}
	for _, e := range recent {
		if len(choices) == kit.MaxChoices {
			break
		}
		if e != typed && len(e) <= kit.MaxChoiceStringLen && strings.Contains(strings.ReplaceAll(e, " ", ""), strings.ReplaceAll(typed, " ", "")) {
			choices = append(choices, kit.Choice{Name: e, Value: e})
		}
	}
	return kit.Response{Choices: choices}, nil
}

// nameError is the user's mistake of a name the roll could not read: a
// stat the sheet does not have, listing those it has, or any name with no
// sheet, saying how to give one.
func nameError(de *dice.Error, text string, st rollStats) error {
	if st.look == nil {
		return &kit.UserError{Msg: fmt.Sprintf("%s is a stat's name, and you have no character here to read it from: give the character whose sheet has it "+
			"(example: /roll expression:%q character:<name>), or create yours with /character set", de.Name, text), Detail: de.Detail(), Err: de}
	}
	who := "the roll's stats"
	if st.character != "" {
		who = kit.EscapeMarkdown(st.character)
	}
	if st.list == kit.FormatStats(nil) {
		return &kit.UserError{Msg: fmt.Sprintf("%s has no stat %s, nor any stat yet: add it with /character set name:%s stats:\"%s=3\"",
			who, de.Name, st.character, de.Name), Detail: de.Detail(), Err: de}
	}
	return &kit.UserError{Msg: fmt.Sprintf("%s has no stat %s: its stats are %s (example: /roll expression:\"%s\" character:%s)",
		who, de.Name, st.list, exampleWithStat(text, de, st.list), st.character), Detail: de.Detail(), Err: de}
}

// exampleWithStat returns text with the unknown name de points at
// replaced by the first stat of list, a FormatStats: a correct example.
func exampleWithStat(text string, de *dice.Error, list string) string {
	first, _, _ := strings.Cut(list, " ")
	if de.Pos < 0 || de.Pos+len(de.Name) > len(text) {
		return text
	}
	return text[:de.Pos] + first + text[de.Pos+len(de.Name):]
}

// macroPrefix reads typed, a roll being typed, as the start of a saved
// roll's name: "" for nothing typed yet, the word in lower case for a
// word alone. ok is false for anything else.
func macroPrefix(typed string) (string, bool) {
	if typed == "" {
		return "", true
	}
	call, ok := readMacroCall(typed)
	return call.name, ok && call.prefix == "" && call.rest == ""
}
