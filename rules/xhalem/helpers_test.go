package xhalem

import (
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// table returns an ExprRoller over the given die faces, in the order the
// rules must roll them, and a check that every face was used, none left
// over: so a test fixes the order of the rolls as well as their values.
func table(t *testing.T, faces ...int) (ExprRoller, func()) {
	t.Helper()
	p := dice.NewPhysical(faces)
	return Dice(p), func() {
		t.Helper()
		if err := p.Done(); err != nil {
			t.Errorf("dice %v: %v", faces, err)
		}
	}
}

func ptr[T any](v T) *T { return &v }
