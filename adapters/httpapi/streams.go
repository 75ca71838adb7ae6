package httpapi

import (
	"errors"
	"net"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// Timings of the streams' writes.
const (
	// streamWriteTimeout bounds how long a stream may leave bytes unwritten:
	// a subscriber that does not read what the server holds for it within
	// it is disconnected, and resumes with Last-Event-ID, rather than
	// holding memory forever.
	streamWriteTimeout = 10 * time.Second
	// streamWriteAttempt bounds one write: a worker gives up on a
	// subscriber whose socket is full after it, keeps the rest and tries
	// again at the next sweep, so that a slow subscriber never holds a
	// worker long.
	streamWriteAttempt = 20 * time.Millisecond
	// streamSweep is how often the hub's one timer retries the writes
	// left unfinished and, every heartbeat, queues a heartbeat for every
	// stream.
	streamSweep = 200 * time.Millisecond
	// streamQueue is how many messages a subscriber's queue holds beyond
	// one batch: a batch always fits an empty queue, and a subscriber whose
	// queue would outgrow this is closed.
	streamQueue = 64
)

// Frames every stream sends: the retry field, which tells a browser how
// soon to reconnect, the heartbeat, a comment line that keeps proxies
// from closing an idle stream and finds gone clients, and the last chunk
// of the body.
var (
	retryFrame     = chunk([]byte("retry: 2000\n\n"))
	heartbeatFrame = chunk([]byte(": keep-alive\n\n"))
	lastChunk      = []byte("0\r\n\r\n")
)

// chunk frames b as one chunk of a chunked body.
func chunk(b []byte) []byte {
	out := strconv.AppendInt(make([]byte, 0, len(b)+12), int64(len(b)), 16)
	out = append(out, "\r\n"...)
	out = append(out, b...)
	return append(out, "\r\n"...)
}

// hub holds the event streams of a server once their connections left
// fasthttp: each is a subscriber, a small record with a bounded queue of
// messages shared with every other stream that sends them. A fixed pool
// of workers writes the queues out, each write bounded by a deadline, and
// one timer sends the heartbeats of all and retries the writes a full
// socket cut short. No goroutine waits for an idle stream; a gone client
// is found by the error of the next write, at the latest a heartbeat's.
type hub struct {
	render    *renderCache
	heartbeat time.Duration
	// open counts the streams, from the handler to the close.
	open *atomic.Int64

	mu       sync.Mutex
	subs     map[*subscriber]struct{}
	stuck    map[*subscriber]struct{} // writes a full socket cut short
	draining bool
	started  bool
	stop     chan struct{}
	done     sync.WaitGroup

	// ready holds the subscribers with something to write, for workers.
	readyMu sync.Mutex
	ready   []*subscriber
	wake    *sync.Cond
}

func newHub(render *renderCache, heartbeat time.Duration, open *atomic.Int64) *hub {
	h := &hub{
		render: render, heartbeat: heartbeat, open: open,
		subs: map[*subscriber]struct{}{}, stuck: map[*subscriber]struct{}{},
		stop: make(chan struct{}),
	}
	h.wake = sync.NewCond(&h.readyMu)
	return h
}

// streamWorkers is how many goroutines write the streams of a server.
const streamWorkers = 8

// subscriber is one event stream: what the hub keeps of it between
// writes.
type subscriber struct {
	hub    *hub
	links  links
	cancel func() // ends the subscription (ports.Events.Subscribe)

	mu      sync.Mutex
	conn    net.Conn // nil until the headers are to be written
	queue   [][]byte // messages to write; the first written up to sent
	sent    int
	queued  bool      // in the ready list, or being written
	ending  bool      // End: close once the queue is written
	abort   bool      // the queue overflowed: close at once
	closed  bool      // the connection is closed
	stuck   time.Time // since when a write leaves bytes behind
	drained chan struct{}
}

// subscriber returns the record of a new stream.
func (h *hub) subscriber(l links) *subscriber {
	return &subscriber{hub: h, links: l}
}

// attach gives sub its connection, once fasthttp let it go, and head, the
// response's headers, which go out first.
func (h *hub) attach(sub *subscriber, conn net.Conn, head []byte) {
	// Past fasthttp's hijacked wrapper, whose reader fasthttp reuses, and
	// past the listener's own, so that writes of several messages are one
	// system call.
	if u, ok := conn.(interface{ UnsafeConn() net.Conn }); ok {
		conn = u.UnsafeConn()
	}
	if u, ok := conn.(interface{ NetConn() net.Conn }); ok {
		conn = u.NetConn()
	}
	h.mu.Lock()
	draining := h.draining
	if !draining {
		h.subs[sub] = struct{}{}
		h.start()
	}
	h.mu.Unlock()
	if draining {
		// The server is shutting down: the stream ends at once, and the
		// client resumes elsewhere.
		sub.cancel()
		_ = conn.SetWriteDeadline(time.Now().Add(streamWriteAttempt))
		_, _ = (&net.Buffers{head, retryFrame, lastChunk}).WriteTo(conn)
		_ = conn.Close()
		return
	}
	// The stream counts as open from here until close.
	h.open.Add(1)
	sub.mu.Lock()
	sub.conn = conn
	sub.queue = append([][]byte{head, retryFrame}, sub.queue...)
	sub.mu.Unlock()
	h.schedule(sub)
}

// start starts the workers and the timer with the first stream; the
// caller holds h.mu.
func (h *hub) start() {
	if h.started {
		return
	}
	h.started = true
	for range streamWorkers {
		h.done.Go(h.work)
	}
	h.done.Go(h.sweep)
}

// Catch implements ports.EventSink: it waits until the queue is written
// out before it takes more, as a stream that catches up reads the outbox
// no faster than its client reads.
func (sub *subscriber) Catch(events []ports.VisibleEvent) bool {
	for {
		sub.mu.Lock()
		if sub.ending || sub.closed {
			sub.mu.Unlock()
			return false
		}
		if len(sub.queue) == 0 {
			break
		}
		if sub.drained == nil {
			sub.drained = make(chan struct{})
		}
		drained := sub.drained
		sub.mu.Unlock()
		<-drained
	}
	ok := sub.add(events)
	sub.mu.Unlock()
	if ok {
		sub.hub.schedule(sub)
	}
	return ok
}

// Deliver implements ports.EventSink: it queues the messages of events,
// or refuses them when the queue would outgrow its bound.
func (sub *subscriber) Deliver(events []ports.VisibleEvent) bool {
	sub.mu.Lock()
	ok := !sub.ending && !sub.closed
	switch {
	case !ok:
	case len(sub.queue) > 0 && len(sub.queue)+len(events) > streamQueue:
		ok, sub.abort = false, true
	default:
		ok = sub.add(events)
	}
	sub.mu.Unlock()
	if ok {
		sub.hub.schedule(sub)
	}
	return ok
}

// add queues the messages of events; the caller holds sub.mu.
func (sub *subscriber) add(events []ports.VisibleEvent) bool {
	for _, ve := range events {
		frame, err := sub.hub.render.frame(sub.links, ve)
		if err != nil {
			return false
		}
		sub.queue = append(sub.queue, frame)
	}
	return true
}

// End implements ports.EventSink: the stream ends once its queue is
// written, with the body's last chunk; the client resumes from the last
// id it received.
func (sub *subscriber) End() {
	sub.mu.Lock()
	sub.ending = true
	sub.mu.Unlock()
	sub.hub.schedule(sub)
}

// schedule hands sub to a worker unless one has it already or it has
// no connection yet.
func (h *hub) schedule(sub *subscriber) {
	sub.mu.Lock()
	if sub.queued || sub.closed || sub.conn == nil {
		sub.mu.Unlock()
		return
	}
	sub.queued = true
	sub.mu.Unlock()
	h.readyMu.Lock()
	h.ready = append(h.ready, sub)
	h.readyMu.Unlock()
	h.wake.Signal()
}

// work writes the queues of ready subscribers until the hub stops.
func (h *hub) work() {
	var bufs net.Buffers
	for {
		h.readyMu.Lock()
		for len(h.ready) == 0 {
			select {
			case <-h.stop:
				h.readyMu.Unlock()
				return
			default:
			}
			h.wake.Wait()
		}
		sub := h.ready[0]
		h.ready[0] = nil
		h.ready = h.ready[1:]
		if len(h.ready) == 0 {
			h.ready = h.ready[:0:0]
		}
		h.readyMu.Unlock()
		bufs = h.write(sub, bufs)
		// A fan-out is thousands of writes in a row, each a system call of
		// a few microseconds that keeps its processor. Yielding after each
		// lets the requests that wait for a processor (a create, whose
		// event the fan-out carries) run between two writes rather than
		// after the workers' time slices.
		runtime.Gosched()
	}
}

// write writes what sub's queue holds, within streamWriteAttempt, and
// closes sub when a write fails, when it has left bytes behind for
// streamWriteTimeout, or when it ends and its queue is empty. bufs is the
// worker's to reuse.
func (h *hub) write(sub *subscriber, bufs net.Buffers) net.Buffers {
	sub.mu.Lock()
	conn := sub.conn
	bufs = append(bufs[:0], sub.queue...)
	if len(bufs) > 0 {
		bufs[0] = bufs[0][sub.sent:]
	}
	ending, abort := sub.ending, sub.abort
	sub.mu.Unlock()
	if abort || ending && len(bufs) == 0 {
		clear(bufs)
		sub.mu.Lock()
		sub.queued = false
		sub.mu.Unlock()
		h.close(sub, !abort)
		return bufs
	}
	now := time.Now()
	_ = conn.SetWriteDeadline(now.Add(streamWriteAttempt))
	toWrite := bufs
	n, err := toWrite.WriteTo(conn)
	clear(bufs)
	wrote := n > 0

	sub.mu.Lock()
	for n > 0 && len(sub.queue) > 0 {
		rest := int64(len(sub.queue[0]) - sub.sent)
		if n < rest {
			sub.sent += int(n)
			break
		}
		n -= rest
		sub.queue[0] = nil
		sub.queue = sub.queue[1:]
		sub.sent = 0
	}
	if len(sub.queue) == 0 {
		sub.queue = nil
		if sub.drained != nil {
			close(sub.drained)
			sub.drained = nil
		}
	}
	timedOut := errors.Is(err, os.ErrDeadlineExceeded)
	switch {
	case err != nil && !timedOut:
	case timedOut && !sub.stuck.IsZero() && now.Sub(sub.stuck) >= streamWriteTimeout:
		err = errStreamStuck
	case timedOut:
		// A client that reads, however slowly, has until
		// streamWriteTimeout after its last progress.
		if sub.stuck.IsZero() || wrote {
			sub.stuck = now
		}
		sub.queued = false
		sub.mu.Unlock()
		h.mu.Lock()
		h.stuck[sub] = struct{}{}
		h.mu.Unlock()
		return bufs
	default:
		sub.stuck = time.Time{}
	}
	more := len(sub.queue) > 0 || sub.ending
	sub.queued = false
	sub.mu.Unlock()
	switch {
	case err != nil:
		h.close(sub, false)
	case more:
		h.schedule(sub)
	}
	return bufs
}

var errStreamStuck = errors.New("stream: the client reads nothing")

// close closes sub's connection, after the body's last chunk when clean,
// and ends its subscription.
func (h *hub) close(sub *subscriber, clean bool) {
	sub.mu.Lock()
	if sub.closed {
		sub.mu.Unlock()
		return
	}
	sub.closed, sub.queue = true, nil
	if sub.drained != nil {
		close(sub.drained)
		sub.drained = nil
	}
	conn := sub.conn
	sub.mu.Unlock()
	if clean {
		_ = conn.SetWriteDeadline(time.Now().Add(streamWriteAttempt))
		_, _ = conn.Write(lastChunk)
	}
	_ = conn.Close()
	h.mu.Lock()
	delete(h.subs, sub)
	delete(h.stuck, sub)
	h.mu.Unlock()
	h.open.Add(-1)
	sub.cancel()
}

// sweep is the hub's one timer: it retries the writes a full socket cut
// short and queues a heartbeat for every stream each heartbeat.
func (h *hub) sweep() {
	tick := time.NewTicker(min(streamSweep, h.heartbeat))
	defer tick.Stop()
	lastBeat := time.Now()
	var subs []*subscriber
	for {
		select {
		case <-h.stop:
			return
		case now := <-tick.C:
			beat := now.Sub(lastBeat) >= h.heartbeat
			if beat {
				lastBeat = now
			}
			h.mu.Lock()
			subs = subs[:0]
			if beat {
				for sub := range h.subs {
					subs = append(subs, sub)
				}
			} else {
				for sub := range h.stuck {
					subs = append(subs, sub)
				}
			}
			clear(h.stuck)
			h.mu.Unlock()
			for _, sub := range subs {
				if beat {
					sub.mu.Lock()
					if len(sub.queue) == 0 && !sub.ending {
						sub.queue = append(sub.queue, heartbeatFrame)
					}
					sub.mu.Unlock()
				}
				h.schedule(sub)
			}
			clear(subs)
		}
	}
}

// drain ends every stream, each with the body's last chunk after what its
// queue holds, and stops the workers once they are closed or timeout
// passed; streams that open later end at once.
func (h *hub) drain(timeout time.Duration) {
	h.mu.Lock()
	if h.draining {
		h.mu.Unlock()
		return
	}
	h.draining = true
	subs := make([]*subscriber, 0, len(h.subs))
	for sub := range h.subs {
		subs = append(subs, sub)
	}
	started := h.started
	h.mu.Unlock()
	for _, sub := range subs {
		// The subscription's end ends the stream, through End.
		sub.cancel()
	}
	if !started {
		return
	}
	deadline := time.Now().Add(timeout)
	for {
		h.mu.Lock()
		left := len(h.subs)
		h.mu.Unlock()
		if left == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.mu.Lock()
	subs = subs[:0]
	for sub := range h.subs {
		subs = append(subs, sub)
	}
	h.mu.Unlock()
	for _, sub := range subs {
		h.close(sub, false)
	}
	close(h.stop)
	h.readyMu.Lock()
	h.wake.Broadcast()
	h.readyMu.Unlock()
	h.done.Wait()
}
