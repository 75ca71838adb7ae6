package app_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func TestIdempotency(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := clock.NewFixed(t0)
			keys := app.NewIdempotency(s.Open(t), clk, app.IdempotencyConfig{Lease: time.Minute, Retention: time.Hour})
			begin := func(what, caller, key, fingerprint string, want ports.IdempotencyState) *ports.IdempotentAnswer {
				t.Helper()
				state, answer, err := keys.Begin(ctx, caller, key, fingerprint)
				if err != nil || state != want {
					t.Fatalf("%s: got state %d, %v; want %d", what, state, err, want)
				}
				return answer
			}

			begin("first request", "ip:a", "k", "req-1", ports.IdempotencyClaimed)
			begin("the same request while it runs", "ip:a", "k", "req-1", ports.IdempotencyRunning)
			begin("another request while it runs", "ip:a", "k", "req-2", ports.IdempotencyRunning)
			begin("another caller's key", "ip:b", "k", "req-1", ports.IdempotencyClaimed)

			// A fault gives the key up: the retry runs.
			if err := keys.Abandon(ctx, "ip:b", "k", "req-1"); err != nil {
				t.Fatal(err)
			}
			begin("retry after a fault", "ip:b", "k", "req-1", ports.IdempotencyClaimed)

			kept := ports.IdempotentAnswer{Status: 201, ContentType: "application/json", Location: "/users/1", Body: []byte(`{"id":1}`)}
			if err := keys.Finish(ctx, "ip:a", "k", "req-1", kept); err != nil {
				t.Fatal(err)
			}
			clk.Advance(59 * time.Minute)
			if got := begin("the same request again", "ip:a", "k", "req-1", ports.IdempotencyReplay); !reflect.DeepEqual(*got, kept) {
				t.Errorf("replayed answer: got %+v, want %+v", *got, kept)
			}
			begin("another request after it", "ip:a", "k", "req-2", ports.IdempotencyReused)

			// Records past their end free their keys: ip:b's claim outlived
			// its lease, ip:a's answer its hour.
			clk.Advance(time.Hour)
			begin("a new request", "ip:c", "k", "req-3", ports.IdempotencyClaimed)
			if err := keys.Finish(ctx, "ip:c", "k", "req-3", kept); err != nil {
				t.Fatal(err)
			}
			begin("the key after the replay period", "ip:a", "k", "req-2", ports.IdempotencyClaimed)
			begin("the abandoned caller's key after its lease", "ip:b", "k", "req-9", ports.IdempotencyClaimed)
		})
	}
}

func TestIdempotencyRefusesKeysEveryStoreCouldNotKeep(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			keys := app.NewIdempotency(s.Open(t), clock.NewFixed(t0), app.IdempotencyConfig{Lease: time.Minute, Retention: time.Hour})
			for _, tc := range []struct {
				key  string
				want error
			}{
				{"k\x00", domain.ErrIdempotencyKeyMalformed},
				{"k\xc3\x28", domain.ErrIdempotencyKeyMalformed}, // not UTF-8
				{"café", domain.ErrIdempotencyKeyMalformed},
				{"a b", domain.ErrIdempotencyKeyMalformed},
				{"k\x7f", domain.ErrIdempotencyKeyMalformed},
				{strings.Repeat("k", 256), domain.ErrIdempotencyKeyTooLong},
				{strings.Repeat("k", 255), nil},
				{`"quoted"`, nil},
			} {
				state, _, err := keys.Begin(ctx, "ip:a", tc.key, "req-1")
				if !errors.Is(err, tc.want) || (tc.want == nil && state != ports.IdempotencyClaimed) {
					t.Errorf("Begin with %q: got %d, %v; want %v", tc.key, state, err, tc.want)
				}
			}
		})
	}
}

func TestIdempotencyKeepsNoAnswerThatAsksToRetry(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			keys := app.NewIdempotency(s.Open(t), clock.NewFixed(t0), app.IdempotencyConfig{Lease: time.Minute, Retention: time.Hour})
			for _, status := range []int{401, 419, 429, 500, 503} {
				key := strconv.Itoa(status)
				if _, _, err := keys.Begin(ctx, "ip:a", key, "req-1"); err != nil {
					t.Fatal(err)
				}
				if err := keys.Finish(ctx, "ip:a", key, "req-1", ports.IdempotentAnswer{Status: status}); err != nil {
					t.Fatal(err)
				}
				if state, _, err := keys.Begin(ctx, "ip:a", key, "req-2"); err != nil || state != ports.IdempotencyClaimed {
					t.Errorf("after a %d: got state %d, %v; want the key free", status, state, err)
				}
			}
			for _, status := range []int{200, 201, 400, 403, 404, 409, 422} {
				key := strconv.Itoa(status)
				if _, _, err := keys.Begin(ctx, "ip:a", key, "req-1"); err != nil {
					t.Fatal(err)
				}
				if err := keys.Finish(ctx, "ip:a", key, "req-1", ports.IdempotentAnswer{Status: status}); err != nil {
					t.Fatal(err)
				}
				if state, answer, err := keys.Begin(ctx, "ip:a", key, "req-1"); err != nil || state != ports.IdempotencyReplay || answer.Status != status {
					t.Errorf("after a %d: got state %d, %v; want it replayed", status, state, err)
				}
			}
		})
	}
}
