package app_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
)

func TestTags(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			tags := app.NewTags(s.Open(t), clock.NewFixed(t0))
			if got, err := tags.List(ctx, domain.Actor{}); err != nil || len(got) != 0 {
				t.Errorf("list of none: got %+v, %v; want none", got, err)
			}
			// Nobody writes nothing; a browser session's actor writes every
			// kind.
			if _, err := tags.Create(ctx, domain.Actor{}, "Zen"); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("create by nobody: got %v, want %v", err, domain.ErrUnauthenticated)
			}
			writer := domain.Actor{User: domain.User{ID: 1}}
			var created []domain.Tag
			for _, name := range []string{"Zen", "Go Lang", "Art"} {
				tag, err := tags.Create(ctx, writer, name)
				if err != nil {
					t.Fatal(err)
				}
				created = append(created, tag)
			}
			zen, golang, art := created[0], created[1], created[2]
			if want := (domain.Tag{ID: golang.ID, Name: "Go Lang", Slug: "go-lang", CreatedAt: t0, UpdatedAt: t0}); !reflect.DeepEqual(golang, want) {
				t.Errorf("created: got %+v, want %+v", golang, want)
			}
			if _, err := tags.Create(ctx, writer, "go lang"); !errors.Is(err, domain.ErrTagTaken) {
				t.Errorf("duplicate name: got %v, want %v", err, domain.ErrTagTaken)
			}
			got, err := tags.List(ctx, domain.Actor{})
			if err != nil || !reflect.DeepEqual(got, []domain.Tag{art, golang, zen}) {
				t.Errorf("list: got %+v, %v; want Art, Go Lang, Zen", got, err)
			}
		})
	}
}
