package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// sseStream is one raw stream of the sse scenarios: a connection read
// by one goroutine of the load tool, which records the delay of every
// post created during the measurement.
type sseStream struct {
	token  string
	last   string
	delays []uint32     // microseconds
	seen   atomic.Int64 // measured posts received
}

// sseRun is what an sse scenario measured.
type sseRun struct {
	Scenario       string  `json:"scenario"`
	Streams        int     `json:"streams"`
	Failed         int     `json:"failed_streams"`
	RSSBeforeKB    int     `json:"rss_before_kb"`
	RSSStreamsKB   int     `json:"rss_streams_kb"`
	KBPerStream    float64 `json:"kb_per_stream"`
	OpenSeconds    float64 `json:"open_seconds"`
	Posts          int     `json:"posts,omitempty"`
	FailedCreates  int64   `json:"failed_creates,omitempty"`
	Deliveries     int64   `json:"deliveries,omitempty"`
	Expected       int64   `json:"expected_deliveries,omitempty"`
	Reconnects     int64   `json:"reconnects"`
	DelayP50Ms     float64 `json:"delay_p50_ms,omitempty"`
	DelayP99Ms     float64 `json:"delay_p99_ms,omitempty"`
	DelayMaxMs     float64 `json:"delay_max_ms,omitempty"`
	CreateP50Ms    float64 `json:"create_p50_ms,omitempty"`
	CreateP99Ms    float64 `json:"create_p99_ms,omitempty"`
	ServerCPUPct   float64 `json:"server_cpu_pct,omitempty"`
	ToolCPUPct     float64 `json:"tool_cpu_pct,omitempty"`
	RSSAfterRunKB  int     `json:"rss_after_run_kb,omitempty"`
	DeliveriesPerS float64 `json:"deliveries_per_s,omitempty"`
}

// sse runs sse-idle (fanout false) or sse-fanout: it opens -subscribers
// streams of one reader's token, a few at a time, and reports the
// server's resident memory growth per stream once they are open; with
// fanout, an author then writes -rate posts a second for -duration, and
// it reports how many deliveries arrived, their delay (p50, p99) and the
// creates' latency. Its last line is BENCH_RESULT and the figures as JSON.
func sse(fanout bool) error {
	if *pid == 0 {
		return errors.New("the sse scenarios need -pid, to read the server's memory")
	}
	reader, err := register()
	if err != nil {
		return err
	}
	author, err := register()
	if err != nil {
		return err
	}
	// The server has answered requests: its memory before the streams is
	// that of a running server, not of one that just started.
	before := vmRSS()
	run := sseRun{Scenario: "sse-idle", Streams: *subscribers, RSSBeforeKB: before}
	if fanout {
		run.Scenario = "sse-fanout"
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var measuring atomic.Bool
	var from atomic.Int64 // posts with a title from this time on count
	streams := make([]*sseStream, *subscribers)
	var reconnects atomic.Int64
	var failed atomic.Int64
	var opened sync.WaitGroup
	var done sync.WaitGroup
	sem := make(chan struct{}, 100)
	start := time.Now()
	for i := range streams {
		s := &sseStream{token: reader}
		streams[i] = s
		opened.Add(1)
		done.Add(1)
		sem <- struct{}{}
		go func() {
			defer done.Done()
			first := true
			ready := func() {
				if first {
					first = false
					<-sem
					opened.Done()
				}
			}
			for ctx.Err() == nil {
				err := s.follow(ctx, ready, &measuring, &from)
				if first {
					ready()
					failed.Add(1)
					fmt.Fprintln(os.Stderr, "stream:", err)
					return
				}
				if ctx.Err() == nil {
					reconnects.Add(1)
				}
			}
		}()
	}
	opened.Wait()
	run.OpenSeconds = time.Since(start).Seconds()
	run.Failed = int(failed.Load())
	// Let the transient memory of the openings settle, as a server that
	// holds its streams for hours would.
	time.Sleep(*settle)
	run.RSSStreamsKB = vmRSS()
	open := run.Streams - run.Failed
	if open > 0 {
		run.KBPerStream = float64(run.RSSStreamsKB-before) / float64(open)
	}
	fmt.Fprintf(os.Stderr, "%d streams open in %.1fs (%d failed); server RSS %d kB before, %d kB with them: %.2f kB a stream\n",
		open, run.OpenSeconds, run.Failed, before, run.RSSStreamsKB, run.KBPerStream)

	if fanout {
		from.Store(time.Now().UnixNano())
		measuring.Store(true)
		toolBefore, _ := cpuOf(os.Getpid())
		r, err := paced(author)
		toolAfter, _ := cpuOf(os.Getpid())
		if err != nil {
			return err
		}
		// Every delivery has until 10 s after the last create.
		want := int64(r.written) * int64(open)
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && arrived(streams) < want {
			time.Sleep(100 * time.Millisecond)
		}
		measuring.Store(false)
		run.Posts = r.written
		run.FailedCreates = r.failed
		run.Expected = want
		run.Deliveries = arrived(streams)
		run.DeliveriesPerS = float64(run.Deliveries) / r.elapsed.Seconds()
		run.CreateP50Ms = ms(r.p50)
		run.CreateP99Ms = ms(r.p99)
		run.ServerCPUPct = 100 * r.cpu.Seconds() / r.elapsed.Seconds()
		run.ToolCPUPct = 100 * (toolAfter - toolBefore).Seconds() / r.elapsed.Seconds()
		run.RSSAfterRunKB = vmRSS()
	}
	run.Reconnects = reconnects.Load()
	cancel()
	done.Wait()
	if fanout {
		var all []uint32
		for _, s := range streams {
			all = append(all, s.delays...)
		}
		slices.Sort(all)
		if n := len(all); n > 0 {
			run.DelayP50Ms = float64(all[n/2]) / 1000
			run.DelayP99Ms = float64(all[n*99/100]) / 1000
			run.DelayMaxMs = float64(all[n-1]) / 1000
		}
		fmt.Fprintf(os.Stderr, "%d posts at %d/s: %d of %d deliveries arrived (%d reconnects); delay p50 %.1f ms, p99 %.1f ms, max %.1f ms; create p50 %.1f ms, p99 %.1f ms; CPU: server %.0f%%, load tool %.0f%% of a core\n",
			run.Posts, *rate, run.Deliveries, run.Expected, run.Reconnects, run.DelayP50Ms, run.DelayP99Ms, run.DelayMaxMs, run.CreateP50Ms, run.CreateP99Ms, run.ServerCPUPct, run.ToolCPUPct)
	}
	out, _ := json.Marshal(run)
	fmt.Printf("BENCH_RESULT %s\n", out)
	return nil
}

var settle = flag.Duration("settle", 10*time.Second, "sse scenarios: how long the streams stay idle before the server's memory is read")

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// arrived counts the measured deliveries so far.
func arrived(streams []*sseStream) int64 {
	var n int64
	for _, s := range streams {
		n += s.seen.Load()
	}
	return n
}

// follow reads one stream until it ends, recording the delay of every
// post created from from on while measuring. ready is called once the
// headers arrived.
func (s *sseStream) follow(ctx context.Context, ready func(), measuring *atomic.Bool, from *atomic.Int64) error {
	u, err := url.Parse(*base)
	if err != nil {
		return err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	req := "GET /api/v1/events?topics=posts HTTP/1.1\r\nHost: " + u.Host + "\r\nAuthorization: Bearer " + s.token + "\r\n"
	if s.last != "" {
		req += "Last-Event-ID: " + s.last + "\r\n"
	}
	if _, err := conn.Write([]byte(req + "\r\n")); err != nil {
		return err
	}
	br := bufio.NewReaderSize(conn, 4096)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("stream: %d", resp.StatusCode)
	}
	ready()
	body := bufio.NewReaderSize(resp.Body, 4096)
	title := []byte(`"title":"bench `)
	for {
		line, err := body.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long data line: only its start, with the title, matters.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = body.ReadSlice('\n')
			}
			continue
		}
		if err != nil {
			return err
		}
		now := time.Now()
		if bytes.HasPrefix(line, []byte("id: ")) {
			s.last = strings.TrimSpace(string(line[4:]))
			continue
		}
		if !measuring.Load() || !bytes.HasPrefix(line, []byte("data: ")) {
			continue
		}
		i := bytes.Index(line, title)
		if i < 0 {
			continue
		}
		rest := line[i+len(title):]
		j := bytes.IndexByte(rest, '"')
		sent, err := strconv.ParseInt(string(rest[:max(j, 0)]), 10, 64)
		if err != nil || sent < from.Load() {
			continue
		}
		s.delays = append(s.delays, uint32(min(now.Sub(time.Unix(0, sent)).Microseconds(), 1<<32-1)))
		s.seen.Add(1)
	}
}

// vmRSS is the server's resident memory in kB.
func vmRSS() int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", *pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}
