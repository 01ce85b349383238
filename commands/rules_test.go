package commands

import (
	"reflect"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/ulm"
)

// A system without configuration gets its documented defaults; one with
// a configuration keeps it, even one the rules would refuse (the handler
// that uses it says so).
func TestRulesWithDefaults(t *testing.T) {
	if got := (kit.Rules{}).WithDefaults(Systems); !reflect.DeepEqual(got, DefaultRules()) {
		t.Errorf("zero rules: %+v, want the defaults", got)
	}
	custom := ulm.DefaultConfig()
	custom.FallDamageMinTiles = 5
	got := kit.Rules{ulm.SystemName: custom}.WithDefaults(Systems)
	if got[ulm.SystemName] != custom {
		t.Errorf("a configured ulm was replaced: %+v", got[ulm.SystemName])
	}
	want := DefaultRules()
	want[ulm.SystemName] = custom
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the other systems: %+v, want their defaults", got)
	}
}
