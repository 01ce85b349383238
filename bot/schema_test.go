package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
)

// discordSpecPath is Discord's own OpenAPI description of its HTTP API
// (shared/discord-api-spec, beside the project), seen from this package's
// directory, where `go test` runs.
const discordSpecPath = "../../shared/discord-api-spec/openapi.json"

// Names of the schemas under components.schemas that hold what Tablehand
// sends (see shared/discord-api-spec/README.md).
const (
	schemaCommand      = "ApplicationCommandUpdateRequest"
	schemaMessage      = "CreateMessageInteractionCallbackRequest"       // callback types 4 and 5
	schemaUpdate       = "UpdateMessageInteractionCallbackRequest"       // callback types 6 and 7
	schemaAutocomplete = "ApplicationCommandAutocompleteCallbackRequest" // callback type 8
	schemaEmbed        = "RichEmbed"
	schemaActionRow    = "ActionRowComponentForMessageRequest"
	schemaButton       = "ButtonComponentForMessageRequest"
)

// maxBulkOverwrite is the most commands one bulk overwrite may carry.
const maxBulkOverwrite = 130

// discordSpec holds Discord's schemas, compiled once per test run.
type discordSpec struct {
	compiler *jsonschema.Compiler
	url      string // of openapi.json, as added to compiler
	schemas  map[string]*jsonschema.Schema
}

// loadDiscordSpec reads openapi.json, relaxes its known gap and returns a
// compiler for its schemas. It skips t when the file is absent: a clone
// without ../shared cannot run this test.
func loadDiscordSpec(t *testing.T) *discordSpec {
	t.Helper()
	raw, err := os.ReadFile(discordSpecPath)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("skipping: Discord's OpenAPI description is absent (%s from bot/, i.e. shared/discord-api-spec/openapi.json beside the project); this test holds what the bot sends to Discord's own schemas", discordSpecPath)
	}
	if err != nil {
		t.Fatalf("read Discord's OpenAPI description: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("decode %s: %v", discordSpecPath, err)
	}
	if n := relaxMemberPermissions(doc); n == 0 {
		t.Fatalf("%s: no property default_member_permissions to relax; has the spec changed?", discordSpecPath)
	}
	// Named by its real path, so that errors point at the file.
	abs, err := filepath.Abs(discordSpecPath)
	if err != nil {
		t.Fatalf("locate %s: %v", discordSpecPath, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020) // OpenAPI 3.1 schemas are JSON Schema 2020-12
	if err := c.AddResource(abs, doc); err != nil {
		t.Fatalf("add %s: %v", discordSpecPath, err)
	}
	return &discordSpec{compiler: c, url: abs, schemas: map[string]*jsonschema.Schema{}}
}

// relaxMemberPermissions patches every property named
// default_member_permissions in the decoded document so that it also
// accepts a string of digits, and returns how many it patched.
//
// Why: the spec types the field of a command request as an integer (or
// null), but Discord takes the permission bit set as a string too, and
// discordgo always sends it as one (`json:"default_member_permissions,string"`).
// Without this every GM-only command would fail here although Discord
// accepts it. The original schema stays as one alternative, so an integer
// is still held to its range and anything else is still rejected.
func relaxMemberPermissions(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok {
			if orig, ok := props["default_member_permissions"]; ok {
				props["default_member_permissions"] = map[string]any{
					"anyOf": []any{
						// 17 digits hold the spec's maximum, 18014398509481983.
						map[string]any{"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "maxLength": json.Number("17")},
						orig,
					},
				}
				n++
			}
		}
		for _, child := range v {
			n += relaxMemberPermissions(child)
		}
	case []any:
		for _, child := range v {
			n += relaxMemberPermissions(child)
		}
	}
	return n
}

// schema returns the compiled schema components.schemas.<name>.
func (s *discordSpec) schema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	if sch, ok := s.schemas[name]; ok {
		return sch
	}
	sch, err := s.compiler.Compile(s.url + "#/components/schemas/" + name)
	if err != nil {
		t.Fatalf("compile schema %s: %v", name, err)
	}
	s.schemas[name] = sch
	return sch
}

// validate holds one JSON value, as decoded by jsonschema.UnmarshalJSON, to
// the named schema.
func (s *discordSpec) validate(t *testing.T, name string, v any) error {
	t.Helper()
	return s.schema(t, name).Validate(v)
}

// check reports, in full, every way v breaks the named schema.
func (s *discordSpec) check(t *testing.T, what, name string, v any) {
	t.Helper()
	if err := s.validate(t, name, v); err != nil {
		t.Errorf("%s does not match Discord's %s:\n%s\npayload: %s", what, name, fullError(err), compact(v))
	}
}

// reject fails t when v matches the named schema: the proof that the
// schema can fail at all.
func (s *discordSpec) reject(t *testing.T, what, name string, v any) {
	t.Helper()
	if err := s.validate(t, name, v); err == nil {
		t.Errorf("%s matches Discord's %s, but Discord rejects it; the schema check is not biting\npayload: %s", what, name, compact(v))
	} else {
		// Only the start: the rest is the same complaint about every item.
		msg := fullError(err)
		if lines := strings.Split(msg, "\n"); len(lines) > 15 {
			msg = strings.Join(lines[:15], "\n") + fmt.Sprintf("\n  … and %d more lines", len(lines)-15)
		}
		t.Logf("%s rejected as expected:\n%s", what, msg)
	}
}

// fullError renders a validation error with every cause and the schema
// location of each.
func fullError(err error) string {
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return ve.GoString()
	}
	return err.Error()
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	const max = 4000
	if len(b) > max {
		return string(b[:max]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}

// wire marshals v with encoding/json, as discordgo does for a request body,
// and decodes it the way the validator wants (numbers as json.Number).
func wire(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode marshalled %T: %v", v, err)
	}
	return doc
}

func TestDiscordSchemas(t *testing.T) {
	spec := loadDiscordSpec(t)

	t.Run("commands", func(t *testing.T) {
		defs := commands.New(kit.NewDeps(nil, nil)).Commands()
		body, ok := wire(t, ApplicationCommands(defs)).([]any)
		if !ok {
			t.Fatalf("the bulk overwrite body is not a JSON array")
		}
		if len(body) == 0 || len(body) > maxBulkOverwrite {
			t.Errorf("bulk overwrite of %d commands; Discord takes 1 to %d", len(body), maxBulkOverwrite)
		}
		if len(body) != len(defs) {
			t.Errorf("%d definitions became %d commands", len(defs), len(body))
		}
		for i, c := range body {
			name := fmt.Sprintf("#%d", i)
			if i < len(defs) {
				name = "/" + defs[i].Name
			}
			spec.check(t, "command "+name, schemaCommand, c)
		}
	})

	// A GM-only command carries default_member_permissions, which discordgo
	// sends as a string: it must pass (the relaxed gap) while a non-numeric
	// string still fails.
	t.Run("gm-only command", func(t *testing.T) {
		gm := ApplicationCommands([]kit.Command{{
			Name: "gmtest", Description: "A GM-only command", GMOnly: true,
			Options: []kit.Option{{Type: kit.Integer, Name: "n", Description: "A number", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(20)}},
		}})
		doc := wire(t, gm[0]).(map[string]any)
		if _, ok := doc["default_member_permissions"].(string); !ok {
			t.Fatalf("default_member_permissions is %#v, expected the string discordgo sends", doc["default_member_permissions"])
		}
		spec.check(t, "GM-only command", schemaCommand, doc)
		doc["default_member_permissions"] = "manage channels"
		spec.reject(t, "default_member_permissions that is not a number", schemaCommand, doc)
	})

	t.Run("invalid commands are rejected", func(t *testing.T) {
		long := &discordgo.ApplicationCommand{
			Type: discordgo.ChatApplicationCommand, Name: "long",
			Description: strings.Repeat("d", 150),
		}
		spec.reject(t, "a command with a 150-character description", schemaCommand, wire(t, long))

		badOption := &discordgo.ApplicationCommand{
			Type: discordgo.ChatApplicationCommand, Name: "bad", Description: "An option of no known type",
			Options: []*discordgo.ApplicationCommandOption{{Type: 99, Name: "what", Description: "Nothing Discord knows"}},
		}
		spec.reject(t, "a command with an option of type 99", schemaCommand, wire(t, badOption))

		var many []*discordgo.ApplicationCommandOption
		for i := range 26 {
			many = append(many, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: fmt.Sprintf("o%d", i), Description: "An option"})
		}
		tooMany := &discordgo.ApplicationCommand{Type: discordgo.ChatApplicationCommand, Name: "many", Description: "26 options", Options: many}
		spec.reject(t, "a command with 26 options", schemaCommand, wire(t, tooMany))
	})

	t.Run("responses", func(t *testing.T) {
		for _, tc := range sampleResponses(t) {
			t.Run(tc.name, func(t *testing.T) {
				spec.checkResponse(t, tc.resp.Fit())
			})
		}
	})

	// What an unfitted response would send must fail: the callback schemas
	// do hold message limits.
	t.Run("over-limit responses are rejected", func(t *testing.T) {
		content := InteractionResponse(kit.Response{Type: kit.Message, Content: strings.Repeat("x", kit.MaxContent+1)})
		spec.reject(t, "a message of 2001 characters", schemaMessage, wire(t, content))

		fields := make([]kit.Field, kit.MaxEmbedFields+1)
		for i := range fields {
			fields[i] = kit.Field{Name: "n", Value: "v"}
		}
		embed := InteractionResponse(kit.Response{Type: kit.Message, Embeds: []kit.Embed{{Title: "t", Fields: fields}}})
		spec.reject(t, "an embed of 26 fields", schemaMessage, wire(t, embed))

		update := InteractionResponse(kit.Response{Type: kit.UpdateMessage, Content: "x"})
		spec.reject(t, "an update (type 7) held to the new-message schema", schemaMessage, wire(t, update))

		choices := make([]kit.Choice, kit.MaxChoices+1)
		for i := range choices {
			choices[i] = kit.Choice{Name: fmt.Sprint(i), Value: fmt.Sprint(i)}
		}
		ac := InteractionResponse(kit.Response{Type: kit.Autocomplete, Choices: choices})
		spec.reject(t, "26 autocomplete choices", schemaAutocomplete, wire(t, ac))
	})
}

// checkResponse converts r as the router's edge does and holds the result to
// the callback schema of its type, and its embeds, rows and buttons to
// their own schemas (whose errors are easier to read).
func (s *discordSpec) checkResponse(t *testing.T, r kit.Response) {
	t.Helper()
	ir := InteractionResponse(r)
	doc, ok := wire(t, ir).(map[string]any)
	if !ok {
		t.Fatalf("the interaction response is not a JSON object")
	}
	var name string
	switch ir.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		name = schemaMessage
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		name = schemaUpdate
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		name = schemaAutocomplete
	default:
		t.Fatalf("callback type %d has no schema here; payload: %s", ir.Type, compact(doc))
	}
	s.check(t, fmt.Sprintf("callback (type %d)", ir.Type), name, doc)

	data, _ := doc["data"].(map[string]any)
	embeds, _ := data["embeds"].([]any)
	for i, e := range embeds {
		s.check(t, fmt.Sprintf("embed %d", i), schemaEmbed, e)
	}
	rows, _ := data["components"].([]any)
	for i, row := range rows {
		s.check(t, fmt.Sprintf("action row %d", i), schemaActionRow, row)
		rm, _ := row.(map[string]any)
		buttons, _ := rm["components"].([]any)
		for j, b := range buttons {
			s.check(t, fmt.Sprintf("button %d of row %d", j, i), schemaButton, b)
		}
	}
}

type responseCase struct {
	name string
	resp kit.Response
}

// sampleResponses returns one response of every kind Tablehand sends.
func sampleResponses(t *testing.T) []responseCase {
	t.Helper()
	router := commands.New(kit.NewDeps(nil, nil))

	// Real answers from the router: /help and the failures users see.
	help, err := router.Handle(t.Context(), &kit.Request{Kind: kit.KindCommand, Path: "help", User: kit.User{ID: "1", Name: "Ada"}, Options: kit.Options{}})
	if err != nil {
		t.Fatalf("/help: %v", err)
	}
	userErr := router.Failure(&kit.Request{Kind: kit.KindCommand, Path: "roll"},
		&kit.UserError{Msg: "unexpected \"+\" at column 5", Detail: "2d6++3\n    ^"})
	internalErr := router.Failure(&kit.Request{Kind: kit.KindCommand, Path: "roll"}, errors.New("database is locked"))
	noChoices := router.Failure(&kit.Request{Kind: kit.KindAutocomplete, Path: "roll", Focused: "expression"}, errors.New("no roll log"))

	long := func(n int) string { return strings.Repeat("ab ", n/3+1)[:n] }
	var bigFields []kit.Field
	for i := range 30 {
		bigFields = append(bigFields, kit.Field{Name: long(300), Value: long(2000), Inline: i%2 == 0})
	}
	var bigEmbeds []kit.Embed
	for range 12 {
		bigEmbeds = append(bigEmbeds, kit.Embed{Title: long(300), Description: long(5000), Color: 0xFFFFFF, Fields: bigFields, Footer: long(3000)})
	}
	var bigRows []kit.Row
	for i := range 7 {
		var row kit.Row
		for j := range 7 {
			row = append(row, kit.Button{Label: long(100), Style: kit.Secondary, CustomID: fmt.Sprintf("big:%d:%d", i, j)})
		}
		bigRows = append(bigRows, row)
	}
	var manyChoices []kit.Choice
	for i := range 30 {
		manyChoices = append(manyChoices, kit.Choice{Name: fmt.Sprintf("%d %s", i, long(150)), Value: fmt.Sprintf("%dd20", i+1)})
	}

	return []responseCase{
		{"plain message", kit.Response{Type: kit.Message, Content: "🎲 **Ada** rolled `1d20+5`\n[17] + 5 = **22**"}},
		{"help", help},
		{"ephemeral user error", userErr},
		{"ephemeral internal error", internalErr},
		{"embeds and buttons", kit.Response{
			Type:    kit.Message,
			Content: "Initiative",
			Embeds: []kit.Embed{
				{
					Title: "Round 1", Description: "Ada acts first.", Color: 0x5865F2,
					Fields: []kit.Field{{Name: "Ada", Value: "22", Inline: true}, {Name: "Goblin", Value: "14", Inline: true}, {Name: "", Value: ""}},
					Footer: "roll 7KQ2M4",
				},
				{Description: "A second embed with only a description."},
			},
			Rows: []kit.Row{{
				{Label: "Next", Style: kit.Primary, CustomID: "init:next"},
				{Label: "Roll again", Style: kit.Secondary, CustomID: "reroll:7KQ2M4"},
				{Label: "Done", Style: kit.Success, CustomID: "init:done"},
				{Label: "End", Style: kit.Danger, CustomID: "init:end", Disabled: true},
			}},
		}},
		{"over the limits, fitted", kit.Response{
			Type: kit.Message, Content: long(5000), Embeds: bigEmbeds, Rows: bigRows, Ephemeral: true,
		}},
		{"deferred", kit.Response{Type: kit.Deferred, Ephemeral: true}},
		{"update", kit.Response{
			Type: kit.UpdateMessage, Content: "Round 2: the Goblin acts.",
			Rows: []kit.Row{{{Label: "Next", Style: kit.Primary, CustomID: "init:next", Disabled: true}}},
		}},
		{"update removing buttons", kit.Response{Type: kit.UpdateMessage, Content: "Combat is over."}},
		{"autocomplete strings", kit.Response{Type: kit.Autocomplete, Choices: []kit.Choice{
			{Name: "1d20+5", Value: "1d20+5"}, {Name: "⚠️ 2d6+: expected a number after \"+\"", Value: "2d6+"},
		}}},
		{"autocomplete integers", kit.Response{Type: kit.Autocomplete, Choices: []kit.Choice{
			{Name: "one", Value: int64(1)}, {Name: "twenty", Value: int64(20)},
		}}},
		{"autocomplete over the limits, fitted", kit.Response{Type: kit.Autocomplete, Choices: manyChoices}},
		{"autocomplete without choices", noChoices},
	}
}

// A message may ping exactly the users it names, and nobody else.
func TestMentionsOnlyNamedUsers(t *testing.T) {
	ir := InteractionResponse(kit.Response{Type: kit.Message, Content: "<@42>, your turn (@everyone)", MentionUsers: []string{"42"}})
	b, err := json.Marshal(ir.Data.AllowedMentions)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"parse":[],"users":["42"],"replied_user":false}` {
		t.Errorf("allowed_mentions = %s", b)
	}
	ir = InteractionResponse(kit.Response{Type: kit.Message, Content: "@everyone"})
	if b, err = json.Marshal(ir.Data.AllowedMentions); err != nil || string(b) != `{"parse":[],"replied_user":false}` {
		t.Errorf("allowed_mentions without mentions = %s", b)
	}
}

// A malformed payload with a null option must not panic the edge.
func TestRequestSkipsNullOptions(t *testing.T) {
	var i discordgo.Interaction
	if err := json.Unmarshal([]byte(`{"id":"1","type":2,"data":{"name":"roll","options":[null,{"name":"expression","type":3,"value":"1d6"}]}}`), &i); err != nil {
		t.Fatal(err)
	}
	req := Request(&i)
	if req.Path != "roll" || req.Options.String("expression") != "1d6" {
		t.Errorf("request = %+v", req)
	}
	if err := json.Unmarshal([]byte(`{"id":"1","type":2,"data":{"name":"init","options":[null]}}`), &i); err != nil {
		t.Fatal(err)
	}
	if req := Request(&i); req.Path != "init" {
		t.Errorf("request = %+v", req)
	}
}
