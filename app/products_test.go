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
			products := app.NewProducts(s.Open(t), clk)

			pen, err := products.Create(ctx, ports.ProductInput{Name: "Pen", PriceCents: 1999, Description: "Blue", Stock: 3, SKU: ptr("PEN")})
			if err != nil {
				t.Fatal(err)
			}
			want := domain.Product{ID: pen.ID, Name: "Pen", PriceCents: 1999, Description: "Blue", Stock: 3, SKU: ptr("PEN"), CreatedAt: t0, UpdatedAt: t0}
			if !reflect.DeepEqual(pen, want) {
				t.Errorf("created: got %+v, want %+v", pen, want)
			}
			if _, err := products.Create(ctx, ports.ProductInput{Name: "Pen 2", SKU: ptr("PEN")}); !errors.Is(err, domain.ErrSKUTaken) {
				t.Errorf("duplicate SKU: got %v, want %v", err, domain.ErrSKUTaken)
			}

			clk.Advance(time.Minute)
			got, err := products.Replace(ctx, pen.ID, ports.ProductInput{Name: "Pencil", PriceCents: 250})
			if err != nil {
				t.Fatal(err)
			}
			want = domain.Product{ID: pen.ID, Name: "Pencil", PriceCents: 250, CreatedAt: t0, UpdatedAt: t0.Add(time.Minute)}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replaced: got %+v, want %+v", got, want)
			}
			if _, err := products.Replace(ctx, 424242, ports.ProductInput{Name: "X"}); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("replace of a missing product: got %v, want %v", err, domain.ErrNotFound)
			}
		})
	}
}
