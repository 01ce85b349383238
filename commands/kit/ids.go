package kit

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"sync"
)

// codeAlphabet is Crockford's base32: no I, L, O or U, so a code read aloud
// at the table or typed from a screenshot is hard to get wrong.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeLen is the length of a roll's short ID: 30 bits, enough that codes in
// one channel's history practically never collide.
const CodeLen = 6

// NewCodes returns a goroutine-safe source of short random IDs. With seeded
// true the sequence is fixed by seed (the console's --seed); otherwise it is
// seeded from the operating system.
func NewCodes(seed uint64, seeded bool) func() string {
	if !seeded {
		var b [8]byte
		if _, err := crand.Read(b[:]); err == nil {
			seed = binary.LittleEndian.Uint64(b[:])
		}
	}
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, seed^0x7461626c6568616e)) // "tablehan"
	return func() string {
		mu.Lock()
		n := r.Uint64()
		mu.Unlock()
		var b [CodeLen]byte
		for i := range b {
			b[i] = codeAlphabet[n&31]
			n >>= 5
		}
		return string(b[:])
	}
}
