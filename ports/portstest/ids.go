package portstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var idTests = []storeTest{
	{"NeverReused", testIDsNeverReused},
}

// testIDsNeverReused deletes the newest record of each kind and creates
// another: its id must be larger, never the deleted one's. Ids appear in
// URLs, tokens ("id|secret") and events, so a reused id would send an old
// link, token or event to the new record. SQLite's plain rowid hands out
// the largest id plus one, which is the deleted one's.
func testIDsNeverReused(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	owner := createUser(t, r, newUser("Owner", "owner@example.com"))
	post := createPost(t, r, newPost(t, owner.ID, "Kept", domain.StatusPublished, base))
	n := 0
	kinds := []struct {
		name   string
		create func() int64
		delete func(id int64) error
	}{
		{"users", func() int64 {
			n++
			return createUser(t, r, newUser("U", fmt.Sprintf("u%d@example.com", n))).ID
		}, func(id int64) error { return r.Users.Delete(ctx, id) }},
		{"tokens", func() int64 {
			return createToken(t, r, newToken(owner.ID, "t", base)).ID
		}, func(id int64) error { return r.Tokens.Delete(ctx, owner.ID, id) }},
		{"people", func() int64 {
			n++
			return createPerson(t, r, newPerson("P", fmt.Sprintf("p%d@example.com", n))).ID
		}, func(id int64) error { return r.People.Delete(ctx, id) }},
		{"products", func() int64 {
			return createProduct(t, r, newProduct("Pen", nil)).ID
		}, func(id int64) error { return r.Products.Delete(ctx, id) }},
		{"posts", func() int64 {
			n++
			return createPost(t, r, newPost(t, owner.ID, fmt.Sprintf("Post %d", n), domain.StatusDraft, base)).ID()
		}, func(id int64) error { return r.Posts.Delete(ctx, id) }},
		{"comments", func() int64 {
			return createComment(t, r, newComment(post.ID(), owner.ID, "c", base)).ID
		}, func(id int64) error { return r.Comments.Delete(ctx, id) }},
		{"webhooks", func() int64 {
			return createWebhook(t, r, newWebhook(owner.ID, "https://example.com/h")).ID
		}, func(id int64) error { return r.Webhooks.Delete(ctx, id) }},
		// Events go when pruned.
		{"events", func() int64 {
			return appendEvent(t, r, sampleEvents(t)[0]).ID
		}, func(int64) error {
			_, err := r.Events.Prune(ctx, at(time.Hour))
			return err
		}},
	}
	for _, k := range kinds {
		k.create()
		newest := k.create()
		must(t, k.name+": delete the newest", k.delete(newest))
		if again := k.create(); again <= newest {
			t.Errorf("%s: created %d after deleting the newest, %d; want an id above it", k.name, again, newest)
		}
	}
	testDeliveryIDsNeverReused(t, r, owner)
}

// testDeliveryIDsNeverReused deletes the webhook of the newest delivery,
// which takes the delivery with it, and delivers again.
func testDeliveryIDsNeverReused(t *testing.T, r ports.Repos, owner domain.User) {
	ctx := t.Context()
	kept := createWebhook(t, r, newWebhook(owner.ID, "https://example.com/kept-deliveries"))
	createDelivery(t, r, domain.NewDelivery(kept, sampleEvents(t)[0], base))
	gone := createWebhook(t, r, newWebhook(owner.ID, "https://example.com/gone"))
	newest := createDelivery(t, r, domain.NewDelivery(gone, sampleEvents(t)[0], base))
	must(t, "Webhooks.Delete", r.Webhooks.Delete(ctx, gone.ID))
	if again := createDelivery(t, r, domain.NewDelivery(kept, sampleEvents(t)[0], base)); again.ID <= newest.ID {
		t.Errorf("deliveries: created %d after deleting the newest, %d; want an id above it", again.ID, newest.ID)
	}
}
