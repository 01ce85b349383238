package core

// diceGuide is the dice language in brief, shown by /help command:roll.
// docs/dice.md holds the same lines (a test keeps them together), with the
// full grammar and the notations of other bots.
const diceGuide = `**The dice language**
` + "`2d6` `d%` (d100) `4dF` (Fudge) `v:20` · `adv` `dis` (2d20, keep the higher or lower) `det` (4d20 keep the lowest)" + `
` + "`+ - * /` and `( )`, whole numbers, division rounds down" + `
` + "Keep or drop: `4d6kh3` `2d20kl1` `4d6dl1` `4d6dh1` · reroll: `4d6r1` `4d6ro<3` · clamp: `4d6mi2` `4d6ma5`" + `
` + "Explode: `3d6!` `3d6!>=5` `4d6 e6` (on 6 and above) · compound: `5d6!!` · successes: `10d10>=8` `10d10>=8f1`" + `
` + "Parts: `1d20+5 [to hit] 2d6+3 [slashing]` · repeat: `6#4d6kh3` or `6 4d6kh3`" + `
` + "A reason after the roll: `1d20+5 to hit`, `1d20+5 # attack`, `1d20+5 ! attack` (it never changes the total)" + `
` + "A character's stat: `1d20+som` with character:Brom reads som from Brom's sheet (by default, your one character here); a stat's name is never dice syntax (d, kh, dF, adv, e, r...)" + `
`

// commandGuides adds a guide below a command's options in /help.
var commandGuides = map[string]string{"roll": diceGuide}
