#!/usr/bin/env bash
# run.sh compares rules/dice with the JavaScript roller rpg-dice-roller
# (npm package @dice-roller/rpg-dice-roller, the version package.json
# pins) on the expressions of benchExprs (rules/dice/bench_test.go): Go's
# parse+roll+render of a cached expression, BenchmarkRoll's
# "<expr>/parse+roll+render" sub-benchmarks, against bench.js's two loops
# (see there): "new", a new DiceRoll and its output from the text, and
# "again", roll() and output on one DiceRoll parsed before the loop.
#
# Usage, from anywhere in the repository:
#
#	rules/dice/testdata/jsbench/run.sh [go-test-binary ...]
#
# It npm-installs the package into a temporary folder (never here), builds
# the rules/dice test binary of the working tree (or takes the binaries
# given, `go test -c` of rules/dice at other commits, to compare them in
# one run), then runs the Go side and the JS side alternately, ROUNDS
# times (3 unless set), and prints each round's ns/op per expression, the
# geometric mean of each column and the ratios JS/Go, and at the end the
# median of each ratio over the rounds. Needs node (20 or later), npm
# and go.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp "$here/package.json" "$here/bench.js" "$tmp/"
(cd "$tmp" && npm install --no-package-lock --no-audit --no-fund --loglevel=error >/dev/null)

bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	(cd "$root" && go test -c -o "$tmp/dice.test" ./rules/dice)
	bins=("$tmp/dice.test")
fi
names=$(for b in "${bins[@]}"; do basename "$b" .test; done | paste -sd' ')

echo "node $(node --version), rpg-dice-roller $(cd "$tmp" && node -p "require('./node_modules/@dice-roller/rpg-dice-roller/package.json').version"), $(go version | cut -d' ' -f3)"

# goBench runs one test binary's parse+roll+render sub-benchmarks and
# prints "<expr> <ns/op>" lines.
goBench() {
	"$1" -test.run '^$' -test.bench 'BenchmarkRoll$/.*/parse\+roll\+render$' -test.benchtime 1s |
		awk '$1 ~ /^BenchmarkRoll\// { split($1, f, "/"); print f[2], $3 }'
}

for r in $(seq "$rounds"); do
	echo "round $r: load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for i in "${!bins[@]}"; do
		goBench "${bins[$i]}" >"$tmp/go-$i-$r"
	done
	# The expressions are the Go benchmark's own, so the two lists agree.
	mapfile -t exprs < <(cut -d' ' -f1 "$tmp/go-0-$r")
	(cd "$tmp" && node bench.js "${exprs[@]}") >"$tmp/js-$r"
done

# One table a round: an expression a line, the ns/op of each Go binary
# and of JS's two loops; then the geometric means, and for each binary
# the ratios JS/Go.
for r in $(seq "$rounds"); do
	files=()
	for i in "${!bins[@]}"; do files+=("$tmp/go-$i-$r"); done
	awk -v nbins=${#bins[@]} -v names="$names" -v round="$r" '
		FNR == 1 { file++ }
		file <= nbins { ns[file, $1] = $2; if (file == 1) order[++n] = $1; next }
		{ ns[nbins + 1, $1] = $2; ns[nbins + 2, $1] = $3 }
		END {
			split(names, name, " ")
			cols = nbins + 2
			printf "\nround %d, ns/op\n%-16s", round, "expression"
			for (b = 1; b <= nbins; b++) printf " %16s", "go " name[b]
			printf " %12s %12s\n", "js new", "js again"
			for (k = 1; k <= n; k++) {
				e = order[k]
				printf "%-16s", e
				for (f = 1; f <= cols; f++) {
					if (!((f, e) in ns)) { print "missing " e > "/dev/stderr"; exit 1 }
					logsum[f] += log(ns[f, e])
					printf(f <= nbins ? " %16.1f" : " %12.1f", ns[f, e])
				}
				printf "\n"
			}
			printf "%-16s", "geomean"
			for (f = 1; f <= cols; f++) { gm[f] = exp(logsum[f] / n); printf(f <= nbins ? " %16.1f" : " %12.1f", gm[f]) }
			printf "\n"
			for (b = 1; b <= nbins; b++)
				printf "ratio %s %d new %.1f again %.1f\n", name[b], round, gm[nbins + 1] / gm[b], gm[nbins + 2] / gm[b]
		}' "${files[@]}" "$tmp/js-$r"
done | tee "$tmp/tables"

echo
awk '$1 == "ratio" {
		if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
		newr[$2] = newr[$2] " " $5; again[$2] = again[$2] " " $7
	}
	function median(list,   v, m, i, j, t) {
		m = split(substr(list, 2), v, " ")
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
		return (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	END {
		for (k = 1; k <= n; k++) {
			b = order[k]
			printf "median ratio JS/Go %s: %.1fx against a new DiceRoll (rounds:%s), %.1fx against roll() again (rounds:%s)\n", b, median(newr[b]), newr[b], median(again[b]), again[b]
		}
	}' "$tmp/tables"
