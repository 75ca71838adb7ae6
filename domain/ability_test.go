package domain

import (
	"slices"
	"testing"
)

func TestWriteAbilities(t *testing.T) {
	login := []string{AbilityPostsRead, AbilityPostsWrite}
	narrow := map[Write]string{
		WritePosts:    AbilityPostsWrite,
		WriteProfile:  AbilityProfileUpdate,
		WriteComments: AbilityCommentsWrite,
		WriteTags:     AbilityTagsWrite,
		WriteWebhooks: AbilityWebhooksWrite,
		WriteTokens:   AbilityTokensWrite,
	}
	if got := Writes(); len(got) != len(narrow) {
		t.Fatalf("Writes: got %v, want the %d kinds", got, len(narrow))
	}
	for _, w := range Writes() {
		for _, a := range w.Abilities() {
			if !slices.Contains(Abilities, a) {
				t.Errorf("write %d: allowed by %q, which Abilities does not list", w, a)
			}
		}
		if !w.Allows(login) || !w.Allows([]string{AbilityAll}) {
			t.Errorf("write %d: not allowed to a login token or to *", w)
		}
		if w.Allows([]string{AbilityPostsRead}) || w.Allows(nil) {
			t.Errorf("write %d: allowed to posts:read or to nothing", w)
		}
		// Each narrow ability allows its own kind and no other.
		for other, a := range narrow {
			if got, want := w.Allows([]string{a}), other == w || a == AbilityPostsWrite; got != want {
				t.Errorf("write %d by %q alone: got %v, want %v", w, a, got, want)
			}
		}
	}

	reader := Token{ID: 1, Abilities: []string{AbilityPostsRead}}
	ann := User{ID: 7}
	for _, tc := range []struct {
		name  string
		actor Actor
		write Write
		want  error
	}{
		{"a session writes", Actor{User: ann}, WriteWebhooks, nil},
		{"nobody writes nothing", Actor{}, WriteTags, ErrUnauthenticated},
		{"a read-only token writes nothing", Actor{User: ann, Token: &reader}, WriteProfile, ErrInvalidAbility},
		{"a write the table does not name is nobody's", Actor{User: ann}, Write(0), ErrInvalidAbility},
		{"* does not make an unnamed write", Actor{User: ann, Token: &Token{Abilities: []string{AbilityAll}}}, Write(200), ErrInvalidAbility},
		{"a narrow token writes its kind", Actor{User: ann, Token: &Token{Abilities: []string{AbilityTagsWrite}}}, WriteTags, nil},
	} {
		if got := tc.actor.CheckAbility(tc.write); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCheckTokenRequestKnowsTheAbilities(t *testing.T) {
	if err := CheckTokenRequest("t", Abilities, 0); err != nil {
		t.Errorf("every ability: %v", err)
	}
	err := CheckTokenRequest("t", []string{AbilityPostsRead, "posts:delete"}, 0)
	de, ok := AsError(err)
	if !ok || !slices.Equal(de.Rules("abilities.1"), []Rule{RuleOf(RuleIn, Abilities...)}) || len(de.Fields) != 1 {
		t.Errorf("an unknown ability: got %v, want abilities.1 refused by in", err)
	}
}
