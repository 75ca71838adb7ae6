package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// EventFilter narrows what EventRepository.After returns.
type EventFilter struct {
	// Topics keeps events of these topics (domain.Topics); none keeps all.
	Topics []string
	// PostID keeps the events about one post and its comments; 0 keeps all.
	PostID int64
}

// EventRepository is the outbox: every change of posts, comments and area
// B's records appends its event in the transaction that makes the change,
// so that an event exists exactly when its change was committed.
type EventRepository interface {
	// Append stores e and sets its ID. IDs grow in the order the
	// transactions that append them commit, so that a reader who has seen
	// every event up to some ID will never see another event at or below
	// it: a reader may resume after the last ID it saw without missing
	// anything. A transaction should append its events last, just before
	// it commits, since a store may hold other appenders off from the
	// append to the commit.
	Append(ctx context.Context, e *domain.Event) error
	// After returns, in ID order, up to limit events f keeps whose ID is
	// above after.
	After(ctx context.Context, after int64, limit int, f EventFilter) ([]domain.Event, error)
	// Last returns the id of the newest committed event, even when it has
	// been pruned since, 0 when there was none: a reader that starts after
	// it receives what commits from then on, and no reader can have seen
	// an id above it.
	Last(ctx context.Context) (int64, error)
	// Prune removes the events created before cutoff and says how many
	// went. It may run on every replica at once.
	Prune(ctx context.Context, cutoff time.Time) (int64, error)
}

// EventWaker tells readers of the outbox when events may have been
// committed, so that they need not poll often. A wake-up may be lost (a
// replica that misses a notification of another one) or come with no new
// event; readers still read the outbox itself, and poll it now and then.
type EventWaker interface {
	// Subscribe returns a channel that receives after events were
	// committed, and a function that ends the subscription. A subscriber
	// that has not taken the last wake-up yet misses none by not taking
	// it: the channel holds one, and the waker never waits for it.
	Subscribe() (<-chan struct{}, func())
}

// EventViewer is who reads events: a user (User 0: anonymous), the
// credential they read with, and the client address they read from.
type EventViewer struct {
	User int64
	// Token is the bearer token the reader presented, nil for none.
	Token *domain.Token
	// SessionHash names the browser session (domain.Session.IDHash) the
	// reader came with, "" for none.
	SessionHash string
	// Address is the client's address, which the streams per address are
	// counted by.
	Address string
}

// Events is the driving port of the event stream.
type Events interface {
	// Follow streams, in id order, the events f keeps and viewer may see,
	// each with how much of it viewer may see: those after after, or,
	// when fromNow, those committed from now on. The channel closes when
	// ctx ends, when the outbox cannot be read, or when the caller falls
	// so far behind that the events no longer wait for it; the caller then
	// resumes with Follow after the last id it took. It also closes, with
	// nothing committed after it sent, when the viewer's credential ends:
	// its token or session is revoked (on any replica) or expires.
	// domain.ErrUnauthenticated when the credential ended before the
	// stream began; an Invalid error on the field "Last-Event-ID" when
	// after is above the newest event; domain.ErrTooManyStreams when the
	// viewer's token or session, or its address, holds as many streams as
	// the caps allow.
	Follow(ctx context.Context, viewer EventViewer, f EventFilter, after int64, fromNow bool) (<-chan []VisibleEvent, error)
	// Subscribe is Follow for a caller that holds many streams and wants
	// no goroutine for each: the replica's one reader of the outbox hands
	// the events to sink instead of a channel, and the subscription lasts
	// until the returned function is called or sink.End; ctx bounds only
	// the reads that open it. Events, errors and ends are Follow's: sink
	// receives End once, whatever ended the subscription, the returned
	// function included, and after its last Deliver.
	Subscribe(ctx context.Context, viewer EventViewer, f EventFilter, after int64, fromNow bool, sink EventSink) (func(), error)
	// Prune removes the events older than the retention.
	Prune(ctx context.Context) (int64, error)
}

// EventSink receives the events of one subscription (Events.Subscribe),
// in id order. None of its methods may call the function that ends the
// subscription.
type EventSink interface {
	// Catch takes the events a subscription that resumes from further back
	// reads from the outbox itself, batch by batch, before the feed's: it
	// may wait until the sink has room for more, and returns false when
	// it ended instead.
	Catch(events []VisibleEvent) bool
	// Deliver takes the next events from the replica's one reader of the
	// outbox, which calls it for every subscription in turn: it must not
	// wait. False when the sink cannot take them, as its queue is full,
	// which ends the subscription (the caller then resumes after the last
	// id it took).
	Deliver(events []VisibleEvent) bool
	// End says that nothing more comes. It is never called during Catch
	// or Deliver of the same subscription's goroutine, but may be while
	// Catch waits in another.
	End()
}

// VisibleEvent is an event with how much of it a reader may see: never
// domain.EventHidden.
type VisibleEvent struct {
	Event domain.Event
	View  domain.EventView
}
