package app

import (
	"context"
	"encoding/hex"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// MailConfig holds the settings of outgoing mail.
type MailConfig struct {
	// From is the sender's address; Message-IDs are made in its domain.
	From string
	// RetryAfter is the wait before the first retry of a temporary
	// failure, doubled for each one after; 5 seconds when zero.
	RetryAfter time.Duration
	// Lease is how long a claimed mail stays with the replica that
	// claimed it, longer than an attempt may take; a minute when zero.
	Lease time.Duration
	// Workers is how many mails a replica sends at once; 4 when zero.
	Workers int
	// Poll is how often a replica looks for due mails without being
	// woken; a second when zero.
	Poll time.Duration
	// Retention is how long a mail that is no longer pending (sent,
	// failed or expired, its body erased) is kept; a week when zero.
	Retention time.Duration
}

func (c MailConfig) withDefaults() MailConfig {
	if c.RetryAfter <= 0 {
		c.RetryAfter = 5 * time.Second
	}
	if c.Lease <= 0 {
		c.Lease = time.Minute
	}
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.Poll <= 0 {
		c.Poll = time.Second
	}
	if c.Retention <= 0 {
		c.Retention = 7 * 24 * time.Hour
	}
	return c
}

// messageIDBytes is the random part of a Message-ID: 16 bytes, 128 bits.
const messageIDBytes = 16

// Outbox writes mails into the store's outbox, rendered from the
// composer's templates, for the MailWorker to send.
type Outbox struct {
	composer ports.MailComposer
	secrets  ports.SecretGenerator
	clock    ports.Clock
	domain   string
	wake     chan struct{}
}

// NewOutbox returns an outbox whose mails carry Message-IDs in the domain
// of cfg.From.
func NewOutbox(composer ports.MailComposer, secrets ports.SecretGenerator, clock ports.Clock, cfg MailConfig) *Outbox {
	return &Outbox{composer: composer, secrets: secrets, clock: clock, domain: domain.MailDomain(cfg.From), wake: make(chan struct{}, 1)}
}

// Enqueue renders template with data and writes the mail to to into r's
// outbox, with a Message-ID of its own, to be sent within lifetime or not at
// all. Call it with the Repos of the transaction that makes what the mail
// is about, so that the mail leaves if and only if that commits; then call
// Wake, or the mail waits for the next poll of a worker.
func (o *Outbox) Enqueue(ctx context.Context, r ports.Repos, to, template string, data map[string]string, lifetime time.Duration) (domain.Mail, error) {
	content, err := o.Render(template, data)
	if err != nil {
		return domain.Mail{}, err
	}
	now := o.clock.Now()
	id := "<" + hex.EncodeToString(o.secrets.Key(messageIDBytes)) + "@" + o.domain + ">"
	m := domain.NewMail(id, to, content.Subject, content.Text, content.HTML, now, now.Add(lifetime))
	if err := r.Mails.Enqueue(ctx, &m); err != nil {
		return domain.Mail{}, fmt.Errorf("enqueue %s mail: %w", template, err)
	}
	return m, nil
}

// Render renders template with data, as Enqueue does, and keeps nothing.
func (o *Outbox) Render(template string, data map[string]string) (ports.MailContent, error) {
	content, err := o.composer.Compose(template, data)
	if err != nil {
		return ports.MailContent{}, fmt.Errorf("compose %s mail: %w", template, err)
	}
	return content, nil
}

// Wake tells this replica's worker that mail may be due: call it once the
// transaction that enqueued mail has committed.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// MailWorker sends the mails in the outbox. Every replica runs one; claims
// lease each mail to one replica, so a mail is sent at least once, and
// again only when a replica died, or its lease ran out, mid-send.
type MailWorker struct {
	store  ports.Store
	mailer ports.Mailer
	clock  ports.Clock
	outbox *Outbox
	cfg    MailConfig
	// restUntil is when Run sends again after the mail server failed an
	// attempt for a while (unreachable, or a 4xx answer), in Unix
	// nanoseconds of the worker's clock; 0 while it does not rest.
	restUntil atomic.Int64
}

// NewMailWorker returns the worker, woken by outbox's enqueues.
func NewMailWorker(store ports.Store, mailer ports.Mailer, clock ports.Clock, outbox *Outbox, cfg MailConfig) *MailWorker {
	return &MailWorker{store: store, mailer: mailer, clock: clock, outbox: outbox, cfg: cfg.withDefaults()}
}

// SendDue expires the mails past their expiry, then claims the mails that
// are due and sends them, at most cfg.Workers at once. It returns how many
// it claimed.
func (w *MailWorker) SendDue(ctx context.Context) (int, error) {
	repos := w.store.Repos()
	now := w.clock.Now()
	if _, err := repos.Mails.Expire(ctx, now); err != nil {
		return 0, fmt.Errorf("expire mails: %w", err)
	}
	// No more than run at once: a lease is sized for one attempt.
	due, err := repos.Mails.Claim(ctx, now, now.Add(w.cfg.Lease), w.cfg.Workers)
	if err != nil {
		return 0, fmt.Errorf("claim mails: %w", err)
	}
	err = attemptAll(due, func(m domain.Mail) error { return w.send(ctx, m) })
	return len(due), err
}

// send attempts one claimed mail and records the outcome. The attempt gets
// the lease's time and no more, so that no other replica claims the mail
// while it is being sent.
func (w *MailWorker) send(ctx context.Context, m domain.Mail) error {
	sendCtx, cancel := context.WithTimeout(ctx, w.cfg.Lease*9/10)
	sendErr := w.mailer.Send(sendCtx, m)
	cancel()
	if sendErr != nil && ctx.Err() != nil {
		return nil // stopping: the lease runs out and another attempt follows
	}
	now := w.clock.Now()
	temporary := sendErr != nil && domain.KindOf(sendErr) == domain.Unavailable
	if sendErr == nil {
		m.Sent(now)
	} else {
		m.Failed(sendErr.Error(), temporary, w.cfg.RetryAfter, now)
	}
	if temporary {
		// A server that is down or busy now is so for the next mails too:
		// Run rests for the first retry's wait rather than try (and
		// record) every mail due meanwhile, which would only load the
		// store while the requests that enqueue mails go on.
		w.restUntil.Store(now.Add(w.cfg.RetryAfter).UnixNano())
	}
	if err := w.store.Repos().Mails.Update(ctx, m); err != nil {
		return fmt.Errorf("record mail %d: %w", m.ID, err)
	}
	if sendErr != nil && m.Status == domain.MailFailed {
		return fmt.Errorf("mail %d to %s failed after %d attempts: %w", m.ID, m.To, m.Attempts, sendErr)
	}
	return nil
}

// resting reports whether Run waits for the mail server to recover.
func (w *MailWorker) resting() bool {
	return w.clock.Now().UnixNano() < w.restUntil.Load()
}

// Prune deletes the mails that finished more than cfg.Retention ago.
func (w *MailWorker) Prune(ctx context.Context) (int64, error) {
	n, err := w.store.Repos().Mails.Prune(ctx, w.clock.Now().Add(-w.cfg.Retention))
	if err != nil {
		return 0, fmt.Errorf("prune mails: %w", err)
	}
	return n, nil
}

// drain calls step until it handles nothing or ctx ends, while ready
// allows; report hears of every failure but those ctx's end causes, and a
// failure that handled some still lets the next call run.
func drain(ctx context.Context, report func(error), ready func() bool, step func(context.Context) (int, error)) {
	for ctx.Err() == nil && ready() {
		n, err := step(ctx)
		if err != nil && ctx.Err() == nil {
			report(err)
		}
		if n == 0 {
			break
		}
	}
}

// pruneInterval is how often each replica prunes the finished mails.
// Pruning is idempotent, so replicas need not agree on who does it.
const pruneInterval = time.Hour

// Run sends mail until ctx ends: when woken by an enqueue, and every
// cfg.Poll for mails enqueued on other replicas and retries that fall due;
// and it prunes finished mails at start and every pruneInterval. After a
// temporary failure it rests for cfg.RetryAfter, the first retry's wait,
// before it sends again.
// report hears of every failure, which the next round tries again.
func (w *MailWorker) Run(ctx context.Context, report func(error)) {
	tick := time.NewTicker(w.cfg.Poll)
	defer tick.Stop()
	var wake <-chan struct{}
	if w.outbox != nil {
		wake = w.outbox.wake
	}
	var pruned time.Time
	for {
		if time.Since(pruned) >= pruneInterval {
			if _, err := w.Prune(ctx); err != nil && ctx.Err() == nil {
				report(err)
			}
			pruned = time.Now()
		}
		drain(ctx, report, func() bool { return !w.resting() }, w.SendDue)
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
	}
}
