// Command events measures Inkwell's event stream and webhooks against a
// running server.
//
//	go run ./bench/events -base http://127.0.0.1:3000 -pid $(pgrep -n inkwell) streams
//	go run ./bench/events -base http://127.0.0.1:3000 webhooks
//	go run ./bench/events -base http://127.0.0.1:3000 revoke
//	go run ./bench/events -base http://127.0.0.1:3000 -pid PID -subscribers 10000 sse-idle
//	go run ./bench/events -base http://127.0.0.1:3000 -pid PID -subscribers 10000 -rate 10 sse-fanout
//
// streams measures how fast posts are created with no subscriber, then
// opens -subscribers event streams, writes -rate posts a second for
// -duration and reports the delay from the create request to each event's
// arrival (p50, p99), the server's resident memory (when -pid is given) and
// the create rate again with every stream open. It also writes at -rate for
// -duration before any stream opens, and compares the two paced runs: how
// many posts a second were written, how long a create took (p50, p99) and
// how much CPU the server used (when -pid is given). The paced runs show
// what subscribers cost the writers at a given load; the create rates are
// saturated runs, in which the load tool's own subscribers, reading every
// event on the same cores, compete with the server. webhooks creates a webhook
// to a receiver of its own on loopback (the server needs
// WEBHOOKS_ALLOW_PRIVATE=true), writes -posts posts and reports how many
// deliveries a second arrive. revoke opens -subscribers streams, each with
// a token of its own, writes -rate posts a second, deletes the tokens of
// half the streams and reports how soon those streams end (the target is
// within 5 s of the deletions), whether any of them received a post sent
// after its token's deletion was acknowledged, and whether the other half
// stayed open and kept receiving. The server needs its per-address cap
// raised (EVENTS_MAX_STREAMS_PER_ADDRESS=0), since every stream comes from
// the one address of the tool.
//
// sse-idle opens -subscribers streams of one reader's token, each a bare
// connection of the tool's, and reports the growth of the server's
// resident memory per stream once they have idled for -settle (the
// server needs EVENTS_MAX_STREAMS_PER_TOKEN=0 and
// EVENTS_MAX_STREAMS_PER_ADDRESS=0, and both processes a file limit above
// the streams). sse-fanout does the same, then has an author write -rate
// posts a second for -duration and reports how many of the deliveries
// arrived within 10 s of the last create, their delay from the create
// request (p50, p99, max) and the creates' latency. Both end with a line
// BENCH_RESULT and their figures as JSON, which scripts/bench.sh reads.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	base        = flag.String("base", "http://127.0.0.1:3000", "the server's base URL")
	pid         = flag.Int("pid", 0, "the server's process id, to read its memory from /proc")
	subscribers = flag.Int("subscribers", 1000, "event streams to open")
	rate        = flag.Int("rate", 100, "posts written a second while streams are open")
	duration    = flag.Duration("duration", 20*time.Second, "how long to write at -rate")
	burst       = flag.Duration("burst", 10*time.Second, "how long each create-rate measurement writes")
	writers     = flag.Int("writers", 8, "concurrent writers of a create-rate measurement")
	posts       = flag.Int("posts", 2000, "posts written for the webhook measurement")
)

// client keeps enough idle connections for every stream and writer.
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 0, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}}

func main() {
	flag.Parse()
	var err error
	switch flag.Arg(0) {
	case "streams":
		err = streams()
	case "webhooks":
		err = webhooks()
	case "revoke":
		err = revoke()
	case "sse-idle":
		err = sse(false)
	case "sse-fanout":
		err = sse(true)
	default:
		err = errors.New("usage: events [flags] streams|webhooks|revoke|sse-idle|sse-fanout")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "events:", err)
		os.Exit(1)
	}
}

// register makes an account and returns its token.
func register() (string, error) {
	email := fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano())
	var out struct {
		Token string `json:"token"`
	}
	err := call("POST", "/api/v1/register", "", map[string]any{"name": "Bench", "email": email, "password": "password1", "password_confirmation": "password1"}, http.StatusCreated, &out)
	return out.Token, err
}

func call(method, path, token string, body any, want int, out any) error {
	data, _ := json.Marshal(body)
	req, err := http.NewRequest(method, *base+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// createPost writes a post whose title carries the time it was sent.
func createPost(token string) error {
	title := "bench " + strconv.FormatInt(time.Now().UnixNano(), 10)
	return call("POST", "/api/v1/posts", token, map[string]any{"title": title, "body": "b", "status": "published"}, http.StatusCreated, nil)
}

// createRate writes posts from *writers goroutines for *burst and returns
// posts a second.
func createRate(token string) (float64, error) {
	var n atomic.Int64
	var firstErr atomic.Value
	deadline := time.Now().Add(*burst)
	var wg sync.WaitGroup
	start := time.Now()
	for range *writers {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := createPost(token); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return 0, err
	}
	return float64(n.Load()) / time.Since(start).Seconds(), nil
}

// subscribe follows the post events until ctx ends, reconnecting with
// Last-Event-ID when the server drops the stream (as it drops one that
// falls behind), and records for every event the delay since its create
// request was sent.
func subscribe(ctx context.Context, token string, ready *sync.WaitGroup, record func(time.Duration), reconnects *atomic.Int64) error {
	last := ""
	first := true
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", *base+"/api/v1/events?topics=posts", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := client.Do(req)
		if first {
			ready.Done()
			first = false
		}
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return fmt.Errorf("stream: %d", resp.StatusCode)
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if bytes.HasPrefix(line, []byte("id: ")) {
				last = string(line[4:])
				continue
			}
			if !bytes.HasPrefix(line, []byte("data: ")) {
				continue
			}
			now := time.Now()
			i := bytes.Index(line, []byte(`"title":"bench `))
			if i < 0 {
				continue
			}
			rest := line[i+len(`"title":"bench `):]
			j := bytes.IndexByte(rest, '"')
			if sent, err := strconv.ParseInt(string(rest[:j]), 10, 64); err == nil {
				record(now.Sub(time.Unix(0, sent)))
			}
		}
		resp.Body.Close()
		if ctx.Err() == nil {
			reconnects.Add(1)
		}
	}
	return nil
}

func rss() string {
	if *pid == 0 {
		return "n/a (no -pid)"
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", *pid))
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmRSS:") || strings.HasPrefix(line, "VmHWM:") {
			out = append(out, strings.Join(strings.Fields(line), " "))
		}
	}
	return strings.Join(out, ", ")
}

// pacedRun is what paced achieved.
type pacedRun struct {
	written  int
	rate     float64
	p50, p99 time.Duration
	cpu      time.Duration // the server's, over elapsed
	elapsed  time.Duration
	failed   int64
}

func (r pacedRun) String() string {
	cpu := "n/a (no -pid)"
	if *pid != 0 {
		cpu = fmt.Sprintf("%.0f%% of a core", 100*r.cpu.Seconds()/r.elapsed.Seconds())
	}
	return fmt.Sprintf("%.1f posts/s (%d failed), create p50 %s, p99 %s, server CPU %s",
		r.rate, r.failed, r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), cpu)
}

// paced writes *rate posts a second for *duration and reports what it
// achieved: the posts written, a second, the create latencies, and the
// server's CPU time in that span.
func paced(token string) (pacedRun, error) {
	var mu sync.Mutex
	var took []time.Duration
	var failed atomic.Int64
	cpuBefore, err := serverCPU()
	if err != nil {
		return pacedRun{}, err
	}
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	start := time.Now()
	deadline := start.Add(*duration)
	var wg sync.WaitGroup
	for time.Now().Before(deadline) {
		<-tick.C
		wg.Go(func() {
			sent := time.Now()
			if err := createPost(token); err != nil {
				failed.Add(1)
				fmt.Fprintln(os.Stderr, "create:", err)
				return
			}
			mu.Lock()
			took = append(took, time.Since(sent))
			mu.Unlock()
		})
	}
	tick.Stop()
	wg.Wait()
	elapsed := time.Since(start)
	cpuAfter, err := serverCPU()
	if err != nil {
		return pacedRun{}, err
	}
	if len(took) == 0 {
		return pacedRun{}, errors.New("no post was written")
	}
	slices.Sort(took)
	return pacedRun{
		written: len(took),
		rate:    float64(len(took)) / elapsed.Seconds(),
		p50:     took[len(took)/2],
		p99:     took[len(took)*99/100],
		cpu:     cpuAfter - cpuBefore,
		elapsed: elapsed,
		failed:  failed.Load(),
	}, nil
}

// serverCPU returns the CPU time the server has used (user and system),
// zero without -pid.
func serverCPU() (time.Duration, error) {
	if *pid == 0 {
		return 0, nil
	}
	return cpuOf(*pid)
}

// cpuOf returns the CPU time process p has used (user and system).
func cpuOf(p int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces; the fields after
	// it are numbered from the state, the third field of the file.
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", p, len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] { // utime and stime
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	// Linux reports them in USER_HZ, 100 a second on every architecture Go
	// supports.
	return time.Duration(ticks) * (time.Second / 100), nil
}

func streams() error {
	token, err := register()
	if err != nil {
		return err
	}
	alone, err := createRate(token)
	if err != nil {
		return err
	}
	fmt.Printf("create rate, no subscriber: %.0f posts/s (%d writers, %s)\n", alone, *writers, *burst)
	fmt.Printf("server memory before streams: %s\n", rss())
	before, err := paced(token)
	if err != nil {
		return err
	}
	fmt.Printf("%d posts/s for %s, no subscriber: %s\n", *rate, *duration, before)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var delays []time.Duration
	var measuring atomic.Bool
	record := func(d time.Duration) {
		if measuring.Load() {
			mu.Lock()
			delays = append(delays, d)
			mu.Unlock()
		}
	}
	var ready sync.WaitGroup
	var failed atomic.Int32
	var reconnects atomic.Int64
	for range *subscribers {
		ready.Add(1)
		go func() {
			if err := subscribe(ctx, token, &ready, record, &reconnects); err != nil && ctx.Err() == nil {
				failed.Add(1)
			}
		}()
	}
	ready.Wait()
	time.Sleep(time.Second)
	fmt.Printf("%d streams open (%d failed)\n", *subscribers-int(failed.Load()), failed.Load())

	measuring.Store(true)
	during, err := paced(token)
	if err != nil {
		return err
	}
	written := during.written
	time.Sleep(2 * time.Second)
	measuring.Store(false)
	fmt.Printf("server memory with streams open: %s\n", rss())

	mu.Lock()
	slices.Sort(delays)
	n := len(delays)
	mu.Unlock()
	want := written * (*subscribers - int(failed.Load()))
	if n == 0 {
		return errors.New("no event arrived")
	}
	fmt.Printf("%d posts/s for %s, %d subscribers: %s\n", *rate, *duration, *subscribers, during)
	fmt.Printf("%d posts at %d/s for %s: %d of %d events arrived (%d reconnects); delay p50 %s, p99 %s, max %s\n",
		written, *rate, *duration, n, want, reconnects.Load(), delays[n/2].Round(time.Microsecond), delays[n*99/100].Round(time.Microsecond), delays[n-1].Round(time.Microsecond))

	withStreams, err := createRate(token)
	if err != nil {
		return err
	}
	fmt.Printf("create rate, %d subscribers: %.0f posts/s\n", *subscribers, withStreams)
	return nil
}

func webhooks() error {
	token, err := register()
	if err != nil {
		return err
	}
	var got atomic.Int64
	done := make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if got.Add(1) == int64(*posts) {
			close(done)
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	err = call("POST", "/api/v1/webhooks", token, map[string]any{"url": "http://" + ln.Addr().String() + "/hook", "events": []string{"post.created"}}, http.StatusCreated, nil)
	if err != nil {
		return err
	}
	start := time.Now()
	var wg sync.WaitGroup
	var next atomic.Int64
	for range *writers {
		wg.Go(func() {
			for next.Add(1) <= int64(*posts) {
				if err := createPost(token); err != nil {
					fmt.Fprintln(os.Stderr, "create:", err)
				}
			}
		})
	}
	wg.Wait()
	written := time.Since(start)
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		return fmt.Errorf("only %d of %d deliveries in 5 minutes", got.Load(), *posts)
	}
	all := time.Since(start)
	fmt.Printf("%d posts written in %s (%.0f/s); all %d deliveries received after %s: %.0f deliveries/s\n",
		*posts, written.Round(time.Millisecond), float64(*posts)/written.Seconds(), *posts, all.Round(time.Millisecond), float64(*posts)/all.Seconds())
	return nil
}

// revokedStream is one stream of the revoke measurement.
type revokedStream struct {
	id, token string
	ready     chan error
	closed    chan struct{}
	closedAt  time.Time
	// ack is when its token's deletion was acknowledged, in UnixNano; 0
	// while the token lives.
	ack atomic.Int64
	// events counts the posts received; late those sent after ack.
	events, late atomic.Int64
}

// follow reads s's stream until the server ends it or ctx ends.
func (s *revokedStream) follow(ctx context.Context) {
	defer close(s.closed)
	req, _ := http.NewRequestWithContext(ctx, "GET", *base+"/api/v1/events?topics=posts", nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := client.Do(req)
	if err == nil && resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		err = fmt.Errorf("stream: %d", resp.StatusCode)
	}
	s.ready <- err
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.Index(line, []byte(`"title":"bench `))
		if !bytes.HasPrefix(line, []byte("data: ")) || i < 0 {
			continue
		}
		rest := line[i+len(`"title":"bench `):]
		sent, err := strconv.ParseInt(string(rest[:bytes.IndexByte(rest, '"')]), 10, 64)
		if err != nil {
			continue
		}
		s.events.Add(1)
		if ack := s.ack.Load(); ack != 0 && sent > ack {
			s.late.Add(1)
		}
	}
	s.closedAt = time.Now()
}

func revoke() error {
	owner, err := register()
	if err != nil {
		return err
	}
	all := make([]*revokedStream, *subscribers)
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for range *writers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(all); i = int(next.Add(1)) - 1 {
				var out struct {
					Token string `json:"token"`
					Data  struct {
						ID int64 `json:"id"`
					} `json:"data"`
				}
				if err := call("POST", "/api/v1/tokens", owner, map[string]any{"name": fmt.Sprint("stream ", i)}, http.StatusCreated, &out); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				all[i] = &revokedStream{id: strconv.FormatInt(out.Data.ID, 10), token: out.Token, ready: make(chan error, 1), closed: make(chan struct{})}
			}
		})
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, s := range all {
		go s.follow(ctx)
	}
	for _, s := range all {
		if err := <-s.ready; err != nil {
			return fmt.Errorf("opening %d streams: %w", len(all), err)
		}
	}
	fmt.Printf("%d streams open, one token each\n", len(all))

	// Posts keep coming while the tokens go, so that a stream which
	// outlived its token would receive one.
	stopWriting := make(chan struct{})
	var writing sync.WaitGroup
	writing.Go(func() {
		tick := time.NewTicker(time.Second / time.Duration(*rate))
		defer tick.Stop()
		for {
			select {
			case <-stopWriting:
				return
			case <-tick.C:
				go func() {
					if err := createPost(owner); err != nil {
						fmt.Fprintln(os.Stderr, "create:", err)
					}
				}()
			}
		}
	})
	time.Sleep(2 * time.Second)

	revoked, kept := all[:len(all)/2], all[len(all)/2:]
	var keptBefore int64
	for _, s := range kept {
		keptBefore += s.events.Load()
	}
	start := time.Now()
	next.Store(0)
	for range *writers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(revoked); i = int(next.Add(1)) - 1 {
				s := revoked[i]
				if err := call("DELETE", "/api/v1/tokens/"+s.id, owner, nil, http.StatusOK, nil); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				s.ack.Store(time.Now().UnixNano())
			}
		})
	}
	wg.Wait()
	acked := time.Since(start)
	if err, _ := firstErr.Load().(error); err != nil {
		return err
	}
	timeout := time.After(30 * time.Second)
	for _, s := range revoked {
		select {
		case <-s.closed:
		case <-timeout:
		}
	}
	var open int
	var lastClose time.Time
	var afterAck []time.Duration
	var late int64
	for _, s := range revoked {
		select {
		case <-s.closed:
			if s.closedAt.After(lastClose) {
				lastClose = s.closedAt
			}
			afterAck = append(afterAck, s.closedAt.Sub(time.Unix(0, s.ack.Load())))
		default:
			open++
		}
		late += s.late.Load()
	}
	time.Sleep(2 * time.Second)
	close(stopWriting)
	writing.Wait()
	var keptClosed int
	var keptAfter int64
	for _, s := range kept {
		select {
		case <-s.closed:
			keptClosed++
		default:
		}
		keptAfter += s.events.Load()
	}
	fmt.Printf("%d tokens deleted in %s (%d writers), posts at %d/s throughout\n", len(revoked), acked.Round(time.Millisecond), *writers, *rate)
	if len(afterAck) > 0 {
		slices.Sort(afterAck)
		fmt.Printf("revoked: %d of %d closed, the last %s after the first deletion was sent; after its own deletion's answer each closed in p50 %s, p99 %s, max %s\n",
			len(afterAck), len(revoked), lastClose.Sub(start).Round(time.Millisecond),
			afterAck[len(afterAck)/2].Round(time.Millisecond), afterAck[len(afterAck)*99/100].Round(time.Millisecond), afterAck[len(afterAck)-1].Round(time.Millisecond))
	}
	fmt.Printf("revoked: %d still open after 30 s; %d posts received that were sent after their token's deletion was answered\n", open, late)
	fmt.Printf("kept: %d of %d closed; they received %d posts during and after the revocations\n", keptClosed, len(kept), keptAfter-keptBefore)
	if open > 0 || late > 0 || keptClosed > 0 || keptAfter == keptBefore {
		return errors.New("the revocations did not end exactly the revoked streams")
	}
	return nil
}
