package bot

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/arc"
	"github.com/tablehand/tablehand/rules/burst"
	"github.com/tablehand/tablehand/rules/faction"
	"github.com/tablehand/tablehand/rules/ulm"
	"github.com/tablehand/tablehand/rules/xhalem"
)

// Secret is a credential. It prints as [redacted] in every format, log and
// JSON, so a token cannot leak through a log line or an error by accident.
type Secret string

func (Secret) String() string                  { return "[redacted]" }
func (Secret) GoString() string                { return "[redacted]" }
func (Secret) LogValue() slog.Value            { return slog.StringValue("[redacted]") }
func (Secret) MarshalText() ([]byte, error)    { return []byte("[redacted]"), nil }
func (s *Secret) UnmarshalText(b []byte) error { *s = Secret(b); return nil }

// Config is Tablehand's configuration. config.example.toml documents every
// key with its default; a test holds the two together.
type Config struct {
	// Token is the bot token (TABLEHAND_TOKEN).
	Token Secret `toml:"token"`
	// Database is the SQLite file (TABLEHAND_DB).
	Database string `toml:"database"`
	// DevGuild registers commands in one guild, where they update at once
	// (TABLEHAND_DEV_GUILD).
	DevGuild string `toml:"dev_guild"`
	// GMRoles are role IDs whose members are GMs besides those with Manage
	// Channels (TABLEHAND_GM_ROLES, comma separated).
	GMRoles []string `toml:"gm_roles"`
	// LogLevel is debug, info, warn or error (TABLEHAND_LOG_LEVEL).
	LogLevel string `toml:"log_level"`
	// APIURL sends Discord API requests to another base URL, such as an API
	// proxy (TABLEHAND_API_URL). Empty: Discord itself.
	APIURL string `toml:"api_url"`
	// PublicKey is the application's public key, hex, for the HTTP
	// interactions endpoint (TABLEHAND_PUBLIC_KEY).
	PublicKey string `toml:"public_key"`
	// Listen is the address the HTTP interactions endpoint listens on
	// (TABLEHAND_LISTEN).
	Listen string `toml:"listen"`

	// The rule systems' defaults for what their texts leave open.
	Arc    arc.Config    `toml:"arc"`
	Ulm    ulm.Config    `toml:"ulm"`
	Burst  burst.Config  `toml:"burst"`
	Xhalem xhalem.Config `toml:"xhalem"`
	// Faction is what a new faction campaign starts with (/faction).
	Faction faction.Config `toml:"faction"`
}

// Rules returns the rule systems' configuration, as the handlers take it.
func (c Config) Rules() kit.Rules {
	return kit.Rules{Arc: c.Arc, Ulm: c.Ulm, Burst: c.Burst, Xhalem: c.Xhalem, Faction: c.Faction}
}

// DefaultConfig returns the configuration used when nothing is set.
func DefaultConfig() Config {
	return Config{
		Database: db.DefaultPath, LogLevel: "info", Listen: "127.0.0.1:8080",
		Arc: arc.DefaultConfig(), Ulm: ulm.DefaultConfig(), Burst: burst.DefaultConfig(), Xhalem: xhalem.DefaultConfig(),
		Faction: faction.DefaultConfig(),
	}
}

// DefaultConfigFile is read when no --config is given, if it exists.
const DefaultConfigFile = "tablehand.toml"

// LoadConfig reads the TOML file at path over the defaults, then applies the
// environment (getenv, usually os.Getenv) over both. An empty path reads
// DefaultConfigFile when it exists. Unknown keys are an error, so a typo in
// a key is not silently ignored.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	explicit := path != ""
	if !explicit {
		path = DefaultConfigFile
	}
	md, err := toml.DecodeFile(path, &c)
	if err == nil {
		err = replaceLists(path, &c, md)
	}
	switch {
	case err == nil:
		if undec := md.Undecoded(); len(undec) > 0 {
			keys := make([]string, len(undec))
			for i, k := range undec {
				keys[i] = k.String()
			}
			return Config{}, fmt.Errorf("config %s: unknown keys %s (see config.example.toml)", path, strings.Join(keys, ", "))
		}
	case errors.Is(err, os.ErrNotExist) && !explicit:
		// No file: defaults and environment only.
	default:
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	if v := getenv("TABLEHAND_TOKEN"); v != "" {
		c.Token = Secret(v)
	}
	if v := getenv("TABLEHAND_DB"); v != "" {
		c.Database = v
	}
	if v := getenv("TABLEHAND_DEV_GUILD"); v != "" {
		c.DevGuild = v
	}
	if v := getenv("TABLEHAND_GM_ROLES"); v != "" {
		c.GMRoles = nil
		for _, r := range strings.Split(v, ",") {
			if r = strings.TrimSpace(r); r != "" {
				c.GMRoles = append(c.GMRoles, r)
			}
		}
	}
	if v := getenv("TABLEHAND_LOG_LEVEL"); v != "" {
		c.LogLevel = v
	}
	if v := getenv("TABLEHAND_API_URL"); v != "" {
		c.APIURL = v
	}
	if v := getenv("TABLEHAND_PUBLIC_KEY"); v != "" {
		c.PublicKey = v
	}
	if v := getenv("TABLEHAND_LISTEN"); v != "" {
		c.Listen = v
	}
	if _, err := c.Level(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// replaceLists makes every list the file gives replace the default list
// whole. Decoding over the defaults reuses the elements already there, so
// one [[faction.assets]] entry would otherwise be merged into the first
// default asset and leave the others in place.
func replaceLists(path string, c *Config, md toml.MetaData) error {
	var fresh Config
	if _, err := toml.DecodeFile(path, &fresh); err != nil {
		return err
	}
	var walk func(dst, src reflect.Value, key []string)
	walk = func(dst, src reflect.Value, key []string) {
		for i := 0; i < dst.NumField(); i++ {
			tag, _, _ := strings.Cut(dst.Type().Field(i).Tag.Get("toml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			k := append(key[:len(key):len(key)], tag)
			if !md.IsDefined(k...) {
				continue
			}
			switch f := dst.Field(i); f.Kind() {
			case reflect.Slice:
				f.Set(src.Field(i))
			case reflect.Struct:
				walk(f, src.Field(i), k)
			}
		}
	}
	walk(reflect.ValueOf(c).Elem(), reflect.ValueOf(&fresh).Elem(), nil)
	return nil
}

// Level returns the configured log level.
func (c Config) Level() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return 0, fmt.Errorf("config: log_level %q: use debug, info, warn or error", c.LogLevel)
	}
	return l, nil
}

// redact removes the token from an error's text: some transport errors
// quote request headers or URLs.
func redact(err error, token Secret) error {
	if err == nil || token == "" || !strings.Contains(err.Error(), string(token)) {
		return err
	}
	return redactedError{msg: strings.ReplaceAll(err.Error(), string(token), "[redacted]"), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }
