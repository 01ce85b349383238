// Package faction implements the rules of seed 000
// (../shared/seeds/000_fb64ae42bd03b2b5.txt): chapter 4, "Actions and
// Turns", of the Eclipse Phase Inter-session Conflict (EPIC) faction
// system. Facts from the rule set's other chapters, which the seed does not
// include, come from ../shared/seeds/faction-context.md; where the two
// differ the seed wins. docs/faction.md lists every rule and where it is
// applied, and every default chosen for what the text leaves open.
//
// The package is pure: it imports only the standard library and
// rules/dice, every die comes from a [dice.Roller] passed in (d10s, the
// acting side's die first), and nothing iterates a map where the order
// would change a result, so the same campaign and the same dice give the
// same result.
//
// The state is plain data ([Campaign], [Faction], [Asset], [Habitat],
// [Effect]) that serialises to JSON and deep-copies with [Campaign.Clone].
// [Resolve] applies one [Order]; [ResolveRound] plays a whole round in the
// campaign's turn order, Turn-Wise or Phase-Wise, on a copy, so a failed
// round leaves the campaign untouched. [Available] lists what a faction may
// do right now, with its cost.
package faction

// SystemName is the name of the faction game among Tablehand's rule
// systems.
const SystemName = "faction"
