package db

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestOpenTogether opens one new SQLite file from 8 stores at once, 20
// times: every open succeeds (issue 21: "apply migration 0001_rolls.sql:
// table rolls already exists"), as each migration reads the schema version
// again under the write lock its transaction takes at BEGIN. The stores
// are separate connection pools in one process, locking the file as
// separate processes do.
func TestOpenTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 160 stores")
	}
	const stores, times = 8, 20
	for n := range times {
		file := filepath.Join(t.TempDir(), fmt.Sprintf("t%d.db", n))
		var wg sync.WaitGroup
		errs := make(chan error, stores)
		start := make(chan struct{})
		for range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				d, err := Open(context.Background(), file)
				if err != nil {
					errs <- err
					return
				}
				errs <- d.Close()
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("time %d: %v", n, err)
			}
		}
	}
}
