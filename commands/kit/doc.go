// Package kit is the toolkit every command package of Tablehand stands on:
// the router and its request and response values, command definitions,
// option reading, user errors, the dice Tray and character sheets, the
// Call a rules command works in, and kit.System, the value by which a rule
// system joins the registry (commands.Systems).
//
// A handler takes a *Request and returns a Response as a value: it never
// talks to Discord, so the gateway, the HTTP endpoint and the console all
// serve the same handlers, and a test just calls one and compares.
// Command definitions are plain data beside their handlers; the bot
// package turns them into Discord's wire format.
package kit
