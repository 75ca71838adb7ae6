package domain

import (
	"testing"
	"time"
)

func TestRevocationEnds(t *testing.T) {
	token := Credential{UserID: 7, TokenID: 31, TokenName: "feed"}
	session := Credential{UserID: 7, SessionHash: "abc"}
	for _, tc := range []struct {
		r              Revocation
		token, session bool
	}{
		{Revocation{UserID: 7, TokenID: 31}, true, false},
		{Revocation{UserID: 7, TokenID: 32}, false, false},
		{Revocation{UserID: 8, TokenID: 31}, false, false},
		{Revocation{UserID: 7, TokenName: "feed"}, true, false},
		{Revocation{UserID: 7, TokenName: "other"}, false, false},
		{Revocation{UserID: 7, AllTokens: true}, true, false},
		{Revocation{UserID: 7, SessionHash: "abc"}, false, true},
		{Revocation{UserID: 7, SessionHash: "abd"}, false, false},
		{Revocation{UserID: 7, AllSessions: true}, false, true},
		{Revocation{UserID: 7, AllTokens: true, AllSessions: true}, true, true},
		{Revocation{UserID: 8, AllTokens: true, AllSessions: true}, false, false},
	} {
		if got := tc.r.Ends(token); got != tc.token {
			t.Errorf("%+v.Ends(token) = %t, want %t", tc.r, got, tc.token)
		}
		if got := tc.r.Ends(session); got != tc.session {
			t.Errorf("%+v.Ends(session) = %t, want %t", tc.r, got, tc.session)
		}
		if tc.r.Ends(Credential{}) {
			t.Errorf("%+v ends an anonymous reader", tc.r)
		}
		e := NewRevocationEvent(tc.r, time.Time{})
		if e.ViewOf(0) != EventHidden || e.ViewOf(7) != EventHidden || e.Concerns(7) {
			t.Errorf("a revocation is shown: ViewOf %d/%d, Concerns %t", e.ViewOf(0), e.ViewOf(7), e.Concerns(7))
		}
	}
}
