package portstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var idempotencyTests = []storeTest{
	{"ClaimAndReplay", testIdempotencyClaimAndReplay},
	{"ExpiredClaimIsReplaced", testIdempotencyExpiredClaim},
	{"Release", testIdempotencyRelease},
	{"DeleteExpired", testIdempotencyDeleteExpired},
	{"OneClaimWins", testIdempotencyRace},
	{"EveryVisibleASCIIKey", testIdempotencyVisibleASCIIKeys},
}

// claimOf is a running claim of key by the request fingerprint, whose lease
// ends at expires.
func claimOf(key, fingerprint string, expires time.Time) ports.IdempotencyRecord {
	return ports.IdempotencyRecord{Key: key, Fingerprint: fingerprint, ExpiresAt: expires}
}

func testIdempotencyClaimAndReplay(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	const key = "token:7|order-1"
	claim := claimOf(key, "digest-a", at(time.Minute))
	got, claimed, err := r.Idempotency.Claim(ctx, claim, base)
	if checkErr(t, "first Claim", err, nil) && !claimed {
		t.Fatalf("first Claim: got not claimed (%+v), want claimed", got)
	}

	got, claimed, err = r.Idempotency.Claim(ctx, claimOf(key, "digest-b", at(2*time.Minute)), at(time.Second))
	if checkErr(t, "Claim of a running key", err, nil) {
		if claimed {
			t.Errorf("Claim of a running key: got claimed, want the running claim")
		}
		check(t, "Claim of a running key", got, claim)
	}

	answer := ports.IdempotentAnswer{Status: 201, ContentType: "application/json", Location: "https://example.com/users/1", Body: []byte(`{"id":1,"name":"Ø"}`)}
	checkErr(t, "Complete with another fingerprint", r.Idempotency.Complete(ctx, key, "digest-b", answer, at(24*time.Hour)), domain.ErrNotFound)
	checkErr(t, "Complete of a missing key", r.Idempotency.Complete(ctx, "token:7|missing", "digest-a", answer, at(24*time.Hour)), domain.ErrNotFound)
	checkErr(t, "Complete", r.Idempotency.Complete(ctx, key, "digest-a", answer, at(24*time.Hour)), nil)
	checkErr(t, "second Complete", r.Idempotency.Complete(ctx, key, "digest-a", answer, at(24*time.Hour)), domain.ErrNotFound)

	// The answer outlives the claim's lease and keeps the key until it expires.
	got, claimed, err = r.Idempotency.Claim(ctx, claimOf(key, "digest-a", at(25*time.Hour)), at(time.Hour))
	if checkErr(t, "Claim of a finished key", err, nil) {
		if claimed {
			t.Errorf("Claim of a finished key: got claimed, want the finished record")
		}
		check(t, "Claim of a finished key", got, ports.IdempotencyRecord{Key: key, Fingerprint: "digest-a", Answer: &answer, ExpiresAt: at(24 * time.Hour)})
	}

	// Another caller's key is another record, and an empty body round-trips.
	other := claimOf("ip:192.0.2.1|order-1", "digest-a", at(time.Minute))
	if _, claimed, err := r.Idempotency.Claim(ctx, other, base); checkErr(t, "Claim by another caller", err, nil) && !claimed {
		t.Errorf("Claim by another caller: got not claimed, want claimed")
	}
	empty := ports.IdempotentAnswer{Status: 204}
	checkErr(t, "Complete with no body", r.Idempotency.Complete(ctx, other.Key, "digest-a", empty, at(time.Hour)), nil)
	got, _, err = r.Idempotency.Claim(ctx, other, at(time.Second))
	if checkErr(t, "Claim of the bodiless answer", err, nil) {
		if got.Answer == nil || got.Answer.Status != 204 || len(got.Answer.Body) != 0 || got.Answer.Location != "" || got.Answer.ContentType != "" {
			t.Errorf("Claim of the bodiless answer: got %+v, want status 204 and nothing else", got.Answer)
		}
	}
}

func testIdempotencyExpiredClaim(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	const key = "session:ab|k"
	if _, _, err := r.Idempotency.Claim(ctx, claimOf(key, "dead", at(time.Minute)), base); !checkErr(t, "Claim", err, nil) {
		return
	}
	// At the lease's end the claim is gone, as if its request had died.
	retry := claimOf(key, "retry", at(2*time.Minute))
	got, claimed, err := r.Idempotency.Claim(ctx, retry, at(time.Minute))
	if checkErr(t, "Claim after the lease", err, nil) {
		if !claimed {
			t.Errorf("Claim after the lease: got not claimed (%+v), want claimed", got)
		}
		check(t, "Claim after the lease", got, retry)
	}
	checkErr(t, "Complete of the dead claim", r.Idempotency.Complete(ctx, key, "dead", ports.IdempotentAnswer{Status: 200}, at(time.Hour)), domain.ErrNotFound)

	// A finished record expires alike.
	checkErr(t, "Complete", r.Idempotency.Complete(ctx, key, "retry", ports.IdempotentAnswer{Status: 200, Body: []byte("{}")}, at(time.Hour)), nil)
	if _, claimed, err := r.Idempotency.Claim(ctx, claimOf(key, "later", at(2*time.Hour)), at(time.Hour)); checkErr(t, "Claim after the replay period", err, nil) && !claimed {
		t.Errorf("Claim after the replay period: got not claimed, want claimed")
	}
}

func testIdempotencyRelease(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	const key = "ip:192.0.2.1|k"
	claim := claimOf(key, "a", at(time.Minute))
	if _, _, err := r.Idempotency.Claim(ctx, claim, base); !checkErr(t, "Claim", err, nil) {
		return
	}
	checkErr(t, "Release with another fingerprint", r.Idempotency.Release(ctx, key, "b"), nil)
	if got, claimed, err := r.Idempotency.Claim(ctx, claimOf(key, "b", at(time.Minute)), base); checkErr(t, "Claim after a foreign Release", err, nil) && claimed {
		t.Errorf("Claim after a foreign Release: got claimed, want the running claim %+v", got)
	}
	checkErr(t, "Release", r.Idempotency.Release(ctx, key, "a"), nil)
	checkErr(t, "Release of a missing claim", r.Idempotency.Release(ctx, key, "a"), nil)
	if _, claimed, err := r.Idempotency.Claim(ctx, claimOf(key, "b", at(time.Minute)), base); checkErr(t, "Claim after Release", err, nil) && !claimed {
		t.Errorf("Claim after Release: got not claimed, want claimed")
	}
	// A finished record is no claim to release.
	checkErr(t, "Complete", r.Idempotency.Complete(ctx, key, "b", ports.IdempotentAnswer{Status: 201}, at(time.Hour)), nil)
	checkErr(t, "Release of a finished record", r.Idempotency.Release(ctx, key, "b"), nil)
	if got, claimed, err := r.Idempotency.Claim(ctx, claimOf(key, "c", at(time.Minute)), base); checkErr(t, "Claim of the finished record", err, nil) && (claimed || got.Answer == nil) {
		t.Errorf("Claim of the finished record: got claimed %v, %+v, want its answer", claimed, got)
	}
}

func testIdempotencyDeleteExpired(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	for i, expires := range []time.Time{at(time.Minute), at(time.Hour), at(2 * time.Hour)} {
		if _, _, err := r.Idempotency.Claim(ctx, claimOf(fmt.Sprintf("ip:x|%d", i), "f", expires), base); !checkErr(t, "Claim", err, nil) {
			return
		}
	}
	n, err := r.Idempotency.DeleteExpired(ctx, at(time.Hour))
	if checkErr(t, "DeleteExpired", err, nil) && n != 2 {
		t.Errorf("DeleteExpired: got %d deleted, want 2 (expiry at or before now)", n)
	}
	if _, claimed, err := r.Idempotency.Claim(ctx, claimOf("ip:x|2", "g", at(3*time.Hour)), base); checkErr(t, "Claim of the kept record", err, nil) && claimed {
		t.Errorf("Claim of the kept record: got claimed, want it still held")
	}
	err = st.InTx(ctx, func(r ports.Repos) error {
		_, err := r.Idempotency.DeleteExpired(ctx, at(3*time.Hour))
		return err
	})
	checkErr(t, "DeleteExpired in a transaction", err, nil)
	if _, claimed, err := r.Idempotency.Claim(ctx, claimOf("ip:x|2", "g", at(4*time.Hour)), at(3*time.Hour)); checkErr(t, "Claim after pruning", err, nil) && !claimed {
		t.Errorf("Claim after pruning: got not claimed, want claimed")
	}
}

func testIdempotencyRace(t *testing.T, st ports.Store) {
	ctx := t.Context()
	const n = 8
	errs := make([]error, n)
	race(n, func(i int) {
		_, claimed, err := st.Repos().Idempotency.Claim(ctx, claimOf("token:1|race", fmt.Sprint(i), at(time.Minute)), base)
		switch {
		case err != nil:
			errs[i] = err
		case !claimed:
			errs[i] = domain.ErrConflict
		}
	})
	checkOneWinner(t, "concurrent claims of one key", errs, domain.ErrConflict)
}

// testIdempotencyVisibleASCIIKeys claims keys of every byte
// domain.CheckIdempotencyKey lets through, at the longest caller and key:
// each is its own record, kept and found exactly, however alike two keys
// are (letter case, a trailing character, the wildcards and escapes of
// SQL patterns).
func testIdempotencyVisibleASCIIKeys(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	caller := "session:" + strings.Repeat("ab", 32) + "|"
	var every strings.Builder
	for b := byte(0x21); b <= 0x7e; b++ {
		every.WriteByte(b)
	}
	keys := []string{
		every.String(), strings.ToLower(every.String()),
		strings.Repeat("~", domain.MaxIdempotencyKey), strings.Repeat("~", domain.MaxIdempotencyKey-1),
		"a%", "a_", `a\`, "a'", `a"`, "A", "a",
	}
	for _, key := range keys {
		if err := domain.CheckIdempotencyKey(key); err != nil {
			t.Fatalf("key %q: %v, want a valid key", key, err)
		}
		claim := claimOf(caller+key, "f", at(time.Minute))
		if _, claimed, err := r.Idempotency.Claim(ctx, claim, base); checkErr(t, "Claim of "+key, err, nil) && !claimed {
			t.Errorf("Claim of %q: got not claimed, want its own record", key)
		}
		checkErr(t, "Complete of "+key, r.Idempotency.Complete(ctx, claim.Key, "f", ports.IdempotentAnswer{Status: 201, Body: []byte(key)}, at(time.Hour)), nil)
	}
	for _, key := range keys {
		got, claimed, err := r.Idempotency.Claim(ctx, claimOf(caller+key, "g", at(time.Minute)), base)
		if checkErr(t, "Claim again of "+key, err, nil) {
			if claimed || got.Key != caller+key || got.Answer == nil || string(got.Answer.Body) != key {
				t.Errorf("Claim again of %q: got claimed %v, %+v, want its own answer", key, claimed, got)
			}
		}
	}
}
