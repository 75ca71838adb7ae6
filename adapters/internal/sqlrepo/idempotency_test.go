package sqlrepo

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var errNoRows = errors.New("no rows in result set")

var testBorder = Border{
	Err: func(op string, err error) error {
		if err == nil {
			return nil
		}
		if errors.Is(err, errNoRows) {
			return fmt.Errorf("%s: %w", op, domain.ErrNotFound)
		}
		return fmt.Errorf("%s: %w", op, err)
	},
	NotFound: func(op string) error { return fmt.Errorf("%s: %w", op, domain.ErrNotFound) },
	NoRows:   func(err error) bool { return errors.Is(err, errNoRows) },
}

// keys answers each claim and each read of the record in turn, as a store
// would while other requests claim, complete and expire the same key.
type keys struct {
	claims []error
	reads  []ports.IdempotencyRecord // a zero Key: the record went
}

func (k *keys) ClaimIdempotencyKey(context.Context, ports.IdempotencyRecord, time.Time) error {
	err := k.claims[0]
	k.claims = k.claims[1:]
	return err
}

func (k *keys) GetIdempotencyKey(context.Context, string) (ports.IdempotencyRecord, error) {
	rec := k.reads[0]
	k.reads = k.reads[1:]
	if rec.Key == "" {
		return rec, errNoRows
	}
	return rec, nil
}

func (k *keys) CompleteIdempotencyKey(context.Context, string, string, ports.IdempotentAnswer, time.Time) (int64, error) {
	return 0, nil
}

func (k *keys) ReleaseIdempotencyKey(context.Context, string, string) error { return nil }

func (k *keys) DeleteExpiredIdempotencyKeys(context.Context, time.Time) (int64, error) {
	return 0, nil
}

func TestClaimReadsTheRecordItLostTo(t *testing.T) {
	rec := ports.IdempotencyRecord{Key: "k", Fingerprint: "mine"}
	running := ports.IdempotencyRecord{Key: "k", Fingerprint: "theirs", Answer: &ports.IdempotentAnswer{}}
	done := ports.IdempotencyRecord{Key: "k", Fingerprint: "theirs", Answer: &ports.IdempotentAnswer{Status: 201, Body: []byte("{}")}}
	for _, tc := range []struct {
		name    string
		keys    keys
		claimed bool
		found   ports.IdempotencyRecord
		err     bool
	}{
		{name: "free", keys: keys{claims: []error{nil}}, claimed: true, found: rec},
		{name: "running", keys: keys{claims: []error{errNoRows}, reads: []ports.IdempotencyRecord{running}},
			found: ports.IdempotencyRecord{Key: "k", Fingerprint: "theirs"}},
		{name: "completed", keys: keys{claims: []error{errNoRows}, reads: []ports.IdempotencyRecord{done}}, found: done},
		{name: "gone once", keys: keys{claims: []error{errNoRows, nil}, reads: []ports.IdempotencyRecord{{}}}, claimed: true, found: rec},
		{name: "gone twice", keys: keys{claims: []error{errNoRows, errNoRows}, reads: []ports.IdempotencyRecord{{}, {}}}, err: true},
		{name: "failed", keys: keys{claims: []error{errors.New("disk full")}}, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, claimed, err := Idempotency{Q: &tc.keys, B: testBorder}.Claim(context.Background(), rec, time.Now())
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want an error: %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if claimed != tc.claimed {
				t.Errorf("claimed = %v, want %v", claimed, tc.claimed)
			}
			if found.Key != tc.found.Key || found.Fingerprint != tc.found.Fingerprint || (found.Answer == nil) != (tc.found.Answer == nil) {
				t.Errorf("found %+v, want %+v", found, tc.found)
			} else if found.Answer != nil && found.Answer.Status != tc.found.Answer.Status {
				t.Errorf("answer status %d, want %d", found.Answer.Status, tc.found.Answer.Status)
			}
		})
	}
}

func TestAffected(t *testing.T) {
	if err := testBorder.Affected("update x", 1, nil); err != nil {
		t.Errorf("one row: %v", err)
	}
	if err := testBorder.Affected("update x", 0, nil); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("no row: %v, want not found", err)
	}
	failed := errors.New("disk full")
	if err := testBorder.Affected("update x", 0, failed); !errors.Is(err, failed) {
		t.Errorf("failure: %v, want it kept", err)
	}
}
