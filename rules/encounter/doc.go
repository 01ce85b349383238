// Package encounter is the turn tracker of a fight: who is in it, in what
// order they act, whose turn it is, in which round, and the conditions
// that end at the start or end of someone's turn.
//
// An [Encounter] is plain data: it serialises to JSON and storage keeps one
// per channel, loading it, applying one operation and saving it for each
// command. Every operation is a method that validates its input, changes
// the encounter only when it succeeds (a failed operation leaves it as it
// was) and returns an [Event] saying what changed. Storage keeps (event,
// state after) pairs, so undo and redo restore a [Snapshot] exactly.
//
// What differs between rule systems (how the order is rolled, where a
// newcomer goes, what happens at the start and end of a turn and of a
// round, the damage track, what a combatant may still do this turn) is a
// [Policy]. Each system implements one in its own package, usually by
// embedding [Base]; [Generic] is the system-neutral policy used when no
// system is set. The package holds no registry: the caller builds a
// [Policies] map.
//
// # Rounds and turns
//
// Before [Encounter.Begin] the round is 0 and no one has the turn;
// combatants added are appended. Begin orders them with the policy and
// starts round 1 with the first one who can act. [Encounter.Next] ends the
// current turn and starts the next one, passing over the defeated and
// those whose turn is to be skipped; after the last combatant of the order
// the round ends (the policy's EndRound) and the next one begins.
//
// A turn start runs, in order: a reveal-on-first-turn combatant appears;
// conditions ending at the start of its turn expire; its per-round
// Counters reset, if the policy resets them per turn; the policy's
// StartTurn. A turn end runs the policy's EndTurn, then expires the
// conditions ending at the end of that turn. A combatant passed over has
// no hooks run, but time passes its place in the order: conditions timed
// on its turn still expire.
//
// [Encounter.Prev] only moves the turn back: it undoes nothing (use a
// snapshot for that). The turns it went back over are then replayed by
// Next, Skip, Delay or Remove without running their hooks again, so a
// round's end is never applied twice.
//
// # Conditions
//
// A condition of N rounds ends at the N-th time, after it was applied,
// that its anchor's turn starts (or ends): the anchor is the bearer or the
// condition's source. So 1 round relative to the source, ending at the
// start of its turn, is "until the start of your next turn"; 1 round
// ending at the end of the turn of the combatant whose turn it is now is
// "until the end of this turn", and 2 rounds "until the end of your next
// turn". A condition of 0 rounds lasts until removed.
package encounter
