package dice

import "testing"

// TestOtherBots holds the table "From other bots" of docs/dice.md: each
// notation Avrae's, Dice Maiden's and Roll20's own documentation gives,
// as Tablehand reads it (after Translate, as /roll and /odds do). A row
// with want "" is one Tablehand refuses, naming the mistake.
func TestOtherBots(t *testing.T) {
	tests := []struct{ bot, notation, want, note string }{
		// Avrae (the d20 library's README: operators, selectors).
		{"Avrae", "4d6kh3", "4d6kh3", ""},
		{"Avrae", "2d20kl1", "2d20kl1", ""},
		{"Avrae", "4d6pl1", "4d6dl1", ""},
		{"Avrae", "4d6ph1", "4d6dh1", ""},
		{"Avrae", "4d6rr<3", "4d6r<3", "`>` and `<` leave out their number"},
		{"Avrae", "2d6ro<3", "2d6ro<3", "`>` and `<` leave out their number"},
		{"Avrae", "3d6e6", "3d6!>=6", "`e6` explodes on 6 and up"},
		{"Avrae", "3d6e>4", "3d6!>4", "`>` and `<` leave out their number"},
		{"Avrae", "8d6mi2", "8d6mi2", ""},
		{"Avrae", "8d6ma5", "8d6ma5", ""},
		{"Avrae", "3d6 [fire] + 1d4 [piercing]", "3d6 [fire] + 1d4 [piercing]", ""},
		{"Avrae", "1d20 I rolled a d20", "1d20 # I rolled a d20", ""},
		{"Avrae", "4d6ra1", "", ""},
		{"Avrae", "(1d4 + 1, 3, 2d6kl1)kh1", "", ""},
		{"Avrae", "!r 1d20", "1d20", "`!r` left out"},
		// Dice Maiden (its README: "How to use" and "Alias Rolls").
		{"Dice Maiden", "2d6 + 3d10", "2d6 + 3d10", ""},
		{"Dice Maiden", "3d6 e6", "3d6!>=6", "`e6` explodes on 6 and up"},
		{"Dice Maiden", "3d6 ie6", "3d6!>=6", ""},
		{"Dice Maiden", "3d10 d1", "3d10dl1", ""},
		{"Dice Maiden", "3d10 k2", "3d10kh2", ""},
		{"Dice Maiden", "4d6 r2", "4d6r2", "`r2` rerolls each 2 again and again"},
		{"Dice Maiden", "4d6 ir2", "4d6r<=2", ""},
		{"Dice Maiden", "6d10 t7", "6d10>=7", ""},
		{"Dice Maiden", "5d10 t8 f1", "5d10>=8f1", ""},
		{"Dice Maiden", "4d10 kl3", "4d10kl3", ""},
		{"Dice Maiden", "4d6 ! Hello World!", "4d6 # Hello World!", ""},
		{"Dice Maiden", "6 4d6", "6#4d6", ""},
		{"Dice Maiden", "10d6 e6 k8 +4", "10d6!>=6kh8 + 4", "`e6` explodes on 6 and up"},
		{"Dice Maiden", "4cod", "4d10!>=10>=8", "Dice Maiden's `4cod` is `4d10 t8 ie10`"},
		{"Dice Maiden", "4cod8", "4d10!>=8>=8", "Dice Maiden's `4cod8` is `4d10 t8 ie8`"},
		{"Dice Maiden", "4wod8", "4d10!>=10>=8f1", "Dice Maiden's `4wod8`"},
		{"Dice Maiden", "3df", "3dF", ""},
		{"Dice Maiden", "3wh4+", "3d6>=4", "Dice Maiden's `3wh4+`"},
		{"Dice Maiden", "dd34", "1d3 * 10 + 1d4", "Dice Maiden's `dd34`"},
		{"Dice Maiden", "age", "2d6 + 1d6", "Dice Maiden's `age`"},
		{"Dice Maiden", "+d20", "2d20dl1", "Dice Maiden's `+d20`"},
		{"Dice Maiden", "-d20", "2d20kl1", "Dice Maiden's `-d20`"},
		{"Dice Maiden", "+d20+5", "2d20dl1 + 5", "Dice Maiden's `+d20`"},
		{"Dice Maiden", "4d%", "4d100", ""},
		{"Dice Maiden", "snm5", "5d6!>=6>=4", "Dice Maiden's `snm5`"},
		{"Dice Maiden", "d6s4 +2", "4d6 + 1d6! + 2", "Dice Maiden's `d6s4`"},
		{"Dice Maiden", "sr6", "6d6>=5", "Dice Maiden's `sr6`"},
		{"Dice Maiden", "sp4", "4d10!>=10>=8", "Dice Maiden's `sp4`"},
		{"Dice Maiden", "6yz", "6d6>=6", "Dice Maiden's `6yz`"},
		{"Dice Maiden", "dndstats", "6#4d6kh3", "Dice Maiden's `dndstats`"},
		{"Dice Maiden", "+d%", "", ""},
		{"Dice Maiden", "ed4", "", ""},
		{"Dice Maiden", "wng 4d6", "", ""},
		// Roll20 (its Dice Reference).
		{"Roll20", "1d20+5 Roll for Initiative", "1d20 + 5 # Roll for Initiative", ""},
		{"Roll20", "3d6!", "3d6!", ""},
		{"Roll20", "3d6!>4", "3d6!>4", "`>` and `<` leave out their number"},
		{"Roll20", "3d6!3", "", ""},
		{"Roll20", "5d6!!", "5d6!!", ""},
		{"Roll20", "5d6!p", "", ""},
		{"Roll20", "8d100k4", "8d100kh4", ""},
		{"Roll20", "8d100d3", "8d100dl3", ""},
		{"Roll20", "8d100kl4", "8d100kl4", ""},
		{"Roll20", "8d100dh3", "8d100dh3", ""},
		{"Roll20", "2d8r1", "2d8r1", "`r1` rerolls each 1 again and again"},
		{"Roll20", "2d8r<2", "2d8r<2", "`>` and `<` leave out their number"},
		{"Roll20", "2d8ro<2", "2d8ro<2", "`>` and `<` leave out their number"},
		{"Roll20", "10d10>8", "10d10>8", "Roll20's `>8` (8 and up) is `>=8` here"},
		{"Roll20", "10d10>8f1", "10d10>8f1", "Roll20's `>8` (8 and up) is `>=8` here"},
		{"Roll20", "4dF", "4dF", ""},
		{"Roll20", "[[1d20]]", "1d20", "Roll20's `[[ ]]` left out"},
		{"Roll20", "/r 4d6kh3", "4d6kh3", "`/r` left out"},
		{"Roll20", "/gr 1d20", "1d20", "`/gr` left out"},
		{"Roll20", "{5d6!!}>8", "", ""},
		{"Roll20", "2d6mt", "", ""},
		{"Roll20", "floor(1d6/2)", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.bot+"/"+tt.notation, func(t *testing.T) {
			text, note := Translate(tt.notation)
			e, err := Parse(text)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Parse(%q) = %q, want an error", text, e)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", text, err)
			}
			if got := e.String(); got != tt.want {
				t.Errorf("%q reads as %q, want %q", tt.notation, got, tt.want)
			}
			all := note
			for _, r := range e.Readings() {
				all += "\n" + r
			}
			if tt.note != "" && !contains(all, tt.note) {
				t.Errorf("%q: notes %q, want one holding %q", tt.notation, all, tt.note)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
