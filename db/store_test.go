package db_test

import (
	"strings"
	"testing"

	"github.com/tablehand/tablehand/db/dbtest"
)

// The store conformance suite (go-cloud's drivertest pattern): every test
// of what the store does runs on SQLite and on PostgreSQL alike, as
// TestStore/<store>/<test>. The tests outside it are SQLite's own: its
// settings (TestOpenSettings), its WAL (TestCloseCheckpointsWAL), the
// migration of an old SQLite schema (TestEncounterJournalMigration), the
// file backup and check, and the roll batch's SQLite trigger.
var conformance = []struct {
	name string
	test func(*testing.T)
}{
	{"MigrationsRecordedAndIdempotent", testMigrationsRecordedAndIdempotent},
	{"RefusesNewerSchema", testRefusesNewerSchema},
	{"RollLog", testRollLog},
	{"RollByCodeAndRecentExprs", testRollByCodeAndRecentExprs},
	{"RollVisibility", testRollVisibility},
	{"GMChannel", testGMChannel},
	{"Characters", testCharacters},
	{"EncounterLifecycle", testEncounterLifecycle},
	{"EncounterUndoRedo", testEncounterUndoRedo},
	{"EncounterUndoEnd", testEncounterUndoEnd},
	{"EncounterConcurrentUpdates", testEncounterConcurrentUpdates},
	{"SystemSettings", testSystemSettings},
	{"SetTrackerMessage", testSetTrackerMessage},
	{"EncounterJournalBounded", testEncounterJournalBounded},
	{"EncounterUndoWindow", testEncounterUndoWindow},
	{"EncounterJournalInterleaved", testEncounterJournalInterleaved},
	{"EncounterJournalEnded", testEncounterJournalEnded},
	{"CampaignDocuments", testCampaignDocuments},
	{"PlayCampaignAllOrNothing", testPlayCampaignAllOrNothing},
	{"FiringAppliedOnceAcrossProcesses", testFiringAppliedOnceAcrossProcesses},
	{"EnsureCampaign", testEnsureCampaign},
	{"ScheduleStore", testScheduleStore},
	{"ClaimInteraction", testClaimInteraction},
	{"PageLinks", testPageLinks},
	{"MigrateStore", testMigrateStore},
	{"MigrateStoreTwice", testMigrateStoreTwice},
}

func TestStore(t *testing.T) {
	for _, kind := range dbtest.Stores {
		t.Run(kind, func(t *testing.T) {
			if kind == "postgres" && !dbtest.Available(t) {
				t.Skip(dbtest.HowTo)
			}
			for _, c := range conformance {
				t.Run(c.name, c.test)
			}
		})
	}
}

// storeKind is the store the conformance suite runs t on.
func storeKind(t *testing.T) string {
	for _, kind := range dbtest.Stores {
		if strings.HasPrefix(t.Name(), "TestStore/"+kind+"/") {
			return kind
		}
	}
	return "sqlite"
}

// source is a fresh store of t's kind.
func source(t *testing.T) string { return dbtest.Source(t, storeKind(t)) }
