package db

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// groupCommit gathers the writes of one kind (rolls, replay claims) that
// arrive while one of its batches is being written, to write them
// together (group commit): on a busy bot these are most of the writes,
// and a statement and its commit cost far more than a row. The first
// write to find no batch under way leads: it takes the writer, then every
// write waiting by then, and commits them; the writes that came meanwhile
// wait for the next leader, the first of them, which it wakes. Each is
// answered only after its own commit, so nothing acknowledged is lost.
//
// W is the pointer type of one write and its outcome (*rollWait).
type groupCommit[W groupWrite] struct {
	mu      sync.Mutex
	pending []*member[W]
	leading bool // a batch is being written, or about to be
	// write serialises the batches on PostgreSQL; on SQLite they take
	// the store's one writer (DB.write).
	write writeLock
}

// groupWrite is one write of a groupCommit, which can be told that the
// batch holding it could not be written (the writer was not free before
// GroupTimeout, a panic).
type groupWrite interface{ fail(error) }

// member is one write waiting in a groupCommit.
type member[W groupWrite] struct {
	w W
	// wake says the write is committed (false), or that it leads the
	// next batch (true).
	wake chan bool
}

// do adds w to the next batch and returns once a batch holding it has
// been committed or has failed: commit writes a batch, with the writer
// held, and sets each write's outcome; each write of a batch that could
// not be written is told so (groupWrite).
func (g *groupCommit[W]) do(ctx context.Context, d *DB, w W, commit func(context.Context, []W)) {
	m := &member[W]{w: w, wake: make(chan bool, 1)}
	g.mu.Lock()
	g.pending = append(g.pending, m)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if lead || <-m.wake {
		g.lead(ctx, d, m, commit)
	}
}

// lead is the leader's work: with the writer, commit every write waiting,
// answer them, and hand the lead to the first write that came meanwhile.
// Even a panic answers the batch and hands the lead on, so that the
// writes of this kind never stop.
func (g *groupCommit[W]) lead(ctx context.Context, d *DB, leader *member[W], commit func(context.Context, []W)) {
	var batch []*member[W]
	defer func() {
		p := recover()
		if p != nil {
			failAll(batch, fmt.Errorf("panic: %v", p))
		}
		for _, o := range batch {
			if o != leader {
				o.wake <- false
			}
		}
		g.mu.Lock()
		if len(g.pending) > 0 {
			g.pending[0].wake <- true // the next batch's leader
		} else {
			g.leading = false
		}
		g.mu.Unlock()
		if p != nil {
			panic(p)
		}
	}()
	// The batch is everyone's: one caller's cancelled context must not
	// fail the others' writes. It has a deadline of its own, so that a
	// stalled writer fails the writes rather than hold them for ever.
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), GroupTimeout)
	defer cancel()
	lock := &d.write
	if d.postgres {
		lock = &g.write
	}
	err := lock.LockContext(bctx)
	g.mu.Lock()
	batch = g.pending
	g.pending = nil
	g.mu.Unlock()
	if err != nil {
		failAll(batch, fmt.Errorf("wait for the writer: %w", err))
		return
	}
	defer lock.Unlock()
	commit(bctx, writes(batch))
}

// failAll tells each write of members that it failed with err.
func failAll[W groupWrite](members []*member[W], err error) {
	for _, m := range members {
		m.w.fail(err)
	}
}

// writes are the writes of members.
func writes[W groupWrite](members []*member[W]) []W {
	out := make([]W, len(members))
	for i, m := range members {
		out[i] = m.w
	}
	return out
}

// GroupTimeout bounds one batch of a group commit (the roll log's, the
// replay claims'), waiting for the writer included.
const GroupTimeout = 30 * time.Second
