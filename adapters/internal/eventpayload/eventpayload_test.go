package eventpayload

import (
	"reflect"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// storedBefore is a payload as the outbox held it when the domain's types
// carried its JSON tags: the stores must go on reading such rows.
const storedBefore = `{"post":{"ID":7,"AuthorID":3,"Title":"Hello","Slug":"hello","Excerpt":"","Body":"Body","Status":"published","ImagePath":"","PublishedAt":"2026-11-24T10:00:00Z","CreatedAt":"2026-11-24T09:00:00Z","UpdatedAt":"2026-11-24T10:00:00Z"},"tags":[{"ID":1,"Name":"Go","Slug":"go","CreatedAt":"2026-11-24T08:00:00Z","UpdatedAt":"2026-11-24T08:00:00Z"}],"author":{"id":3,"name":"Ann","avatar_path":"avatars/a.png"}}`

func TestReadsWhatItWrites(t *testing.T) {
	published := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	created := published.Add(-time.Hour)
	want := domain.EventPayload{
		Post: &domain.PostState{ID: 7, AuthorID: 3, Title: "Hello", Slug: "hello", Body: "Body",
			Status: domain.StatusPublished, PublishedAt: &published, CreatedAt: created, UpdatedAt: published},
		Tags:   []domain.Tag{{ID: 1, Name: "Go", Slug: "go", CreatedAt: created.Add(-time.Hour), UpdatedAt: created.Add(-time.Hour)}},
		Author: &domain.Author{ID: 3, Name: "Ann", AvatarPath: "avatars/a.png"},
	}
	old, err := Unmarshal([]byte(storedBefore))
	if err != nil {
		t.Fatalf("Unmarshal(stored before): %v", err)
	}
	if !reflect.DeepEqual(old, want) {
		t.Errorf("Unmarshal(stored before):\ngot  %+v\nwant %+v", old, want)
	}
	data, err := Marshal(want)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if string(data) != storedBefore {
		t.Errorf("Marshal wrote\n%s\nwant the stored form\n%s", data, storedBefore)
	}
	back, err := Unmarshal(data)
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Errorf("Unmarshal(Marshal(p)): got %+v, %v; want %+v", back, err, want)
	}
}

// storedComment is a comment event's payload as the outbox holds it: the
// post the comment is on, which the comment's representation names, comes
// from the PostID every stored comment already carries.
const storedComment = `{"tags":null,"comment":{"ID":5,"PostID":7,"UserID":3,"Body":"Hi","CreatedAt":"2026-11-24T09:00:00Z","UpdatedAt":"2026-11-24T09:00:00Z"},"author":{"id":3,"name":"Ann"}}`

func TestReadsStoredComments(t *testing.T) {
	created := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	want := domain.EventPayload{
		Comment: &domain.Comment{ID: 5, PostID: 7, UserID: 3, Body: "Hi", CreatedAt: created, UpdatedAt: created},
		Author:  &domain.Author{ID: 3, Name: "Ann"},
	}
	got, err := Unmarshal([]byte(storedComment))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Unmarshal(stored comment): got %+v, %v; want %+v", got, err, want)
	}
	data, err := Marshal(want)
	if err != nil || string(data) != storedComment {
		t.Errorf("Marshal wrote\n%s, %v\nwant the stored form\n%s", data, err, storedComment)
	}
}
