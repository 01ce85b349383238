package kit

import "context"

// Pipeline is the one way the subcommands of a rule system go, after the
// router has found the route, checked the GM and held the options to
// their definition: Open opens the call (the sheet of `character:`, the
// tray of `dice:`, who sees the result) with the system's configuration,
// typed C (validated once, when it loaded); the handler reads its options
// through the call, keeping the first mistake; Rule (or Serve, which does
// all three) applies the rules, their errors shown as the system shows
// them; and Answer logs the roll and answers (Tell, for a call that logs
// nothing). A system declares its Pipeline once, and its handlers supply
// only what is their own: what they read, the rules they apply, and the
// words of the answer.
type Pipeline[C any] struct {
	// System is the system's name: its sheets, its configuration.
	System string
	// DiceLast opens the calls with BeginDiceLast: a mistake in `dice:`
	// is named after the other options', as the rules roll last.
	DiceLast bool
	// OwnSheet reads, without character:, the asker's one character of
	// the system (DefaultSheet), and the reply says which it read.
	OwnSheet bool
	// RulesError shows an error of the system's rules to the user (see
	// Rule); nil shows it as Call.RulesError does.
	RulesError func(c *Call, err error, example string) error
}

// Open opens the call of req in env for p's system, and returns the
// system's configuration.
func (p Pipeline[C]) Open(ctx context.Context, env *Env, req *Request) (*Call, C, error) {
	cfg := RulesOf[C](env.Rules, p.System)
	begin := env.Begin
	if p.DiceLast {
		begin = env.BeginDiceLast
	}
	c, err := begin(ctx, req, p.System)
	if err != nil {
		return nil, cfg, err
	}
	if p.OwnSheet && c.Sheet.c == nil {
		if c.Sheet, err = env.DefaultSheet(ctx, req, p.System); err != nil {
			return nil, cfg, err
		}
	}
	c.rulesError = p.RulesError
	return c, cfg, nil
}

// Handle returns the Handler that opens the call of a request (Open) and
// hands it, with the configuration, to fn.
func (p Pipeline[C]) Handle(env *Env, fn func(ctx context.Context, c *Call, cfg C) (Response, error)) Handler {
	return func(ctx context.Context, req *Request) (Response, error) {
		c, cfg, err := p.Open(ctx, env, req)
		if err != nil {
			return Response{}, err
		}
		return fn(ctx, c, cfg)
	}
}

// Serve is a subcommand up to its answer: p opens the call of req (Open),
// read reads its options, keeping the first mistake, and unless one was
// met apply applies the rules to what it read (Rule, with example).
func Serve[C, In, Res any](ctx context.Context, p Pipeline[C], env *Env, req *Request, example string,
	read func(*Call) In, apply func(c *Call, cfg C, in In) (Res, error)) (*Call, In, Res, error) {
	var (
		in  In
		res Res
	)
	c, cfg, err := p.Open(ctx, env, req)
	if err != nil {
		return nil, in, res, err
	}
	in = read(c)
	if res, err = Rule(c, example, func() (Res, error) { return apply(c, cfg, in) }); err != nil {
		return nil, in, res, err
	}
	return c, in, res, nil
}

// Answer ends a call that rolled: it checks the `dice:` values were used
// exactly, logs the call's rolls under expr with *res as the detail, as
// it is before Finish fills o (res's Outcome) with the roll's ID and
// dice, and replies with lines and *res as the result.
func Answer[R any](ctx context.Context, c *Call, expr string, res *R, o *Outcome, lines ...string) (Response, error) {
	if err := c.Finish(ctx, expr, o, *res, ""); err != nil {
		return Response{}, err
	}
	return c.Reply(o.ID, *res, lines...), nil
}

// Tell is Answer for a call that rolls no dice and logs nothing: `dice:`
// values given to it are surplus, the user's mistake.
func Tell[R any](c *Call, res *R, o *Outcome, lines ...string) (Response, error) {
	if err := c.Tray.Done(); err != nil {
		return Response{}, err
	}
	o.Rolls = c.Tray.Rolls()
	return c.Reply("", *res, lines...), nil
}
