package bot

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/commands/kit"
)

// ConsoleOptions configures the console.
type ConsoleOptions struct {
	Router *kit.Router
	// JSON prints one JSON object a command; otherwise readable text.
	JSON bool
	// User acts by default; a line may begin with @name to act as another.
	User string
	// GMs are the users with GM rights.
	GMs []string
	// Channel is where commands happen by default; #name on a line changes
	// it for that line.
	Channel string
	Guild   string
}

// ConsoleLine is one command's outcome in --json mode: the console
// contract, which other tests rely on. Keep it stable.
type ConsoleLine struct {
	Input    string                         `json:"input"`
	User     string                         `json:"user"`
	Channel  string                         `json:"channel"`
	Response *discordgo.InteractionResponse `json:"response"`
	Result   any                            `json:"result,omitempty"`
	Error    string                         `json:"error,omitempty"`
	// Files lists the attachments Discord would receive beside the
	// response (their bytes are not printed).
	Files []ConsoleFile `json:"files,omitempty"`
	// Edit is an earlier message the bot would edit as well (the
	// encounter tracker), as Discord would receive the edit.
	Edit *ConsoleEdit `json:"edit,omitempty"`
	// Followups are messages the bot would send after the answer.
	Followups []*discordgo.InteractionResponseData `json:"followups,omitempty"`
	// Posts are messages the bot would post on its own in other channels
	// (a gm or blind roll, in the GM channel).
	Posts []ConsolePost `json:"posts,omitempty"`
}

// ConsolePost is a message posted in another channel: which, and the
// message.
type ConsolePost struct {
	ChannelID string                             `json:"channel_id"`
	Data      *discordgo.InteractionResponseData `json:"data"`
}

// ConsoleEdit is a message edit: which message, and its new data.
type ConsoleEdit struct {
	MessageID string                             `json:"message_id"`
	Data      *discordgo.InteractionResponseData `json:"data"`
}

// ConsoleFile describes one attachment.
type ConsoleFile struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Size        int    `json:"size"`
}

// Console runs commands read from in, one a line, through the same router
// that serves Discord, and writes their outcomes to out. It returns nil when
// it has read in to the end, however many commands failed.
func Console(ctx context.Context, o ConsoleOptions, in io.Reader, out io.Writer) error {
	if o.User == "" {
		o.User = "player"
	}
	if o.Channel == "" {
		o.Channel = "table"
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	w := bufio.NewWriter(out)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		if err := ctx.Err(); err != nil {
			return err
		}
		input := strings.TrimSpace(sc.Text())
		if input == "" || strings.HasPrefix(input, "//") {
			continue
		}
		// A line is typed after the answers before it were read
		// (kit.Request.SeenAll), but one that begins with the word &,
		// typed at the same moment as the line before, as two people
		// type at once.
		seenAll, command := true, input
		if word, rest, _ := strings.Cut(input, " "); word == "&" {
			seenAll, command = false, strings.TrimSpace(rest)
		}
		line := runLine(ctx, o, lineNo, command, seenAll)
		line.Input = input
		if o.JSON {
			if err := enc.Encode(line); err != nil {
				return fmt.Errorf("write console output: %w", err)
			}
		} else {
			writeText(w, line)
		}
		// Flush per command, so a GM typing at the console sees each answer.
		if err := w.Flush(); err != nil {
			return fmt.Errorf("write console output: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read console input: %w", err)
	}
	return nil
}

// runLine parses and answers one console line.
func runLine(ctx context.Context, o ConsoleOptions, lineNo int, input string, seenAll bool) ConsoleLine {
	user, channel, rest := o.User, o.Channel, input
	// Leading @name and #name act as that user and in that channel.
	for {
		word, after, _ := strings.Cut(rest, " ")
		if len(word) > 1 && word[0] == '@' {
			user = word[1:]
		} else if len(word) > 1 && word[0] == '#' {
			channel = word[1:]
		} else {
			break
		}
		rest = strings.TrimSpace(after)
	}
	line := ConsoleLine{Input: input, User: user, Channel: channel}
	var req *kit.Request
	var err error
	switch {
	case strings.HasPrefix(rest, "click:"):
		// A click on the button whose custom_id follows.
		req = &kit.Request{Kind: kit.KindComponent, CustomID: strings.TrimPrefix(rest, "click:"), Options: kit.Options{}}
	case strings.HasPrefix(rest, "complete "):
		// Autocomplete for the last option of a command being typed.
		req, err = o.Router.ParseAutocomplete(strings.TrimPrefix(rest, "complete "))
	default:
		req, err = o.Router.ParseLine(rest)
	}
	if err != nil {
		req = &kit.Request{Kind: kit.KindCommand}
	}
	req.User = kit.User{ID: user, Name: user}
	req.ChannelID, req.GuildID = channel, o.Guild
	req.SeenAll = seenAll
	if slices.Contains(o.GMs, user) {
		req.Permissions |= kit.ManageChannels
	}
	var resp kit.Response
	if err == nil {
		resp, err = o.Router.Handle(ctx, req)
	} else {
		resp = o.Router.Failure(req, err)
	}
	line.Response = InteractionResponse(resp)
	line.Result = resp.Result
	// The console's messages are named by the line that made them, so a
	// handler that records its message (the tracker) can edit it later.
	if resp.Posted != nil {
		if perr := resp.Posted(ctx, fmt.Sprintf("console-%d", lineNo)); perr != nil && err == nil {
			err = perr
		}
	}
	if e := resp.Edit; e != nil {
		line.Edit = &ConsoleEdit{MessageID: e.MessageID, Data: editData(e)}
	}
	for _, f := range resp.Followups {
		line.Followups = append(line.Followups, InteractionResponse(f).Data)
	}
	for _, p := range resp.Posts {
		line.Posts = append(line.Posts, ConsolePost{ChannelID: p.ChannelID, Data: InteractionResponse(p.Message).Data})
	}
	for _, f := range resp.Files {
		line.Files = append(line.Files, ConsoleFile{Name: f.Name, ContentType: f.ContentType, Size: len(f.Data)})
	}
	if err != nil {
		line.Error = err.Error()
	}
	return line
}

// writeText prints a command's outcome roughly as Discord would show it.
func writeText(w io.Writer, l ConsoleLine) {
	fmt.Fprintf(w, "#%s %s> %s\n", l.Channel, l.User, l.Input)
	d := l.Response.Data
	if d == nil {
		return
	}
	writeData(w, d)
	if l.Edit != nil {
		fmt.Fprintf(w, "✎ edits message %s:\n", l.Edit.MessageID)
		writeData(w, l.Edit.Data)
	}
	for _, f := range l.Followups {
		fmt.Fprintln(w, "↳ then sends:")
		writeData(w, f)
		if f.Flags&discordgo.MessageFlagsEphemeral != 0 {
			fmt.Fprintln(w, "(only you can see this follow-up)")
		}
	}
	for _, p := range l.Posts {
		fmt.Fprintf(w, "📮 posts in #%s:\n", p.ChannelID)
		writeData(w, p.Data)
	}
	for _, f := range l.Files {
		fmt.Fprintf(w, "📎 %s (%s, %d bytes)\n", f.Name, f.ContentType, f.Size)
	}
	if d.Flags&discordgo.MessageFlagsEphemeral != 0 {
		fmt.Fprintln(w, "(only you can see this)")
	}
	fmt.Fprintln(w)
}

// writeData prints a message's content, embeds, buttons and choices.
func writeData(w io.Writer, d *discordgo.InteractionResponseData) {
	if d.Content != "" {
		fmt.Fprintln(w, d.Content)
	}
	for _, e := range d.Embeds {
		if e.Title != "" {
			fmt.Fprintf(w, "┃ %s\n", e.Title)
		}
		if e.Description != "" {
			fmt.Fprintf(w, "┃ %s\n", strings.ReplaceAll(e.Description, "\n", "\n┃ "))
		}
		for _, f := range e.Fields {
			fmt.Fprintf(w, "┃ %s: %s\n", f.Name, strings.ReplaceAll(f.Value, "\n", "\n┃   "))
		}
		if e.Footer != nil {
			fmt.Fprintf(w, "┃ %s\n", e.Footer.Text)
		}
	}
	for _, c := range d.Components {
		if row, ok := c.(discordgo.ActionsRow); ok {
			var labels []string
			for _, b := range row.Components {
				if btn, ok := b.(discordgo.Button); ok {
					labels = append(labels, "["+btn.Label+" → click:"+btn.CustomID+"]")
				}
			}
			fmt.Fprintln(w, strings.Join(labels, " "))
		}
	}
	for _, c := range d.Choices {
		fmt.Fprintf(w, "  • %s (%v)\n", c.Name, c.Value)
	}
}
