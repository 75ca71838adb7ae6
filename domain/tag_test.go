package domain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestManageTags: only an account with admin rights renames, merges and
// deletes tags, through a session or a token that allows WriteTags; a
// token's "*" is not admin rights.
func TestManageTags(t *testing.T) {
	admin := User{ID: 1, IsAdmin: true}
	ann := User{ID: 2}
	tok := func(abilities ...string) *Token { return &Token{ID: 9, Abilities: abilities} }
	for _, tc := range []struct {
		name  string
		actor Actor
		want  error
	}{
		{"nobody", Actor{}, ErrUnauthenticated},
		{"a user's session", Actor{User: ann}, ErrForbidden},
		{"a user's * token", Actor{User: ann, Token: tok(AbilityAll)}, ErrForbidden},
		{"the admin's session", Actor{User: admin}, nil},
		{"the admin's * token", Actor{User: admin, Token: tok(AbilityAll)}, nil},
		{"the admin's tags:write token", Actor{User: admin, Token: tok(AbilityTagsWrite)}, nil},
		{"the admin's read-only token", Actor{User: admin, Token: tok(AbilityPostsRead)}, ErrInvalidAbility},
		{"the admin's comments:write token", Actor{User: admin, Token: tok(AbilityCommentsWrite)}, ErrInvalidAbility},
	} {
		if got := tc.actor.CheckManageTags(); !errors.Is(got, tc.want) || (tc.want == nil && got != nil) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTagRename(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tag, err := NewTag("Go", at)
	if err != nil {
		t.Fatal(err)
	}
	tag.ID = 4
	later := at.Add(time.Hour)
	if err := tag.Rename("Go Lang", later); err != nil {
		t.Fatal(err)
	}
	if want := (Tag{ID: 4, Name: "Go Lang", Slug: "go-lang", CreatedAt: at, UpdatedAt: later}); tag != want {
		t.Errorf("renamed: got %+v, want %+v", tag, want)
	}
	for _, name := range []string{"", "  ", strings.Repeat("é", MaxTagNameLength+1)} {
		before := tag
		if err := tag.Rename(name, later.Add(time.Hour)); KindOf(err) != Invalid {
			t.Errorf("Rename(%q): got %v, want an Invalid error", name, err)
		}
		if tag != before {
			t.Errorf("Rename(%q) refused, yet changed the tag to %+v", name, tag)
		}
	}
	if err := CheckMerge(tag, tag); KindOf(err) != Invalid {
		t.Errorf("CheckMerge of a tag into itself: got %v, want an Invalid error", err)
	}
	if err := CheckMerge(tag, Tag{ID: 5}); err != nil {
		t.Errorf("CheckMerge of two tags: %v", err)
	}
}
