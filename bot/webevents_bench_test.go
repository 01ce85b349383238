package bot

import (
	"bufio"
	"fmt"
	"net"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// The memory an open fight page's event stream holds, with 1,000 open on
// one fight (target: under 20 KB each). It counts the whole process: the
// server's side of each stream (its goroutine, the connection and its
// buffers, the subscription) and the test's own bare client connections,
// so it is an upper bound of the server's share.
func BenchmarkFightEventStreams1000(b *testing.B) {
	const streams = 1000
	w := newWebCampaign(b)
	links := w.fight(b)
	web := NewWeb(w.store, w.router.Pages(), slogDiscard(), WebOptions{MaxStreamsPerLink: streams, MaxStreams: streams})
	srv := httptest.NewServer(web)
	defer srv.Close()
	defer web.Shutdown()
	path := strings.TrimPrefix(w.local(links.Players), w.srv.URL) + "/events"
	addr := strings.TrimPrefix(srv.URL, "http://")
	for b.Loop() {
		before := heap()
		conns := make([]net.Conn, 0, streams)
		for range streams {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
			r := bufio.NewReaderSize(c, 16)
			// The stream is open once its first line arrives.
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				if strings.HasPrefix(line, "retry:") {
					break
				}
			}
			conns = append(conns, c)
		}
		after := heap()
		b.ReportMetric(float64(after-before)/streams/1024, "KB/stream")
		for _, c := range conns {
			c.Close()
		}
	}
}

// heap is the memory in use by the heap and the goroutines' stacks, after
// a collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}
