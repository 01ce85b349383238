package kit

import (
	"context"
	"strings"
	"unicode/utf8"
)

// ResponseType is the kind of answer, numbered as Discord's interaction
// callback types.
type ResponseType int

// Response types.
const (
	Message       ResponseType = 4 // a new message
	Deferred      ResponseType = 5 // "thinking...", a follow-up comes later
	UpdateMessage ResponseType = 7 // edit the message the clicked component is on
	Autocomplete  ResponseType = 8 // suggestions for the focused option
)

// Discord's limits on what one message may carry. Discord rejects a message
// over any of them, so every response is fitted before it leaves.
const (
	MaxContent         = 2000
	MaxEmbeds          = 10
	MaxEmbedTotal      = 6000
	MaxEmbedTitle      = 256
	MaxEmbedDesc       = 4096
	MaxEmbedFields     = 25
	MaxFieldName       = 256
	MaxFieldValue      = 1024
	MaxFooter          = 2048
	MaxChoices         = 25
	MaxActionRows      = 5
	MaxButtonsPerRow   = 5
	MaxButtonLabel     = 80
	MaxCustomID        = 100
	MaxChoiceNameLen   = 100
	MaxChoiceStringLen = 100
	MaxFiles           = 10
	MaxFileSize        = 10 << 20
)

// Response is what a handler answers.
type Response struct {
	Type      ResponseType
	Content   string
	Embeds    []Embed
	Rows      []Row
	Ephemeral bool
	// Choices answer an autocomplete request.
	Choices []Choice
	// Files are attachments: an image an embed shows, say.
	Files []File
	// MentionUsers are the user IDs the message may ping (the combatant
	// whose turn begins, say). Nobody else is ever pinged: user-supplied
	// text cannot mention @everyone, a role or another user.
	MentionUsers []string
	// Edit asks the edge to edit an earlier message of the bot as well:
	// the encounter tracker, kept up to date instead of posted again.
	Edit *MessageEdit
	// Posted, when set, is told the ID of the message this response
	// became, so that a later response can Edit it.
	Posted func(ctx context.Context, messageID string) error
	// Followups are sent after the answer as messages of their own: a ping
	// that an edited message cannot carry (Discord does not notify a
	// mention added by an edit).
	Followups []Response
	// Posts are messages the bot posts on its own in other channels (a
	// gm or blind roll, in the GM channel).
	Posts []Post
	// Result is the structured outcome for the console and tests; Discord
	// never sees it.
	Result any
}

// Embed is a rich block of a message.
type Embed struct {
	Title       string
	Description string
	Color       int
	Fields      []Field
	Footer      string
	// Image is the URL of a picture to show, e.g. "attachment://odds.png".
	Image string
}

// MessageEdit replaces the content, embeds and buttons of an earlier
// message of the bot.
type MessageEdit struct {
	ChannelID string
	MessageID string
	Content   string
	Embeds    []Embed
	Rows      []Row
}

// File is an attachment of a message. An embed shows an attached image
// with Image "attachment://" + Name.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Field is one name/value pair of an embed.
type Field struct {
	Name   string
	Value  string
	Inline bool
}

// Row is one action row of buttons.
type Row []Button

// ButtonStyle is Discord's button style.
type ButtonStyle int

// Button styles.
const (
	Primary   ButtonStyle = 1
	Secondary ButtonStyle = 2
	Success   ButtonStyle = 3
	Danger    ButtonStyle = 4
)

// Button is a clickable button; a click arrives as a KindComponent request
// with the button's CustomID.
type Button struct {
	Label    string
	Style    ButtonStyle
	CustomID string
	Disabled bool
}

// TruncNote ends text cut to fit one Discord message.
const TruncNote = "\n… (truncated: too long for one Discord message)"

// Fit holds r to Discord's message limits: over-long text is cut with a
// note, surplus embeds, fields, rows and choices are dropped. It never
// rejects: a long answer reaches the user shortened rather than not at all.
//
// Text too long for a message keeps the expression and total of every
// roll it shows, with fewer dice (Shorten); the whole text then comes
// with the message as an attachment, full.txt, where one can be.
func (r Response) Fit() Response {
	full := r.Content
	var cut bool
	r.Content, cut = Shorten(r.Content, MaxContent)
	if cut && (r.Type == 0 || r.Type == Message) && len(r.Files) < MaxFiles {
		r.Files = append(r.Files, File{Name: "full.txt", ContentType: "text/plain; charset=utf-8", Data: []byte(full)})
	}
	r.Embeds = fitEmbeds(r.Embeds)
	r.Rows = fitRows(r.Rows)
	r.Files = fitFiles(r.Files)
	if r.Edit != nil {
		e := *r.Edit
		fitted := Response{Content: e.Content, Embeds: e.Embeds, Rows: e.Rows}.Fit()
		e.Content, e.Embeds, e.Rows = fitted.Content, fitted.Embeds, fitted.Rows
		r.Edit = &e
	}
	if len(r.Followups) > 0 {
		fs := make([]Response, len(r.Followups))
		for i, f := range r.Followups {
			fs[i] = f.Fit()
		}
		r.Followups = fs
	}
	if len(r.Posts) > 0 {
		ps := make([]Post, len(r.Posts))
		for i, p := range r.Posts {
			p.Message = p.Message.Fit()
			ps[i] = p
		}
		r.Posts = ps
	}
	r.Choices = fitChoices(r.Choices)
	return r
}

// fitEmbeds holds each embed to its limits and all of them to their
// total: the first embed that does not fit is shrunk into what is left,
// and the rest dropped.
func fitEmbeds(in []Embed) []Embed {
	if len(in) > MaxEmbeds {
		in = in[:MaxEmbeds]
	}
	total := 0
	embeds := make([]Embed, 0, len(in))
	for _, e := range in {
		e = e.fit()
		if total+e.Size() > MaxEmbedTotal {
			if e, ok := e.Shrink(MaxEmbedTotal - total); ok {
				embeds = append(embeds, e)
			}
			break
		}
		total += e.Size()
		embeds = append(embeds, e)
	}
	if len(embeds) == 0 {
		return nil
	}
	return embeds
}

// fit holds one embed to the limits of its parts.
func (e Embed) fit() Embed {
	e.Title = Truncate(e.Title, MaxEmbedTitle, "…")
	e.Description, _ = Shorten(e.Description, MaxEmbedDesc)
	e.Footer = Truncate(e.Footer, MaxFooter, "…")
	if len(e.Fields) > MaxEmbedFields {
		e.Fields = e.Fields[:MaxEmbedFields]
	}
	fields := make([]Field, len(e.Fields))
	for i, f := range e.Fields {
		f.Name = Truncate(f.Name, MaxFieldName, "…")
		f.Value = Truncate(f.Value, MaxFieldValue, "…")
		if f.Name == "" {
			f.Name = "\u200b" // Discord rejects empty field names
		}
		if f.Value == "" {
			f.Value = "\u200b"
		}
		fields[i] = f
	}
	e.Fields = fields
	return e
}

// fitRows drops surplus rows and buttons and cuts long labels.
func fitRows(rows []Row) []Row {
	if len(rows) > MaxActionRows {
		rows = rows[:MaxActionRows]
	}
	for i, row := range rows {
		if len(row) > MaxButtonsPerRow {
			rows[i] = row[:MaxButtonsPerRow]
		}
		for j := range rows[i] {
			rows[i][j].Label = Truncate(rows[i][j].Label, MaxButtonLabel, "…")
		}
	}
	return rows
}

// fitFiles drops surplus files and those too large to attach.
func fitFiles(in []File) []File {
	if len(in) > MaxFiles {
		in = in[:MaxFiles]
	}
	files := in[:0:0]
	for _, f := range in {
		if len(f.Data) <= MaxFileSize {
			files = append(files, f)
		}
	}
	return files
}

// fitChoices holds autocomplete choices to Discord's limits. A string
// choice's value over the limit makes Discord reject the whole answer:
// such a choice is dropped, not cut (a cut value would be something else
// than what it names).
func fitChoices(in []Choice) []Choice {
	choices := in[:0:0]
	for _, c := range in {
		if v, ok := c.Value.(string); ok && utf8.RuneCountInString(v) > MaxChoiceStringLen {
			continue
		}
		choices = append(choices, c)
	}
	if len(choices) > MaxChoices {
		choices = choices[:MaxChoices]
	}
	for i := range choices {
		choices[i].Name = Truncate(choices[i].Name, MaxChoiceNameLen, "…")
	}
	return choices
}

// Shrink cuts e to at most budget characters: fields from the end first,
// then the description. ok is false when not even the title and footer fit.
func (e Embed) Shrink(budget int) (Embed, bool) {
	for len(e.Fields) > 0 && e.Size() > budget {
		e.Fields = e.Fields[:len(e.Fields)-1]
	}
	if over := e.Size() - budget; over > 0 {
		keep := utf8.RuneCountInString(e.Description) - over
		if keep < utf8.RuneCountInString(TruncNote) {
			return e, false
		}
		e.Description = Truncate(e.Description, keep, TruncNote)
	}
	return e, true
}

// Size is what e counts against Discord's total for a message's embeds.
func (e Embed) Size() int {
	n := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer)
	for _, f := range e.Fields {
		n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
	}
	return n
}

// Truncate cuts s to at most max characters, ending with note when it cuts.
func Truncate(s string, max int, note string) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	keep := max - utf8.RuneCountInString(note)
	if keep < 0 {
		keep = 0
	}
	i, n := 0, 0
	for i = range s {
		if n == keep {
			break
		}
		n++
	}
	return s[:i] + note
}

// Pages splits text between lines into messages of at most MaxContent
// characters each, so that a long list (a command's help) is read whole
// across several messages instead of cut. A line longer than a message
// is cut on its own (Truncate).
func Pages(text string) []string {
	var pages []string
	var page strings.Builder
	n := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		line = Truncate(line, MaxContent, "…\n")
		size := utf8.RuneCountInString(line)
		if n+size > MaxContent && n > 0 {
			pages = append(pages, strings.TrimSuffix(page.String(), "\n"))
			page.Reset()
			n = 0
		}
		page.WriteString(line)
		n += size
	}
	if n > 0 || len(pages) == 0 {
		pages = append(pages, strings.TrimSuffix(page.String(), "\n"))
	}
	return pages
}

// Paged is a private answer of text in as many messages as it takes (see
// Pages): the first its Content, the others follow-ups.
func Paged(text string) Response {
	pages := Pages(text)
	r := Response{Content: pages[0], Ephemeral: true}
	for _, p := range pages[1:] {
		r.Followups = append(r.Followups, Response{Type: Message, Content: p, Ephemeral: true})
	}
	return r
}
