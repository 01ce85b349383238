package kit

import (
	"testing"
)

// store is a Store whose methods are never called: what NewDeps puts where.
type store struct{ Store }

func TestNewDeps(t *testing.T) {
	rules := Rules{"x": 1}
	s := store{}
	d := NewDeps(s, rules)
	if d.Rolls != s || d.Characters != s || d.Encounters != s || d.Channels != s || d.Pages != s || d.Store != s {
		t.Errorf("the store is not every store of Deps: %+v", d)
	}
	if d.Rules["x"] != 1 || d.Roller == nil || d.Roller() == nil || d.Codes == nil || len(d.Codes()) != CodeLen || d.Log == nil {
		t.Errorf("defaults: %+v", d)
	}
	// No store: the definitions alone (`tablehand commands`). Every store
	// is a nil interface, so a handler's nil check sees none.
	d = NewDeps(nil, nil)
	if d.Rolls != nil || d.Characters != nil || d.Encounters != nil || d.Channels != nil || d.Pages != nil || d.Store != nil {
		t.Errorf("a nil store gave stores: %+v", d)
	}
}
