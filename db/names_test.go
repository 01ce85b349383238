package db_test

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/tablehand/tablehand/db"
)

// A person's name is kept per server: saving it again replaces it, a
// name of another server is never given, a DM's is not kept, and an ID
// with no name is missing from the answer, not an empty name.
func testDisplayNames(t *testing.T) {
	d, _ := open(t)
	ctx := context.Background()
	if got, err := d.DisplayNames(ctx, "g", []string{"u1"}); err != nil || len(got) != 0 {
		t.Fatalf("DisplayNames before any: %v, %v; want none", got, err)
	}
	save := func(guild string, names ...db.DisplayName) {
		t.Helper()
		if err := d.SaveDisplayNames(ctx, guild, names); err != nil {
			t.Fatal(err)
		}
	}
	save("g", db.DisplayName{UserID: "u1", Name: "Ann"}, db.DisplayName{UserID: "u2", Name: "bob_99"}, db.DisplayName{UserID: "u3"})
	save("other", db.DisplayName{UserID: "u1", Name: "Annie elsewhere"}, db.DisplayName{UserID: "u4", Name: "Dee"})
	save("", db.DisplayName{UserID: "u5", Name: "in a DM"})
	save("g", db.DisplayName{UserID: "u2", Name: "Bob the Bold"})
	got, err := d.DisplayNames(ctx, "g", []string{"u1", "u2", "u3", "u4", "u5"})
	if want := map[string]string{"u1": "Ann", "u2": "Bob the Bold"}; err != nil || !maps.Equal(got, want) {
		t.Errorf("DisplayNames of g = %v, %v; want %v", got, err, want)
	}
	if got, err := d.DisplayNames(ctx, "", []string{"u5"}); err != nil || len(got) != 0 {
		t.Errorf("a DM's name was kept: %v, %v", got, err)
	}
	if got, err := d.DisplayNames(ctx, "g", nil); err != nil || len(got) != 0 {
		t.Errorf("DisplayNames of no IDs = %v, %v", got, err)
	}
	// More IDs than one statement asks for.
	var many []db.DisplayName
	var ids []string
	for i := range 1200 {
		id := fmt.Sprintf("m%d", i)
		many = append(many, db.DisplayName{UserID: id, Name: "Member " + id})
		ids = append(ids, id)
	}
	save("big", many...)
	if got, err := d.DisplayNames(ctx, "big", ids); err != nil || len(got) != 1200 || got["m1199"] != "Member m1199" {
		t.Errorf("DisplayNames of 1200 IDs: %d names, %v", len(got), err)
	}
}
