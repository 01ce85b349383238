package commands

import (
	"context"
	"strings"

	"github.com/tablehand/tablehand/db"
)

// memStore is an in-memory roll log and character store for handler tests
// that need neither SQLite nor the roll log's history.
type memStore struct {
	rolls []db.Roll
	chars map[string]db.Character
}

func (s *memStore) SaveRoll(ctx context.Context, r db.Roll) (int64, error) {
	s.rolls = append(s.rolls, r)
	return int64(len(s.rolls)), nil
}

func (s *memStore) RecentRolls(ctx context.Context, channelID, userID string, viewer db.Viewer, limit int) ([]db.Roll, error) {
	return s.rolls, nil
}

func (s *memStore) RollByCode(ctx context.Context, channelID, code string) (db.Roll, bool, error) {
	return db.Roll{}, false, nil
}

func (s *memStore) RecentExprs(ctx context.Context, userID string, limit int) ([]string, error) {
	return nil, nil
}

func (s *memStore) Character(ctx context.Context, guildID, name string) (db.Character, error) {
	c, ok := s.chars[strings.ToLower(name)]
	if !ok {
		return db.Character{}, db.ErrNotFound
	}
	return c, nil
}

func (s *memStore) SaveCharacter(ctx context.Context, c db.Character) (db.Character, error) {
	s.chars[strings.ToLower(c.Name)] = c
	return c, nil
}

func (s *memStore) Characters(ctx context.Context, guildID, ownerID, system, prefix string, limit int) ([]db.Character, error) {
	var out []db.Character
	for _, c := range s.chars {
		if (system == "" || c.System == system) && strings.HasPrefix(strings.ToLower(c.Name), strings.ToLower(prefix)) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *memStore) DeleteCharacter(ctx context.Context, guildID, name string) error {
	delete(s.chars, strings.ToLower(name))
	return nil
}
