package domain

import (
	"errors"
	"testing"
	"time"
)

// TestActingRights: the zero right reaches the actor's own records only;
// admin rights reach every record, drafts included, and are not held back
// by the operator's own unproven address, which still holds back the
// operator's own writes.
func TestActingRights(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	draft, err := NewPost(7, "Draft", "Body", StatusDraft, now)
	if err != nil {
		t.Fatal(err)
	}
	unverified := Actor{User: User{ID: 8, IsAdmin: true}, VerifiedEmailRequired: true}
	own, admin := ByOwnRight(unverified), ByAdminRight(unverified, "192.0.2.1")
	if own.MayChange(7) || !own.MayChange(8) || (Acting{}).MayChange(0) || !admin.MayChange(7) {
		t.Error("MayChange: the owner by own right, anybody's by admin right, nothing for nobody")
	}
	if own.Sees(draft) || !admin.Sees(draft) {
		t.Error("Sees: another's draft by admin right only")
	}
	if err := own.CheckWrite(); !errors.Is(err, ErrEmailNotVerified) {
		t.Errorf("CheckWrite by own right with no proven address: got %v, want ErrEmailNotVerified", err)
	}
	if err := admin.CheckWrite(); err != nil {
		t.Errorf("CheckWrite by admin right: got %v, want nil", err)
	}
	if admin.Address != "192.0.2.1" || !admin.ByAdmin() || own.ByAdmin() {
		t.Errorf("the acting actors: %+v, %+v", own, admin)
	}
}
