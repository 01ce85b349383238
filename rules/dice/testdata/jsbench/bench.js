// bench.js times rpg-dice-roller on the expressions given as arguments,
// the texts of rules/dice's benchExprs, two ways, and prints one line for
// each expression: "<expression> <new ns/op> <again ns/op> <notation>".
// run.sh runs it; see there.
//
//   - new: `new DiceRoll(text).output`, parse, roll and the rendered line
//     ("1d20+5: [14]+5 = 19") from the text, as the library's docs advise
//     ("it's usually better to create a new DiceRoll instance" than to
//     roll one again). The library keeps no cache of parsed texts.
//   - again: roll() and output on one DiceRoll parsed before the loop,
//     the library's counterpart of a cached parse: the stricter
//     comparison, as it leaves the parse out of the JS side's time.
import { DiceRoll } from '@dice-roller/rpg-dice-roller';

// notation maps an expression of Tablehand's dice language to
// rpg-dice-roller's notation for the same roll. For the eight of
// benchExprs the two are written alike, and the library reads them as the
// same rolls (checked by rolling each with it: "4d6kh3: [6, 2d, 4, 4] =
// 14" drops the lowest die, "2d20kh1+7" keeps the highest, "10d10>=8"
// counts the dice of 8 and more as successes, "3d6!: [5, 3, 6!, 5] = 19"
// explodes on a 6), so the map is empty; an expression written differently
// there gets its entry here.
const notation = {
  // e.g. 'adv': '2d20kh1',
};

// nsPerOp runs fn in rounds, doubling the count until a round lasts
// targetNs, after a warm-up that lets V8 compile it, and returns the
// nanoseconds per call of the last round.
function nsPerOp(fn, targetNs) {
  const warm = Date.now() + 200;
  while (Date.now() < warm) fn();
  for (let n = 64; ; n *= 2) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    const dt = Number(process.hrtime.bigint() - t0);
    if (dt >= targetNs) return dt / n;
  }
}

let sink = 0; // keeps the output from being optimised away
for (const expr of process.argv.slice(2)) {
  const text = notation[expr] ?? expr;
  const fresh = nsPerOp(() => { sink += new DiceRoll(text).output.length; }, 1e9);
  const roll = new DiceRoll(text);
  const again = nsPerOp(() => { roll.roll(); sink += roll.output.length; }, 1e9);
  console.log(`${expr} ${fresh.toFixed(1)} ${again.toFixed(1)} ${text}`);
}
if (sink === 0) console.error('no output');
