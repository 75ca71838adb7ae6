package portstest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var mailTests = []storeTest{
	{"RoundTrip", testMailRoundTrip},
	{"NotFound", testMailNotFound},
	{"ClaimLeases", testMailClaim},
	{"ConcurrentClaims", testMailConcurrentClaims},
	{"Expire", testMailExpire},
	{"EnqueueInTx", testMailEnqueueInTx},
	{"Prune", testMailPrune},
	{"Pending", testMailPending},
}

func newMail(n int, to string, now time.Time) domain.Mail {
	return domain.NewMail(fmt.Sprintf("<%d.%s@example.com>", n, now.Format("150405.000000")), to,
		"Réinitialiser", "Text part ünïcode\n", "<p>HTML part</p>", now, now.Add(time.Hour))
}

func enqueueMail(t *testing.T, r ports.Repos, m domain.Mail) domain.Mail {
	t.Helper()
	must(t, "Mails.Enqueue", r.Mails.Enqueue(t.Context(), &m))
	return m
}

func getMail(t *testing.T, r ports.Repos, id int64) domain.Mail {
	t.Helper()
	got, err := r.Mails.Get(t.Context(), id)
	must(t, "Mails.Get", err)
	return got
}

func testMailRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	a := enqueueMail(t, r, newMail(1, "ann@example.com", base))
	b := enqueueMail(t, r, newMail(2, "bob@example.com", at(time.Second)))
	if a.ID == 0 || a.ID == b.ID {
		t.Fatalf("ids %d, %d: want distinct and set", a.ID, b.ID)
	}
	check(t, "Mails.Get", getMail(t, r, a.ID), a)

	dup := newMail(1, "eve@example.com", base)
	checkErr(t, "Mails.Enqueue of a taken Message-ID", r.Mails.Enqueue(ctx, &dup), domain.ErrConflict)

	// A temporary failure keeps the body and the Message-ID.
	a.Failed("421 try later", true, time.Minute, at(time.Minute))
	must(t, "Mails.Update", r.Mails.Update(ctx, a))
	check(t, "Mails.Get after a temporary failure", getMail(t, r, a.ID), a)
	if a.Text == "" || a.NextAttemptAt != at(2*time.Minute) {
		t.Errorf("after a temporary failure: text %q, next %v", a.Text, a.NextAttemptAt)
	}

	// Sending erases the body.
	a.Sent(at(3 * time.Minute))
	must(t, "Mails.Update", r.Mails.Update(ctx, a))
	got := getMail(t, r, a.ID)
	check(t, "Mails.Get after sending", got, a)
	if got.Text != "" || got.HTML != "" || got.Status != domain.MailSent || got.Attempts != 2 {
		t.Errorf("sent mail: %+v, want status sent, 2 attempts, no body", got)
	}

	// A permanent failure fails the mail and erases its body.
	b.Failed("550 no such mailbox", false, time.Minute, at(time.Minute))
	must(t, "Mails.Update", r.Mails.Update(ctx, b))
	got = getMail(t, r, b.ID)
	check(t, "Mails.Get after a permanent failure", got, b)
	if got.Status != domain.MailFailed || got.Text != "" || got.LastError != "550 no such mailbox" {
		t.Errorf("failed mail: %+v", got)
	}
}

func testMailNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	_, err := r.Mails.Get(ctx, 1)
	checkErr(t, "Mails.Get", err, domain.ErrNotFound)
	m := newMail(1, "ann@example.com", base)
	m.ID = 1
	checkErr(t, "Mails.Update", r.Mails.Update(ctx, m), domain.ErrNotFound)
}

func testMailClaim(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	early := enqueueMail(t, r, newMail(1, "a@example.com", base))
	late := newMail(2, "b@example.com", base)
	late.NextAttemptAt = at(time.Hour / 2)
	late = enqueueMail(t, r, late)
	sent := newMail(3, "c@example.com", base)
	sent.Sent(base)
	enqueueMail(t, r, sent)
	dead := newMail(4, "d@example.com", base)
	dead.ExpiresAt = base
	enqueueMail(t, r, dead)

	lease := at(time.Minute)
	got, err := r.Mails.Claim(ctx, base, lease, 10)
	must(t, "Mails.Claim", err)
	early.ClaimedUntil = &lease
	check(t, "the mails due", got, []domain.Mail{early})
	got, err = r.Mails.Claim(ctx, at(time.Second), at(2*time.Minute), 10)
	must(t, "Mails.Claim", err)
	check(t, "claims while the lease runs", len(got), 0)

	// The lease ran out, as when the replica that held it died.
	lease = at(50 * time.Minute)
	got, err = r.Mails.Claim(ctx, at(40*time.Minute), lease, 1)
	must(t, "Mails.Claim", err)
	early.ClaimedUntil = &lease
	check(t, "claims after the lease, up to the limit", got, []domain.Mail{early})
	got, err = r.Mails.Claim(ctx, at(40*time.Minute), lease, 10)
	must(t, "Mails.Claim", err)
	late.ClaimedUntil = &lease
	check(t, "the next claim", got, []domain.Mail{late})

	// Past their expiry mails are never claimed.
	got, err = r.Mails.Claim(ctx, at(2*time.Hour), at(3*time.Hour), 10)
	must(t, "Mails.Claim", err)
	check(t, "claims after the expiry", len(got), 0)
}

// testMailConcurrentClaims has workers claim at once: each mail goes to
// exactly one of them.
func testMailConcurrentClaims(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	const n = 40
	for i := range n {
		enqueueMail(t, r, newMail(i, "a@example.com", base))
	}
	var mu sync.Mutex
	claimed := map[int64]int{}
	race(8, func(int) {
		for {
			got, err := st.Repos().Mails.Claim(ctx, base, at(time.Minute), 3)
			if err != nil {
				t.Errorf("Claim: %v", err)
				return
			}
			if len(got) == 0 {
				return
			}
			mu.Lock()
			for _, m := range got {
				claimed[m.ID]++
			}
			mu.Unlock()
		}
	})
	check(t, "mails claimed", len(claimed), n)
	for id, k := range claimed {
		if k != 1 {
			t.Errorf("mail %d claimed %d times", id, k)
		}
	}
}

func testMailExpire(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	old := enqueueMail(t, r, newMail(1, "a@example.com", base))
	young := enqueueMail(t, r, newMail(2, "b@example.com", at(time.Hour)))
	sent := newMail(3, "c@example.com", base)
	sent.Sent(base)
	sent = enqueueMail(t, r, sent)

	n, err := r.Mails.Expire(ctx, at(time.Hour))
	must(t, "Mails.Expire", err)
	check(t, "mails expired", n, int64(1))
	got := getMail(t, r, old.ID)
	if got.Status != domain.MailExpired || got.Text != "" || got.HTML != "" || got.ClaimedUntil != nil {
		t.Errorf("expired mail: %+v, want status expired, no body, no lease", got)
	}
	check(t, "the young mail", getMail(t, r, young.ID), young)
	check(t, "the sent mail", getMail(t, r, sent.ID), sent)
	n, err = r.Mails.Expire(ctx, at(time.Hour))
	must(t, "Mails.Expire again", err)
	check(t, "mails expired again", n, int64(0))
}

// testMailEnqueueInTx checks that a mail enqueued in a transaction stands
// or falls with it.
func testMailEnqueueInTx(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	var kept, dropped domain.Mail
	must(t, "InTx", st.InTx(ctx, func(r ports.Repos) error {
		kept = newMail(1, "a@example.com", base)
		return r.Mails.Enqueue(ctx, &kept)
	}))
	errRollback := fmt.Errorf("roll back")
	err := st.InTx(ctx, func(r ports.Repos) error {
		dropped = newMail(2, "b@example.com", base)
		if err := r.Mails.Enqueue(ctx, &dropped); err != nil {
			return err
		}
		return errRollback
	})
	checkErr(t, "InTx", err, errRollback)
	check(t, "the committed mail", getMail(t, st.Repos(), kept.ID), kept)
	got, err := st.Repos().Mails.Claim(ctx, base, at(time.Minute), 10)
	must(t, "Mails.Claim", err)
	if len(got) != 1 || got[0].ID != kept.ID {
		t.Errorf("claimed %+v, want only the committed mail", got)
	}
}

// testMailPrune checks that pruning takes the finished mails last updated
// by the cutoff and leaves the pending ones, however old.
func testMailPrune(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	enqueueMail(t, r, newMail(1, "a@example.com", base)) // expires at 3h too
	sent := newMail(2, "b@example.com", base)
	sent.Sent(at(time.Hour))
	sent = enqueueMail(t, r, sent)
	failed := newMail(3, "c@example.com", base)
	failed.Failed("550", false, time.Minute, at(2*time.Hour))
	failed = enqueueMail(t, r, failed)
	expired := enqueueMail(t, r, newMail(4, "d@example.com", base))
	if _, err := r.Mails.Expire(ctx, at(3*time.Hour)); err != nil {
		t.Fatal(err)
	}

	n, err := r.Mails.Prune(ctx, at(2*time.Hour))
	must(t, "Mails.Prune", err)
	check(t, "mails pruned", n, int64(2))
	for _, id := range []int64{sent.ID, failed.ID} {
		_, err := r.Mails.Get(ctx, id)
		checkErr(t, "Mails.Get of a pruned mail", err, domain.ErrNotFound)
	}
	if got := getMail(t, r, expired.ID); got.Status != domain.MailExpired {
		t.Errorf("the mail expired after the cutoff: %+v", got)
	}
	n, err = r.Mails.Prune(ctx, at(100*time.Hour))
	must(t, "Mails.Prune", err)
	check(t, "mails pruned later", n, int64(2))
	// A pending mail stays, however old.
	young := enqueueMail(t, r, newMail(5, "e@example.com", at(200*time.Hour)))
	n, err = r.Mails.Prune(ctx, at(1000*time.Hour))
	must(t, "Mails.Prune", err)
	check(t, "pending mails pruned", n, int64(0))
	check(t, "the pending mail", getMail(t, r, young.ID), young)
}

// testMailPending checks the backlog count: pending mails, claimed or not,
// due or not; never the sent, failed or expired ones.
func testMailPending(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	count := func(want int64) {
		t.Helper()
		n, err := r.Mails.Pending(ctx)
		must(t, "Mails.Pending", err)
		check(t, "pending mails", n, want)
	}
	count(0)
	enqueueMail(t, r, newMail(1, "a@example.com", base))
	retry := newMail(2, "b@example.com", base)
	retry.Failed("421", true, time.Minute, base)
	enqueueMail(t, r, retry)
	sent := newMail(3, "c@example.com", base)
	sent.Sent(base)
	enqueueMail(t, r, sent)
	failed := newMail(4, "d@example.com", base)
	failed.Failed("550", false, time.Minute, base)
	enqueueMail(t, r, failed)
	expiring := newMail(5, "e@example.com", base.Add(-30*time.Minute))
	enqueueMail(t, r, expiring)
	count(3)
	_, err := r.Mails.Claim(ctx, base, at(time.Minute), 1)
	must(t, "Mails.Claim", err)
	count(3)
	_, err = r.Mails.Expire(ctx, at(40*time.Minute))
	must(t, "Mails.Expire", err)
	count(2)
}
