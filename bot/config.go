package bot

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
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
	// DatabaseURL, when set, selects PostgreSQL instead of the SQLite
	// file: postgres://user[:password]@host[:port]/database
	// (TABLEHAND_DATABASE_URL). It may hold a password, so it is a Secret.
	DatabaseURL Secret `toml:"database_url"`
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
	// PublicURL is the address people reach the read-only web pages at
	// (a TLS proxy in front, as for the endpoint): the base of the links
	// /faction page gives; "" gives none. WebListen is the address serve
	// serves the pages on (--web); http serves them beside the endpoint.
	PublicURL string `toml:"public_url"`
	WebListen string `toml:"web_listen"`
	// PageSecret is what the pages' tokens are derived from
	// (TABLEHAND_PAGE_SECRET), at least 32 bytes: "" keeps a key in a
	// file beside the SQLite database (PATH.pagekey), or for PostgreSQL
	// in tablehand.pagekey in the working directory, made when first
	// needed. Replicas on one PostgreSQL set the same page_secret.
	PageSecret Secret `toml:"page_secret"`
	// PageStreamsPerLink caps the live pages following one link (event
	// streams; past it, 429), PageStreams those open in all (503).
	PageStreamsPerLink int `toml:"page_streams_per_link"`
	PageStreams        int `toml:"page_streams"`

	// Rules holds each rule system's configuration, by its name: what its
	// text leaves open. The file's section [name] of a system is decoded
	// over the system's defaults (see configFile).
	Rules kit.Rules `toml:"-"`
}

// DefaultConfig returns the configuration used when nothing is set.
func DefaultConfig() Config { return DefaultConfigFor(commands.Systems) }

// DefaultConfigFor is DefaultConfig for the rule systems given.
func DefaultConfigFor(systems []kit.System) Config {
	return Config{
		Database: db.DefaultPath, LogLevel: "info", Listen: "127.0.0.1:8080",
		PageStreamsPerLink: DefaultStreamsPerLink, PageStreams: DefaultStreams,
		Rules: kit.Rules{}.WithDefaults(systems),
	}
}

// PageKeyFile is the page secret's key file of a PostgreSQL store
// without page_secret.
const PageKeyFile = "tablehand.pagekey"

// StoreOptions are the store's options the configuration gives: where
// the page secret is.
func (c Config) StoreOptions() []db.Option {
	switch {
	case c.PageSecret != "":
		return []db.Option{db.WithPageSecret([]byte(c.PageSecret))}
	case c.DatabaseURL != "":
		return []db.Option{db.WithPageKeyFile(PageKeyFile)}
	}
	return nil // the key file beside the SQLite database
}

// WebOptions are the pages' options the configuration gives.
func (c Config) WebOptions() WebOptions {
	return WebOptions{MaxStreamsPerLink: c.PageStreamsPerLink, MaxStreams: c.PageStreams}
}

// Store is the database the configuration selects, as db.Open takes it:
// the PostgreSQL URL when database_url is set, else the SQLite file.
func (c Config) Store() string {
	if c.DatabaseURL != "" {
		return string(c.DatabaseURL)
	}
	return c.Database
}

// Use makes source the store, as --db does: the flag on the command line
// wins over the file and the environment. A SQLite path is the usual
// value; a postgres:// URL is taken as well (a test or a one-off command
// on a PostgreSQL database).
func (c *Config) Use(source string) {
	if db.IsPostgresURL(source) {
		c.DatabaseURL = Secret(source)
		return
	}
	c.Database, c.DatabaseURL = source, ""
}

// DefaultConfigFile is read when no --config is given, if it exists.
const DefaultConfigFile = "tablehand.toml"

// LoadConfig reads the TOML file at path over the defaults, then applies the
// environment (getenv, usually os.Getenv) over both. An empty path reads
// DefaultConfigFile when it exists. Unknown keys are an error, so a typo in
// a key is not silently ignored, and so is a rule system's section its
// rules cannot work with (kit.Rules.Validate), named: "config
// tablehand.toml: [ulm]: ...".
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	return LoadConfigFor(commands.Systems, path, getenv)
}

// LoadConfigFor is LoadConfig for the rule systems given: each reads its
// own section.
func LoadConfigFor(systems []kit.System, path string, getenv func(string) string) (Config, error) {
	c := DefaultConfigFor(systems)
	explicit := path != ""
	if !explicit {
		path = DefaultConfigFile
	}
	file := newConfigFile(systems, c)
	md, err := toml.DecodeFile(path, file.Interface())
	if err == nil {
		err = replaceLists(path, file, md)
	}
	if err == nil {
		c = file.config(systems)
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
		return Config{}, fmt.Errorf("config %s: %w", path, quietParseError(err))
	}
	if v := getenv("TABLEHAND_TOKEN"); v != "" {
		c.Token = Secret(v)
	}
	if v := getenv("TABLEHAND_DB"); v != "" {
		c.Database = v
	}
	if v := getenv("TABLEHAND_DATABASE_URL"); v != "" {
		if getenv("TABLEHAND_DB") != "" {
			return Config{}, errors.New("TABLEHAND_DB and TABLEHAND_DATABASE_URL are both set: Tablehand uses one store at a time, set one of them")
		}
		c.DatabaseURL = Secret(v)
	}
	if c.DatabaseURL != "" && !db.IsPostgresURL(string(c.DatabaseURL)) {
		return Config{}, errors.New("database_url must start with postgres:// or postgresql://, e.g. postgres://tablehand@db.example.org/tablehand")
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
	if v := getenv("TABLEHAND_PUBLIC_URL"); v != "" {
		c.PublicURL = v
	}
	if v := getenv("TABLEHAND_WEB_LISTEN"); v != "" {
		c.WebListen = v
	}
	if v := getenv("TABLEHAND_PAGE_SECRET"); v != "" {
		c.PageSecret = Secret(v)
	}
	if c.PageSecret != "" && len(c.PageSecret) < db.MinPageSecret {
		return Config{}, fmt.Errorf("page_secret must be at least %d characters, e.g. 64 hex digits from `openssl rand -hex 32`", db.MinPageSecret)
	}
	if c.PageStreamsPerLink < 1 || c.PageStreams < 1 {
		return Config{}, fmt.Errorf("page_streams_per_link (%d) and page_streams (%d) must be at least 1", c.PageStreamsPerLink, c.PageStreams)
	}
	if _, err := c.Level(); err != nil {
		return Config{}, err
	}
	if err := c.Rules.Validate(systems); err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// replaceLists makes every list the file gives replace the default list
// whole. Decoding over the defaults reuses the elements already there, so
// one [[faction.assets]] entry would otherwise be merged into the first
// default asset and leave the others in place.
func replaceLists(path string, c configFile, md toml.MetaData) error {
	fresh := reflect.New(c.Elem().Type())
	if _, err := toml.DecodeFile(path, fresh.Interface()); err != nil {
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
	walk(c.Elem(), fresh.Elem(), nil)
	return nil
}

// configFile is what a config file decodes into: a pointer to a struct
// made at run time with Config's own fields and one field for each rule
// system, tagged with its name and of the type of its defaults. Decoding
// into it keeps what the TOML package checks for a plain struct: unknown
// keys in any section, types, and the lists replaceLists replaces whole.
type configFile struct{ reflect.Value }

// newConfigFile returns the configFile for systems, holding c.
func newConfigFile(systems []kit.System, c Config) configFile {
	base := reflect.TypeOf(c)
	var fields []reflect.StructField
	for i := 0; i < base.NumField(); i++ {
		if f := base.Field(i); f.Tag.Get("toml") != "-" {
			fields = append(fields, f)
		}
	}
	for i, s := range systems {
		fields = append(fields, reflect.StructField{
			Name: fmt.Sprintf("System%d", i),
			Type: reflect.TypeOf(c.Rules[s.Name]),
			Tag:  reflect.StructTag(fmt.Sprintf("toml:%q", s.Name)),
		})
	}
	v := reflect.New(reflect.StructOf(fields))
	for i := 0; i < base.NumField(); i++ {
		if f := base.Field(i); f.Tag.Get("toml") != "-" {
			v.Elem().FieldByName(f.Name).Set(reflect.ValueOf(c).Field(i))
		}
	}
	for i, s := range systems {
		v.Elem().FieldByName(fmt.Sprintf("System%d", i)).Set(reflect.ValueOf(c.Rules[s.Name]))
	}
	return configFile{v}
}

// config returns the Config the file holds.
func (f configFile) config(systems []kit.System) Config {
	var c Config
	cv := reflect.ValueOf(&c).Elem()
	for i := 0; i < cv.NumField(); i++ {
		if tf := cv.Type().Field(i); tf.Tag.Get("toml") != "-" {
			cv.Field(i).Set(f.Elem().FieldByName(tf.Name))
		}
	}
	c.Rules = kit.Rules{}
	for i, s := range systems {
		c.Rules[s.Name] = f.Elem().FieldByName(fmt.Sprintf("System%d", i)).Interface()
	}
	return c
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

// quotedExcerpt is what a TOML parse error quotes of the file.
var quotedExcerpt = regexp.MustCompile(`"[^"]*"|'[^']*'`)

// quietParseError is err without the file's text: the TOML parser quotes
// what it found where it failed, which may be the start of a token or a
// password. The line, the column and the key say where to look.
func quietParseError(err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	msg := quotedExcerpt.ReplaceAllString(pe.Message, "(text not repeated)")
	where := fmt.Sprintf("line %d, column %d", pe.Position.Line, pe.Position.Col)
	if pe.LastKey != "" {
		where += fmt.Sprintf(" (after key %s)", pe.LastKey)
	}
	return fmt.Errorf("not valid TOML at %s: %s", where, msg)
}
