package app_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func TestProducts(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := clock.NewFixed(t0)
			products := app.NewProducts(s.Open(t), clk, app.DirectoryConfig{})

			pen, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: "Pen", PriceCents: 1999, Description: "Blue", Stock: 3, SKU: ptr("PEN")})
			if err != nil {
				t.Fatal(err)
			}
			want := domain.Product{ID: pen.ID, Name: "Pen", PriceCents: 1999, Description: "Blue", Stock: 3, SKU: ptr("PEN"), CreatedAt: t0, UpdatedAt: t0}
			if !reflect.DeepEqual(pen, want) {
				t.Errorf("created: got %+v, want %+v", pen, want)
			}
			if _, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: "Pen 2", SKU: ptr("PEN")}); !errors.Is(err, domain.ErrSKUTaken) {
				t.Errorf("duplicate SKU: got %v, want %v", err, domain.ErrSKUTaken)
			}

			clk.Advance(time.Minute)
			got, err := products.Replace(ctx, domain.ByOwnRight(domain.Actor{}), pen.ID, ports.ProductInput{Name: "Pencil", PriceCents: 250}, ports.Precondition{})
			if err != nil {
				t.Fatal(err)
			}
			want = domain.Product{ID: pen.ID, Name: "Pencil", PriceCents: 250, CreatedAt: t0, UpdatedAt: t0.Add(time.Minute)}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replaced: got %+v, want %+v", got, want)
			}
			if _, err := products.Replace(ctx, domain.ByOwnRight(domain.Actor{}), 424242, ports.ProductInput{Name: "X"}, ports.Precondition{}); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("replace of a missing product: got %v, want %v", err, domain.ErrNotFound)
			}
		})
	}
}

func TestProductsGetListDelete(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			products := app.NewProducts(s.Open(t), clock.NewFixed(t0), app.DirectoryConfig{})
			var created []domain.Product
			for _, name := range []string{"Pen", "Ink", "Nib"} {
				p, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: name, PriceCents: 100})
				if err != nil {
					t.Fatal(err)
				}
				created = append(created, p)
			}
			pen, ink, nib := created[0], created[1], created[2]

			got, err := products.Get(ctx, ink.ID)
			if err != nil || !reflect.DeepEqual(got, ink) {
				t.Errorf("get: got %+v, %v; want %+v", got, err, ink)
			}
			list, total, err := products.List(ctx, ports.Page{Offset: 1, Limit: 2})
			if err != nil || total != 3 || !reflect.DeepEqual(list, []domain.Product{ink, nib}) {
				t.Errorf("list, second and third: got %+v, total %d, %v; want Ink and Nib of 3", list, total, err)
			}

			if err := products.Delete(ctx, domain.Actor{}, pen.ID, ports.Precondition{}); err != nil {
				t.Fatal(err)
			}
			if _, err := products.Get(ctx, pen.ID); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("get after delete: got %v, want %v", err, domain.ErrNotFound)
			}
			if err := products.Delete(ctx, domain.Actor{}, pen.ID, ports.Precondition{}); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("second delete: got %v, want %v", err, domain.ErrNotFound)
			}
			list, total, err = products.List(ctx, ports.Page{})
			if err != nil || total != 2 || !reflect.DeepEqual(list, []domain.Product{ink, nib}) {
				t.Errorf("list after delete: got %+v, total %d, %v; want Ink and Nib", list, total, err)
			}
		})
	}
}
