package bot

// The hand-written secret sessions of TestSecretsKept: the tracker in
// every system, the faction game, secret rolls and hidden sheets. A line
// that starts with "!" makes state the player may not see, and is played
// only in the run with secrets.
var secretSessions = []secretSession{
	{name: "rolls", player: "bob", lines: []string{
		"/system gm-channel channel:" + secretGMChannel,
		"@bob /roll 1d20+2",
		"!@alice /roll 1d20+5 visibility:self",
		"!@gm /roll 1d20+5 visibility:self",
		"@gm /roll 1d20+7 visibility:gm",
		"@alice /roll 1d20+7 visibility:blind",
		"@alice /roll 2d6",
		"@bob /roll 1d8 visibility:gm",
		"@bob /history",
		"@bob /history user:alice",
		"@bob /history user:gm",
	}},
	{name: "sheets", player: "bob", lines: []string{
		"@bob /character set name:Brom system:arc stats:\"som=3 hp=5\"",
		"!/character set name:Shade system:arc stats:\"som=7 hp=9\" hidden:true",
		"@alice /character set name:Aria system:arc stats:\"som=2 hp=6\"",
		"@bob /character list",
		"@bob complete /character show name:",
		"@bob complete /roll character:",
		"@bob /character show name:Aria",
	}},
	// The three leaks of issue 20's tracker: a hidden combatant tied with
	// a visible one (Ogre with Brom), a hidden turn in the middle of a
	// round (Lurker), and the button IDs that count them.
	{name: "tracker-burst", player: "alice", lines: []string{
		"/system set name:burst",
		"@alice /character set name:Rook system:burst stats:\"initiative=1 stamina=10 durability=6 health=8 vigor=10\"",
		"/init start",
		"@alice /init join",
		"/init add name:Ogre durability:5 health:6 stamina:15 armor:1 resources:\"vigor=5 max_vigor=10\"",
		"/init add name:Goblin durability:2 health:3 stamina:2",
		"!/init add name:Sniper durability:3 health:3 hidden:true",
		"@alice /init list",
		"/init begin",
		"@alice /init damage target:Goblin amount:5",
		"!/init damage target:Sniper amount:1",
		"@alice /init list",
		"@alice /init log",
	}},
	{name: "tracker-ulm", player: "alice", lines: []string{
		"/system set name:ulm",
		"@alice /character set name:Kael system:ulm stats:\"hp=10 agility=2 initiative=12\"",
		"/init start",
		"@alice /init join",
		"/init add name:Raider hp:8 agility:0 initiative:9",
		"!/init add name:Sniper hp:6 agility:1 initiative:5 hidden:true",
		"/init add name:Brute hp:12 agility:-1 initiative:3",
		"@alice /init list",
		"/init begin",
		"@alice /init damage target:Raider amount:9 type:incision",
		"!/init damage target:Sniper amount:3 type:puncture",
		"@alice /init list",
		"@alice /init log",
	}},
	// Another faction's queued orders: Red's move of its Frigate is no
	// business of Green's before the round.
}
