package app_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

type mailWorld struct {
	store  ports.Store
	clock  *clock.Fixed
	inbox  *mail.Inbox
	outbox *app.Outbox
	worker *app.MailWorker
}

func newMailWorld(t *testing.T, store ports.Store) mailWorld {
	t.Helper()
	composer, err := mail.NewComposer(mail.Config{AppName: "Inkwell"})
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFixed(t0)
	cfg := app.MailConfig{From: "noreply@inkwell.test", RetryAfter: 5 * time.Second}
	outbox := app.NewOutbox(composer, random.NewSecrets(), clk, cfg)
	inbox := mail.NewInbox()
	return mailWorld{store: store, clock: clk, inbox: inbox, outbox: outbox, worker: app.NewMailWorker(store, inbox, clk, outbox, cfg)}
}

func (w mailWorld) enqueue(t *testing.T, to string, lifetime time.Duration) domain.Mail {
	t.Helper()
	var m domain.Mail
	err := w.store.InTx(t.Context(), func(r ports.Repos) error {
		var err error
		m, err = w.outbox.Enqueue(t.Context(), r, to, ports.MailPasswordReset,
			map[string]string{"name": "Ann", "url": "https://x.test/password-reset/t?email=" + to, "minutes": "60"}, lifetime)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (w mailWorld) sendDue(t *testing.T) int {
	t.Helper()
	n, err := w.worker.SendDue(t.Context())
	if err != nil && !strings.Contains(err.Error(), "failed after") {
		t.Fatalf("SendDue: %v", err)
	}
	return n
}

func (w mailWorld) stored(t *testing.T, id int64) domain.Mail {
	t.Helper()
	m, err := w.store.Repos().Mails.Get(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMailOutboxSendsOnce checks that an enqueued mail is sent once, with
// the Message-ID it got at enqueue, and that its stored body is erased.
func TestMailOutboxSendsOnce(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			w := newMailWorld(t, s.Open(t))
			m := w.enqueue(t, "ann@example.com", time.Hour)
			if !strings.HasPrefix(m.MessageID, "<") || !strings.HasSuffix(m.MessageID, "@inkwell.test>") || m.Text == "" || m.HTML == "" {
				t.Fatalf("enqueued %+v", m)
			}
			if got := w.sendDue(t); got != 1 {
				t.Fatalf("SendDue claimed %d, want 1", got)
			}
			if got := w.sendDue(t); got != 0 {
				t.Fatalf("second SendDue claimed %d, want 0", got)
			}
			sent := w.inbox.Sent()
			if len(sent) != 1 || sent[0].MessageID != m.MessageID || sent[0].Text != m.Text || sent[0].To != "ann@example.com" {
				t.Fatalf("sent %+v, want the enqueued mail once", sent)
			}
			got := w.stored(t, m.ID)
			if got.Status != domain.MailSent || got.Text != "" || got.HTML != "" || got.SentAt == nil {
				t.Errorf("stored after sending: %+v", got)
			}
		})
	}
}

// TestMailOutboxRetries checks the backoff of temporary failures, that a
// retry keeps the Message-ID, and that a permanent failure is final.
func TestMailOutboxRetries(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			w := newMailWorld(t, s.Open(t))
			m := w.enqueue(t, "ann@example.com", time.Hour)
			temp := fmt.Errorf("421 busy: %w", domain.ErrUnavailable)
			w.inbox.FailNext(temp, temp)
			w.sendDue(t)
			if got := w.stored(t, m.ID); got.Status != domain.MailPending || got.Attempts != 1 || !got.NextAttemptAt.Equal(t0.Add(5*time.Second)) || got.Text == "" {
				t.Fatalf("after one temporary failure: %+v", got)
			}
			w.clock.Advance(4 * time.Second)
			if n := w.sendDue(t); n != 0 {
				t.Fatalf("claimed %d before the backoff ran out", n)
			}
			w.clock.Advance(time.Second)
			w.sendDue(t) // the second failure: 10 s more
			if got := w.stored(t, m.ID); got.Attempts != 2 || !got.NextAttemptAt.Equal(t0.Add(15*time.Second)) {
				t.Fatalf("after two temporary failures: %+v", got)
			}
			w.clock.Advance(10 * time.Second)
			w.sendDue(t)
			sent := w.inbox.Sent()
			if len(sent) != 1 || sent[0].MessageID != m.MessageID {
				t.Fatalf("sent %+v, want the mail once with its Message-ID", sent)
			}

			p := w.enqueue(t, "bob@example.com", time.Hour)
			w.inbox.FailNext(errors.New("550 no such mailbox"))
			w.sendDue(t)
			if got := w.stored(t, p.ID); got.Status != domain.MailFailed || got.Attempts != 1 || got.Text != "" || got.LastError != "550 no such mailbox" {
				t.Fatalf("after a permanent failure: %+v", got)
			}
			w.clock.Advance(time.Hour)
			w.sendDue(t)
			if n := len(w.inbox.Sent()); n != 1 {
				t.Errorf("%d mails sent, want 1: a failed mail is not sent again", n)
			}
		})
	}
}

// TestMailOutboxGivesUp checks that a mail is attempted at most
// domain.MailMaxAttempts times, and that one past its expiry is not sent
// and loses its body.
func TestMailOutboxGivesUp(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			w := newMailWorld(t, s.Open(t))
			m := w.enqueue(t, "ann@example.com", 100*24*time.Hour)
			for range domain.MailMaxAttempts + 2 {
				w.inbox.FailNext(domain.ErrUnavailable)
			}
			for range domain.MailMaxAttempts + 2 {
				w.sendDue(t)
				w.clock.Advance(24 * time.Hour)
			}
			if got := w.stored(t, m.ID); got.Status != domain.MailFailed || got.Attempts != domain.MailMaxAttempts || got.Text != "" {
				t.Errorf("after every attempt failed: %+v", got)
			}

			e := w.enqueue(t, "bob@example.com", time.Minute)
			w.clock.Advance(time.Minute)
			if n := w.sendDue(t); n != 0 {
				t.Errorf("claimed %d expired mails", n)
			}
			if got := w.stored(t, e.ID); got.Status != domain.MailExpired || got.Text != "" || got.HTML != "" {
				t.Errorf("expired mail: %+v", got)
			}
			if n := len(w.inbox.Sent()); n != 0 {
				t.Errorf("%d mails sent, want none", n)
			}
		})
	}
}

// TestMailWorkerRuns checks that the running worker, woken after the
// enqueueing transaction commits, sends without being told to.
func TestMailWorkerRuns(t *testing.T) {
	w := newMailWorld(t, directoryStores[0].Open(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.worker.Run(ctx, func(err error) { t.Errorf("worker: %v", err) })
	}()
	defer func() { cancel(); <-done }()
	w.enqueue(t, "ann@example.com", time.Hour)
	w.outbox.Wake()
	deadline := time.Now().Add(5 * time.Second)
	for len(w.inbox.Sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := len(w.inbox.Sent()); n != 1 {
		t.Fatalf("%d mails sent, want 1", n)
	}
}

// TestMailWorkerPrunes checks that finished mails go after the retention,
// and that a pending one stays.
func TestMailWorkerPrunes(t *testing.T) {
	w := newMailWorld(t, directoryStores[0].Open(t))
	sent := w.enqueue(t, "ann@example.com", 30*24*time.Hour)
	w.sendDue(t)
	w.inbox.FailNext(domain.ErrUnavailable)
	pending := w.enqueue(t, "bob@example.com", 30*24*time.Hour)
	w.sendDue(t)
	w.clock.Advance(7*24*time.Hour - time.Second)
	if n, err := w.worker.Prune(t.Context()); err != nil || n != 0 {
		t.Fatalf("Prune within the retention: %d, %v", n, err)
	}
	w.clock.Advance(time.Second)
	if n, err := w.worker.Prune(t.Context()); err != nil || n != 1 {
		t.Fatalf("Prune after the retention: %d, %v; want the sent mail", n, err)
	}
	if _, err := w.store.Repos().Mails.Get(t.Context(), sent.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the sent mail is still there: %v", err)
	}
	if got := w.stored(t, pending.ID); got.Status != domain.MailPending {
		t.Errorf("the pending mail: %+v", got)
	}
}

// TestMailWorkerRestsWhileTheServerFails checks that a temporary failure
// makes the running worker stop trying the mails due meanwhile until the
// first retry's wait has passed, and then send them all.
func TestMailWorkerRestsWhileTheServerFails(t *testing.T) {
	w := newMailWorld(t, directoryStores[0].Open(t))
	w.inbox.FailNext(domain.ErrUnavailable)
	first := w.enqueue(t, "first@example.com", time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.worker.Run(ctx, func(error) {})
	}()
	defer func() { cancel(); <-done }()
	w.outbox.Wake()
	waitFor(t, "the first attempt", func() bool { return w.stored(t, first.ID).Attempts == 1 })

	// Mails enqueued while the worker rests wait, however often it is
	// woken: no attempt is made, so none is recorded.
	var later []domain.Mail
	for i := range 5 {
		later = append(later, w.enqueue(t, fmt.Sprintf("later%d@example.com", i), time.Hour))
		w.outbox.Wake()
	}
	time.Sleep(200 * time.Millisecond)
	for _, m := range later {
		if got := w.stored(t, m.ID); got.Attempts != 0 {
			t.Fatalf("mail to %s attempted %d times while the worker rests, want 0", got.To, got.Attempts)
		}
	}

	// After the wait every mail goes, the failed one with them.
	w.clock.Advance(5 * time.Second)
	w.outbox.Wake()
	waitFor(t, "the mails after the rest", func() bool { return len(w.inbox.Sent()) == 6 })
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen within 5s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// handOverThenDie is the mailer of a replica killed mid-send: it hands
// the mail over (keeping it, as the receiver would) and then never
// answers, so the worker records nothing.
type handOverThenDie struct {
	handed chan domain.Mail
}

func (d handOverThenDie) Send(ctx context.Context, m domain.Mail) error {
	d.handed <- m
	<-ctx.Done()
	return ctx.Err()
}

// TestMailLeaseOutlivesADeadWorker checks MAIL_LEASE's promise: a mail
// claimed by a worker that died waits out the configured lease, not the
// default minute and not less, and is then sent by another worker, a
// second time, since the dead one had handed it over.
func TestMailLeaseOutlivesADeadWorker(t *testing.T) {
	const lease = 10 * time.Second
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			w := newMailWorld(t, s.Open(t))
			cfg := app.MailConfig{From: "noreply@inkwell.test", RetryAfter: 5 * time.Second, Lease: lease}
			dead := handOverThenDie{handed: make(chan domain.Mail, 1)}
			dying := app.NewMailWorker(w.store, dead, w.clock, nil, cfg)
			alive := app.NewMailWorker(w.store, w.inbox, w.clock, nil, cfg)
			m := w.enqueue(t, "ann@example.com", time.Hour)

			ctx, kill := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { _, err := dying.SendDue(ctx); done <- err }()
			if got := <-dead.handed; got.ID != m.ID {
				t.Fatalf("the dying worker sent mail %d, want %d", got.ID, m.ID)
			}
			kill()
			if err := <-done; err != nil {
				t.Fatalf("the dying worker: %v", err)
			}

			w.clock.Advance(lease - time.Second)
			if n, err := alive.SendDue(t.Context()); err != nil || n != 0 {
				t.Fatalf("a second before the lease ends: claimed %d, %v; want none", n, err)
			}
			w.clock.Advance(time.Second)
			if n, err := alive.SendDue(t.Context()); err != nil || n != 1 {
				t.Fatalf("when the lease ends: claimed %d, %v; want the dead worker's mail", n, err)
			}
			if sent := w.inbox.Sent(); len(sent) != 1 || sent[0].MessageID != m.MessageID {
				t.Fatalf("sent %+v, want the mail again, with its Message-ID", sent)
			}
			if got := w.stored(t, m.ID); got.Status != domain.MailSent || got.Attempts != 1 {
				t.Errorf("stored: %+v, want sent after one recorded attempt", got)
			}
		})
	}
}
