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

var webhookTests = []storeTest{
	{"RoundTrip", testWebhookRoundTrip},
	{"NotFound", testWebhookNotFound},
	{"DeliveryRoundTrip", testDeliveryRoundTrip},
	{"ClaimLeases", testDeliveryClaim},
	{"ConcurrentClaims", testDeliveryConcurrentClaims},
	{"Pending", testDeliveryPending},
	{"Cursor", testWebhookCursor},
}

func newWebhook(userID int64, url string) domain.Webhook {
	return domain.Webhook{
		UserID: userID, URL: url, Events: []domain.EventType{domain.PostCreated, domain.CommentCreated},
		Secret: domain.WebhookSecretOf([]byte("0123456789abcdef")), CreatedAt: base, UpdatedAt: base,
	}
}

func createWebhook(t *testing.T, r ports.Repos, w domain.Webhook) domain.Webhook {
	t.Helper()
	must(t, fmt.Sprintf("Webhooks.Create(%q)", w.URL), r.Webhooks.Create(t.Context(), &w))
	return w
}

func createDelivery(t *testing.T, r ports.Repos, d domain.Delivery) domain.Delivery {
	t.Helper()
	must(t, "Deliveries.Create", r.Deliveries.Create(t.Context(), &d))
	return d
}

func testWebhookRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	w := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/a"))
	createWebhook(t, r, newWebhook(bob.ID, "https://example.com/b"))
	w2 := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/c"))
	got, err := r.Webhooks.Get(ctx, w.ID)
	must(t, "Webhooks.Get", err)
	check(t, "Webhooks.Get", got, w)

	w.URL, w.Events = "https://example.com/z", []domain.EventType{domain.PostDeleted}
	w.Failed("HTTP 500", 1, at(time.Hour))
	w.Secret, w.UserID = "changed", bob.ID // neither is written
	must(t, "Webhooks.Update", r.Webhooks.Update(ctx, w))
	w.Secret, w.UserID = got.Secret, ann.ID
	got, err = r.Webhooks.Lock(ctx, w.ID)
	must(t, "Webhooks.Lock", err)
	check(t, "Webhooks.Lock after Update", got, w)

	list, err := r.Webhooks.ListByUser(ctx, ann.ID)
	must(t, "Webhooks.ListByUser", err)
	check(t, "Webhooks.ListByUser", list, []domain.Webhook{w, w2})

	// Deleting the user takes the webhooks and their deliveries.
	d := createDelivery(t, r, domain.NewDelivery(w, sampleEvents(t)[0], base))
	must(t, "Users.Delete", r.Users.Delete(ctx, ann.ID))
	_, err = r.Webhooks.Get(ctx, w.ID)
	checkErr(t, "Webhooks.Get after deleting the user", err, domain.ErrNotFound)
	_, err = r.Deliveries.Get(ctx, d.ID)
	checkErr(t, "Deliveries.Get after deleting the user", err, domain.ErrNotFound)
}

func testWebhookNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	w := newWebhook(999, "https://example.com")
	checkErr(t, "Webhooks.Create for a missing user", r.Webhooks.Create(ctx, &w), domain.ErrNotFound)
	_, err := r.Webhooks.Get(ctx, 1)
	checkErr(t, "Webhooks.Get", err, domain.ErrNotFound)
	w.ID = 1
	checkErr(t, "Webhooks.Update", r.Webhooks.Update(ctx, w), domain.ErrNotFound)
	checkErr(t, "Webhooks.Delete", r.Webhooks.Delete(ctx, 1), domain.ErrNotFound)
	_, err = r.Deliveries.Get(ctx, 1)
	checkErr(t, "Deliveries.Get", err, domain.ErrNotFound)
	checkErr(t, "Deliveries.Update", r.Deliveries.Update(ctx, domain.Delivery{ID: 1, Status: domain.DeliveryPending}), domain.ErrNotFound)
}

func testDeliveryRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	w := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/a"))
	var want []domain.Delivery
	for i, e := range sampleEvents(t) {
		e.ID = int64(i + 1)
		want = append(want, createDelivery(t, r, domain.NewDelivery(w, e, at(time.Duration(i)*time.Second))))
	}
	got, err := r.Deliveries.Get(ctx, want[1].ID)
	must(t, "Deliveries.Get", err)
	check(t, "Deliveries.Get", got, want[1])

	d := want[2]
	d.Fail(503, "HTTP 503", 5, time.Minute, at(time.Hour))
	must(t, "Deliveries.Update", r.Deliveries.Update(ctx, d))
	got, err = r.Deliveries.Get(ctx, d.ID)
	must(t, "Deliveries.Get", err)
	check(t, "Deliveries.Get after a failure", got, d)
	d.Succeed(200, at(2*time.Hour))
	must(t, "Deliveries.Update", r.Deliveries.Update(ctx, d))
	got, err = r.Deliveries.Get(ctx, d.ID)
	must(t, "Deliveries.Get", err)
	check(t, "Deliveries.Get after a success", got, d)
	want[2] = d

	page, total, err := r.Deliveries.ListByWebhook(ctx, w.ID, ports.Page{Offset: 1, Limit: 2})
	must(t, "Deliveries.ListByWebhook", err)
	check(t, "total", total, len(want))
	n := len(want)
	check(t, "Deliveries.ListByWebhook, newest first", page, []domain.Delivery{want[n-2], want[n-3]})
}

func testDeliveryClaim(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	w := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/a"))
	e := sampleEvents(t)[0]
	early := createDelivery(t, r, domain.NewDelivery(w, e, base))
	late := createDelivery(t, r, domain.NewDelivery(w, e, at(time.Hour)))
	done := domain.NewDelivery(w, e, base)
	done.Succeed(200, base)
	createDelivery(t, r, done)

	lease := at(time.Minute)
	got, err := r.Deliveries.Claim(ctx, base, lease, 10)
	must(t, "Deliveries.Claim", err)
	early.ClaimedUntil = &lease
	check(t, "the deliveries due", got, []domain.Delivery{early})
	got, err = r.Deliveries.Claim(ctx, at(time.Second), at(2*time.Minute), 10)
	must(t, "Deliveries.Claim", err)
	check(t, "claims while the lease runs", len(got), 0)

	// The lease ran out, as when the replica that held it died.
	lease = at(3 * time.Hour)
	got, err = r.Deliveries.Claim(ctx, at(2*time.Hour), lease, 10)
	must(t, "Deliveries.Claim", err)
	early.ClaimedUntil, late.ClaimedUntil = &lease, &lease
	check(t, "claims after the lease", got, []domain.Delivery{early, late})
}

// testDeliveryConcurrentClaims has workers claim at once: each delivery
// goes to exactly one of them.
func testDeliveryConcurrentClaims(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	w := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/a"))
	const n = 40
	for range n {
		createDelivery(t, r, domain.NewDelivery(w, sampleEvents(t)[0], base))
	}
	var mu sync.Mutex
	claimed := map[int64]int{}
	race(8, func(int) {
		for {
			got, err := st.Repos().Deliveries.Claim(ctx, base, at(time.Hour), 3)
			if err != nil {
				t.Errorf("Claim: %v", err)
				return
			}
			if len(got) == 0 {
				return
			}
			mu.Lock()
			for _, d := range got {
				claimed[d.ID]++
			}
			mu.Unlock()
		}
	})
	check(t, "deliveries claimed", len(claimed), n)
	for id, k := range claimed {
		if k != 1 {
			t.Errorf("delivery %d claimed %d times", id, k)
		}
	}
}

// testWebhookCursor checks that the cursor starts at the outbox's start
// and keeps the position it is set to.
func testWebhookCursor(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	must(t, "InTx", st.InTx(ctx, func(r ports.Repos) error {
		last, ok, err := r.Deliveries.LockCursor(ctx)
		if err != nil {
			return err
		}
		check(t, "the cursor at first", last, int64(0))
		check(t, "locked", ok, true)
		return r.Deliveries.SetCursor(ctx, 42)
	}))
	must(t, "InTx", st.InTx(ctx, func(r ports.Repos) error {
		last, _, err := r.Deliveries.LockCursor(ctx)
		check(t, "the cursor after SetCursor", last, int64(42))
		return err
	}))
}

// testDeliveryPending checks the backlog count: pending deliveries,
// claimed, due or waiting for a retry; never delivered or failed ones.
func testDeliveryPending(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	count := func(want int64) {
		t.Helper()
		n, err := r.Deliveries.Pending(ctx)
		must(t, "Deliveries.Pending", err)
		check(t, "pending deliveries", n, want)
	}
	count(0)
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	w := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/a"))
	e := sampleEvents(t)[0]
	createDelivery(t, r, domain.NewDelivery(w, e, base))
	retry := createDelivery(t, r, domain.NewDelivery(w, e, base))
	retry.Fail(503, "HTTP 503", 5, time.Minute, base)
	must(t, "Deliveries.Update", r.Deliveries.Update(ctx, retry))
	done := domain.NewDelivery(w, e, base)
	done.Succeed(200, base)
	createDelivery(t, r, done)
	failed := createDelivery(t, r, domain.NewDelivery(w, e, base))
	failed.Fail(500, "HTTP 500", 1, time.Minute, base)
	must(t, "Deliveries.Update", r.Deliveries.Update(ctx, failed))
	count(2)
	_, err := r.Deliveries.Claim(ctx, base, at(time.Minute), 10)
	must(t, "Deliveries.Claim", err)
	count(2)
}
