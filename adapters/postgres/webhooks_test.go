package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// TestWebhookCursorSkipsWhileHeld checks that a replica finds the cursor
// taken, without waiting, while another replica's transaction fans out.
func TestWebhookCursorSkipsWhileHeld(t *testing.T) {
	st := newStore(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- st.InTx(ctx, func(r ports.Repos) error {
			if _, ok, err := r.Deliveries.LockCursor(ctx); err != nil || !ok {
				t.Errorf("first LockCursor: ok %t, %v; want it taken", ok, err)
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	started := time.Now()
	err := st.InTx(ctx, func(r ports.Repos) error {
		_, ok, err := r.Deliveries.LockCursor(ctx)
		if ok {
			t.Error("second LockCursor while the first holds it: ok, want skipped")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(started); waited > 2*time.Second {
		t.Errorf("the second LockCursor waited %s", waited)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
