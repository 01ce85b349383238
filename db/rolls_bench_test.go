package db

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkSaveRoll saves rolls one after another on a SQLite file, each
// alone in its commit: the cost of the roll log's write when no other
// roll shares it.
//
//	go test -run '^$' -bench SaveRoll -benchtime 20000x -count 5 ./db/
func BenchmarkSaveRoll(b *testing.B) {
	d, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	detail := []byte(`{"expr":"1d20+5","total":12,"terms":[{"dice":"1d20","rolls":[7]}]}`)
	i := 0
	for b.Loop() {
		i++
		if _, err := d.LogRoll(context.Background(), Roll{Code: strconv.Itoa(i), GuildID: "g", ChannelID: "c" + strconv.Itoa(i%50),
			UserID: "u" + strconv.Itoa(i%20), Expr: "1d20+5", Total: 12, Detail: detail}); err != nil {
			b.Fatal(err)
		}
	}
}
