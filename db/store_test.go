package db_test

import (
	"testing"

	"github.com/tablehand/tablehand/db/dbtest"
)

// The store conformance suite (go-cloud's drivertest pattern): every test
// of what the store does runs on SQLite and on PostgreSQL alike, as
// TestStore/<store>/<test>. The tests outside it are SQLite's own: its
// settings (TestOpenSettings), its WAL (TestCloseCheckpointsWAL), the
// migration of an old SQLite schema (TestEncounterJournalMigration), the
// file backup and check, and the roll batch's SQLite trigger.
var conformance = []dbtest.Case{
	{Name: "MigrationsRecordedAndIdempotent", Test: testMigrationsRecordedAndIdempotent},
	{Name: "RefusesNewerSchema", Test: testRefusesNewerSchema},
	{Name: "RollLog", Test: testRollLog},
	{Name: "RollByCodeAndRecentExprs", Test: testRollByCodeAndRecentExprs},
	{Name: "RollVisibility", Test: testRollVisibility},
	{Name: "GMChannel", Test: testGMChannel},
	{Name: "RollsTogether", Test: testRollsTogether},
	{Name: "DiceRule", Test: testDiceRule},
	{Name: "Characters", Test: testCharacters},
	{Name: "CharacterNames", Test: testCharacterNames},
	{Name: "Macros", Test: testMacros},
	{Name: "EncounterLifecycle", Test: testEncounterLifecycle},
	{Name: "EncounterUndoRedo", Test: testEncounterUndoRedo},
	{Name: "EncounterUndoEnd", Test: testEncounterUndoEnd},
	{Name: "EncounterConcurrentUpdates", Test: testEncounterConcurrentUpdates},
	{Name: "SystemSettings", Test: testSystemSettings},
	{Name: "SetTrackerMessage", Test: testSetTrackerMessage},
	{Name: "EncounterJournalBounded", Test: testEncounterJournalBounded},
	{Name: "EncounterUndoWindow", Test: testEncounterUndoWindow},
	{Name: "EncounterJournalInterleaved", Test: testEncounterJournalInterleaved},
	{Name: "EncounterJournalEnded", Test: testEncounterJournalEnded},
	{Name: "CampaignDocuments", Test: testCampaignDocuments},
	{Name: "OrderNumbers", Test: testOrderNumbers},
	{Name: "PlayCampaignAllOrNothing", Test: testPlayCampaignAllOrNothing},
	{Name: "FiringAppliedOnceAcrossProcesses", Test: testFiringAppliedOnceAcrossProcesses},
	{Name: "EnsureCampaign", Test: testEnsureCampaign},
	{Name: "ScheduleStore", Test: testScheduleStore},
	{Name: "ClaimInteraction", Test: testClaimInteraction},
	{Name: "ClaimsTogether", Test: testClaimsTogether},
	{Name: "ClaimsAndRollsTogether", Test: testClaimsAndRollsTogether},
	{Name: "Outbox", Test: testOutbox},
	{Name: "PageLinks", Test: testPageLinks},
	{Name: "DisplayNames", Test: testDisplayNames},
	{Name: "MigrateStore", Test: testMigrateStore},
	{Name: "MigrateStoreTwice", Test: testMigrateStoreTwice},
}

func TestStore(t *testing.T) { dbtest.Run(t, conformance) }

// source is a fresh store of the kind the suite runs t on.
func source(t *testing.T) string { return dbtest.FreshSource(t) }
