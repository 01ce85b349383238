package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/arc"
	"github.com/tablehand/tablehand/rules/faction"

	"github.com/BurntSushi/toml"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestExampleConfigDocumentsEveryKeyWithItsDefault(t *testing.T) {
	def := DefaultConfig()
	file := newConfigFile(commands.Systems, def)
	md, err := toml.DecodeFile("../config.example.toml", file.Interface())
	if err != nil {
		t.Fatal(err)
	}
	if undec := md.Undecoded(); len(undec) > 0 {
		t.Errorf("config.example.toml has keys Config does not know: %v", undec)
	}
	// Every key, in every section, must be in the example.
	var walk func(typ reflect.Type, path []string)
	walk = func(typ reflect.Type, path []string) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			key := append(append([]string{}, path...), f.Tag.Get("toml"))
			if !md.IsDefined(key...) {
				t.Errorf("config.example.toml does not document %q", strings.Join(key, "."))
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, key)
			}
		}
	}
	walk(file.Elem().Type(), nil)
	// Decoded over the defaults, the example must give the defaults back:
	// decode it again over an empty configuration to compare.
	empty := Config{Rules: kit.Rules{}}
	for _, s := range commands.Systems {
		empty.Rules[s.Name] = reflect.Zero(reflect.TypeOf(def.Rules[s.Name])).Interface()
	}
	file = newConfigFile(commands.Systems, empty)
	if _, err := toml.DecodeFile("../config.example.toml", file.Interface()); err != nil {
		t.Fatal(err)
	}
	c := file.config(commands.Systems)
	if len(c.GMRoles) == 0 && len(def.GMRoles) == 0 {
		c.GMRoles = def.GMRoles // [] and nil mean the same here
	}
	if !reflect.DeepEqual(c, def) {
		t.Errorf("config.example.toml shows %+v, but the defaults are %+v", c, def)
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.toml")
	if err := os.WriteFile(file, []byte(`token = "from-file"
database = "file.db"
gm_roles = ["111", "222"]
log_level = "debug"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(file, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != "from-file" || c.Database != "file.db" || len(c.GMRoles) != 2 || c.LogLevel != "debug" || c.DevGuild != "" {
		t.Errorf("from file: %#v", c)
	}
	c, err = LoadConfig(file, env(map[string]string{
		"TABLEHAND_TOKEN": "from-env", "TABLEHAND_DB": "env.db", "TABLEHAND_DEV_GUILD": "42", "TABLEHAND_GM_ROLES": " 9, 8 ,", "TABLEHAND_LOG_LEVEL": "warn",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != "from-env" || c.Database != "env.db" || c.DevGuild != "42" || !reflect.DeepEqual(c.GMRoles, []string{"9", "8"}) || c.LogLevel != "warn" {
		t.Errorf("environment over file: %#v", c)
	}

	if err := os.WriteFile(file, []byte("tokn = \"typo\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(file, env(nil)); err == nil || !strings.Contains(err.Error(), "tokn") {
		t.Errorf("a misspelt key: err = %v, want it named", err)
	}
	if _, err := LoadConfig(filepath.Join(dir, "missing.toml"), env(nil)); err == nil {
		t.Error("an explicit config file that does not exist: no error")
	}
	if _, err := LoadConfig("", env(map[string]string{"TABLEHAND_LOG_LEVEL": "loud"})); err == nil {
		t.Error("a bad log level: no error")
	}
	t.Chdir(dir) // no tablehand.toml here: defaults
	if c, err := LoadConfig("", env(nil)); err != nil || !reflect.DeepEqual(c, DefaultConfig()) {
		t.Errorf("no file, no environment: %#v, %v; want the defaults", c, err)
	}
}

// A rule system's section its rules cannot work with is refused when the
// file loads, naming the section, not on some later request.
func TestLoadConfigValidatesEachSystem(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.toml")
	if err := os.WriteFile(file, []byte("[ulm]\nmodifier_mode = \"multiply\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(file, env(nil))
	if err == nil || !strings.Contains(err.Error(), "[ulm]") || !strings.Contains(err.Error(), "modifier_mode") {
		t.Errorf("a bad [ulm] section: err = %v, want it named", err)
	}
}

func TestTokenNeverPrinted(t *testing.T) {
	const token = "MTIzNDU2Nzg5.secret-token"
	c := DefaultConfig()
	c.Token = token
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	log.Info("config", "config", c, "token", c.Token)
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("config", "config", c, "token", c.Token)
	js, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Sprintf("%v %+v %#v %s %q", c, c, c, c.Token, c.Token) + logs.String() + string(js)
	if strings.Contains(out, "secret-token") {
		t.Errorf("the token leaked: %s", out)
	}
	err = redact(fmt.Errorf("dial: bad header Authorization: Bot %s", token), c.Token)
	if strings.Contains(err.Error(), "secret-token") {
		t.Errorf("redact left the token in: %v", err)
	}
}

// A list in the file replaces the default list whole: one asset given is
// the whole chart, not a change to the first default asset.
func TestConfigListsReplaceDefaults(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.toml")
	if err := os.WriteFile(file, []byte(`[arc]
es_dice = [6, 6, 8, 8, 10, 10, 12, 12, 20, 20]

[[faction.assets]]
name = "Garage"
category = "Facility"
type = "RES"
level = 1
`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(file, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := kit.RulesOf[faction.Config](c.Rules, faction.SystemName).Assets; len(got) != 1 || got[0].Name != "Garage" || len(got[0].Specials) != 0 || got[0].Text != "" {
		t.Errorf("assets = %+v; want the one Garage, nothing of the defaults", got)
	}
	if kit.RulesOf[arc.Config](c.Rules, arc.SystemName).ESDice[8] != 20 || len(kit.RulesOf[arc.Config](c.Rules, arc.SystemName).ESDice) != 10 {
		t.Errorf("es_dice = %v", kit.RulesOf[arc.Config](c.Rules, arc.SystemName).ESDice)
	}
	if len(kit.RulesOf[faction.Config](c.Rules, faction.SystemName).Memes) != len(kit.RulesOf[faction.Config](DefaultConfig().Rules, faction.SystemName).Memes) {
		t.Errorf("memes not given, yet changed: %d, want the %d defaults", len(kit.RulesOf[faction.Config](c.Rules, faction.SystemName).Memes), len(kit.RulesOf[faction.Config](DefaultConfig().Rules, faction.SystemName).Memes))
	}
}

// A TOML parse error says where, not what: the parser quotes what it found
// there, which may be the start of a token (issue 25, item 5).
func TestConfigParseErrorQuotesNoValue(t *testing.T) {
	for _, body := range []string{
		"token = MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.Gsecret\n",
		"database_url = postgres://tablehand:hunter2@db/tablehand\n",
	} {
		file := filepath.Join(t.TempDir(), "tablehand.toml")
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(file, env(nil))
		if err == nil {
			t.Fatalf("%q: no error", body)
		}
		for _, secret := range []string{"MTIz", "Gsecret", "postgres:", "hunter2"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error repeats the file's text %q: %v", secret, err)
			}
		}
		if !strings.Contains(err.Error(), "line 1, column") {
			t.Errorf("the error does not say where: %v", err)
		}
	}
}
