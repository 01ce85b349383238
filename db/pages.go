package db

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// The audiences of a read-only web page: its players' link shows what
// players may read in Discord, its GM's link everything.
const (
	AudiencePlayers = "players"
	AudienceGM      = "gm"
)

// ScopeCampaign is the scope of a guild's faction campaign page.
const ScopeCampaign = "campaign"

// fightScope prefixes the scope of a channel's fight page.
const fightScope = "fight:"

// FightScope is the scope of the page of the fight in a channel.
func FightScope(channelID string) string { return fightScope + channelID }

// FightChannel is the channel of a fight page's scope, and whether scope
// is one.
func FightChannel(scope string) (string, bool) {
	ch, ok := strings.CutPrefix(scope, fightScope)
	if !ok || ch == "" {
		return "", false
	}
	return ch, true
}

// tokenBytes is the randomness of a page token: 256 bits, well over the
// 128 a link that guards a campaign's secrets needs.
const tokenBytes = 32

// PageLinks are the tokens of one page: the players' and the GM's.
type PageLinks struct {
	Players, GM string
}

// Page is what a page token opens.
type Page struct {
	GuildID, Scope, Audience string
}

// PageLinks returns the tokens of the guild's page of scope, making them
// the first time; with renew, it replaces them with new ones, and the old
// ones open nothing any more.
func (d *DB) PageLinks(ctx context.Context, guildID, scope string, renew bool) (PageLinks, error) {
	var links PageLinks
	err := d.tx(ctx, func(tx *sql.Tx) error {
		if renew {
			if _, err := tx.ExecContext(ctx, `DELETE FROM page_tokens WHERE guild_id = ? AND scope = ?`, guildID, scope); err != nil {
				return err
			}
		}
		for _, aud := range []string{AudiencePlayers, AudienceGM} {
			tok, err := newPageToken()
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO page_tokens (guild_id, scope, audience, token, token_hash, created_at)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, scope, audience) DO NOTHING`,
				guildID, scope, aud, tok, tokenHash(tok), d.stamp()); err != nil {
				return err
			}
			var got string
			if err := tx.QueryRowContext(ctx, `SELECT token FROM page_tokens WHERE guild_id = ? AND scope = ? AND audience = ?`,
				guildID, scope, aud).Scan(&got); err != nil {
				return err
			}
			if aud == AudienceGM {
				links.GM = got
			} else {
				links.Players = got
			}
		}
		return nil
	})
	if err != nil {
		return PageLinks{}, fmt.Errorf("page links of guild %s: %w", guildID, err)
	}
	return links, nil
}

// PageByToken returns what the token opens. An unknown token and a
// revoked one are both ErrNotFound, after the same work: the row is found
// by the token's hash (which tells nothing of the token), and the token
// itself compared in constant time.
func (d *DB) PageByToken(ctx context.Context, token string) (Page, error) {
	var p Page
	var stored string
	err := d.sql.QueryRowContext(ctx, `SELECT guild_id, scope, audience, token FROM page_tokens WHERE token_hash = ?`,
		tokenHash(token)).Scan(&p.GuildID, &p.Scope, &p.Audience, &stored)
	if errors.Is(err, sql.ErrNoRows) {
		stored = ""
		err = nil
	}
	if err != nil {
		// The token stays out of the error: errors reach the log.
		return Page{}, fmt.Errorf("look up a page token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(stored), []byte(token)) != 1 || stored == "" {
		return Page{}, ErrNotFound
	}
	return p, nil
}

// newPageToken is tokenBytes from the operating system's generator, as
// URL-safe base64.
func newPageToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("page token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}
