package demo

import (
	"runtime"
	"sync"
)

// streamChunk is how many rows a worker generates at a time: enough to make
// the hand-over cheap, small enough to keep the first rows coming at once.
const streamChunk = 1024

// Stream generates rows 0..n-1 ahead of its reader on one goroutine per
// processor and hands them out in order. Rows are independent of each
// other, so a loader that writes on one connection keeps another processor
// busy generating. A Stream holds at most a few chunks per worker that
// nobody has read yet.
type Stream[T any] struct {
	order chan chan []T // each chunk's result, in row order
	stop  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
	buf   []T
	pos   int
}

type streamJob[T any] struct {
	start, end int
	out        chan []T
}

// NewStream starts generating row(0) to row(n-1). The caller must Close the
// stream, even after reading it to the end.
func NewStream[T any](n int, row func(int) T) *Stream[T] {
	workers := max(1, runtime.GOMAXPROCS(0))
	s := &Stream[T]{order: make(chan chan []T, 4*workers), stop: make(chan struct{})}
	jobs := make(chan streamJob[T])
	s.wg.Add(1 + workers)
	go func() {
		defer s.wg.Done()
		defer close(s.order)
		defer close(jobs)
		for start := 0; start < n; start += streamChunk {
			// The result channel is queued before the job is handed out, so
			// the reader takes chunks in order whichever worker ends first.
			job := streamJob[T]{start: start, end: min(start+streamChunk, n), out: make(chan []T, 1)}
			select {
			case s.order <- job.out:
			case <-s.stop:
				return
			}
			select {
			case jobs <- job:
			case <-s.stop:
				return
			}
		}
	}()
	for range workers {
		go func() {
			defer s.wg.Done()
			for job := range jobs {
				rows := make([]T, job.end-job.start)
				for k := range rows {
					rows[k] = row(job.start + k)
				}
				job.out <- rows // buffered: a worker never waits for the reader
			}
		}()
	}
	return s
}

// Next returns the next row, or false after the last one.
func (s *Stream[T]) Next() (T, bool) {
	for s.pos == len(s.buf) {
		out, ok := <-s.order
		if !ok {
			var zero T
			return zero, false
		}
		s.buf, s.pos = <-out, 0
	}
	v := s.buf[s.pos]
	s.buf[s.pos] = *new(T) // let the row's strings go once written
	s.pos++
	return v, true
}

// Close stops the workers and waits for them. Next must not be called after.
func (s *Stream[T]) Close() {
	s.once.Do(func() { close(s.stop) })
	s.wg.Wait()
}
