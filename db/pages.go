package db

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
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

// fightScope prefixes the scope of a fight's page.
const fightScope = "fight:"

// FightScope is the scope of the page of one fight: encounter id in a
// channel. Its links open that fight and no other: once it has ended,
// they say so.
func FightScope(channelID string, id int64) string {
	return fightScope + channelID + ":" + strconv.FormatInt(id, 10)
}

// FightOf is the channel and encounter of a fight page's scope, and
// whether scope is one. The scope of a link made before links were one
// fight's ("fight:<channel>", which migration 0013 rewrote; none should
// be left) is a fight page's with id 0, which names no encounter: it
// opens no fight, never the channel's next one.
func FightOf(scope string) (channelID string, id int64, ok bool) {
	rest, ok := strings.CutPrefix(scope, fightScope)
	if !ok || rest == "" {
		return "", 0, false
	}
	if i := strings.LastIndexByte(rest, ':'); i > 0 {
		if n, err := strconv.ParseInt(rest[i+1:], 10, 64); err == nil && n > 0 {
			return rest[:i], n, true
		}
	}
	return rest, 0, true
}

// tokenBytes is the randomness of a page token: 256 bits, well over the
// 128 a link that guards a campaign's secrets needs.
const tokenBytes = 32

// PageLinks are the tokens of one page: the players' and the GM's.
type PageLinks struct {
	Players, GM string
	// Renewed says the links kept could not be shown again (made before
	// Tablehand kept only their hashes, or under another page secret), so
	// new ones replaced them: the old ones open nothing any more.
	Renewed bool
}

// Page is what a page token opens.
type Page struct {
	GuildID, Scope, Audience string
}

// A page's token is kept nowhere: the database keeps its hash, which a
// request is looked up by, and a random nonce, from which with the
// server's page secret (kept outside the database: pagekey.go) the token
// is derived again to show the GM their link. A copy of the database
// alone opens no page.

// PageLinks returns the tokens of the guild's page of scope, making them
// the first time; with renew, it replaces them with new ones, and the old
// ones open nothing any more.
func (d *DB) PageLinks(ctx context.Context, guildID, scope string, renew bool) (PageLinks, error) {
	key, err := d.pageSecret()
	if err != nil {
		return PageLinks{}, fmt.Errorf("page links of guild %s: %w", guildID, err)
	}
	var links PageLinks
	err = d.tx(ctx, func(tx *sql.Tx) error {
		links = PageLinks{}
		if !renew {
			lost, err := lostTokens(ctx, tx, key, guildID, scope)
			if err != nil {
				return err
			}
			renew, links.Renewed = lost, lost
		}
		if renew {
			if _, err := tx.ExecContext(ctx, `DELETE FROM page_tokens WHERE guild_id = ? AND scope = ?`, guildID, scope); err != nil {
				return err
			}
		}
		for _, aud := range []string{AudiencePlayers, AudienceGM} {
			nonce, err := newNonce()
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO page_tokens (guild_id, scope, audience, nonce, token_hash, created_at)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, scope, audience) DO NOTHING`,
				guildID, scope, aud, nonce, tokenHash(pageToken(key, guildID, scope, aud, nonce)), d.stamp()); err != nil {
				return err
			}
			if err := tx.QueryRowContext(ctx, `SELECT nonce FROM page_tokens WHERE guild_id = ? AND scope = ? AND audience = ?`,
				guildID, scope, aud).Scan(&nonce); err != nil {
				return err
			}
			tok := pageToken(key, guildID, scope, aud, nonce)
			if aud == AudienceGM {
				links.GM = tok
			} else {
				links.Players = tok
			}
		}
		return nil
	})
	if err != nil {
		return PageLinks{}, fmt.Errorf("page links of guild %s: %w", guildID, err)
	}
	return links, nil
}

// lostTokens reports whether a token kept for the guild's page of scope
// cannot be derived again with key: it has no nonce, or its hash is not
// the hash of what key derives.
func lostTokens(ctx context.Context, tx *sql.Tx, key []byte, guildID, scope string) (bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT audience, nonce, token_hash FROM page_tokens WHERE guild_id = ? AND scope = ?`, guildID, scope)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	lost := false
	for rows.Next() {
		var aud, nonce, hash string
		if err := rows.Scan(&aud, &nonce, &hash); err != nil {
			return false, err
		}
		if nonce == "" || tokenHash(pageToken(key, guildID, scope, aud, nonce)) != hash {
			lost = true
		}
	}
	return lost, rows.Err()
}

// PageByToken returns what the token opens. An unknown token and a
// revoked one are both ErrNotFound, after the same work: the row is found
// by the token's hash, which tells nothing of the token.
func (d *DB) PageByToken(ctx context.Context, token string) (Page, error) {
	var p Page
	err := d.sql.QueryRowContext(ctx, `SELECT guild_id, scope, audience FROM page_tokens WHERE token_hash = ?`,
		tokenHash(token)).Scan(&p.GuildID, &p.Scope, &p.Audience)
	if errors.Is(err, sql.ErrNoRows) || token == "" {
		return Page{}, ErrNotFound
	}
	if err != nil {
		// The token stays out of the error: errors reach the log.
		return Page{}, fmt.Errorf("look up a page token: %w", err)
	}
	return p, nil
}

// pageToken is the token of the guild's page of scope for aud: the
// HMAC-SHA256 under the page secret of all four and the row's nonce, as
// URL-safe base64 (tokenBytes of it).
func pageToken(key []byte, guildID, scope, aud, nonce string) string {
	m := hmac.New(sha256.New, key)
	for _, s := range []string{"tablehand page token v1", guildID, scope, aud, nonce} {
		m.Write([]byte(s))
		m.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:tokenBytes])
}

// newNonce is 128 bits from the operating system's generator, as hex: a
// token's own randomness, beside the secret's.
func newNonce() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("page token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}
