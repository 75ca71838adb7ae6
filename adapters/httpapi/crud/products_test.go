package crud_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

var productMounts = []string{"/products", "/api/v1/products"}

func TestProductsLifecycle(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		for i, mount := range productMounts {
			t.Run(mount, func(t *testing.T) {
				sku := fmt.Sprintf("SKU-%d", i)
				a.clock.Advance(time.Second)
				createdAt := a.clock.Now().Format(timeLayout)
				r := a.json("POST", mount, `{"name":"Pen","price":19.99,"description":"  Blue ink.\n","stock":7,"sku":"`+sku+`"}`)
				r.check(t, http.StatusCreated, "Created")
				created := r.object()
				id := idOf(created)
				want := map[string]any{
					"id": json.Number(id), "name": "Pen", "price": json.Number("19.99"), "description": "  Blue ink.\n",
					"stock": json.Number("7"), "sku": sku,
					"created_at": createdAt, "updated_at": createdAt,
				}
				if !reflect.DeepEqual(created, want) {
					t.Errorf("created: got %v, want %v", created, want)
				}
				if !strings.Contains(r.Raw, `"price":19.99`) {
					t.Errorf("price is not the JSON number 19.99: %s", r.Raw)
				}

				r = a.do("GET", mount+"/"+id, "", "")
				r.check(t, http.StatusOK, "Success")
				if got := r.object(); !reflect.DeepEqual(got, want) {
					t.Errorf("read: got %v, want %v", got, want)
				}

				a.clock.Advance(time.Second)
				r = a.json("PUT", mount+"/"+id, `{"name":"Pencil","price":2.5}`)
				r.check(t, http.StatusOK, "Success")
				wantReplaced := map[string]any{
					"id": json.Number(id), "name": "Pencil", "price": json.Number("2.5"), "description": "",
					"stock": json.Number("0"), "sku": nil,
					"created_at": createdAt, "updated_at": a.clock.Now().Format(timeLayout),
				}
				if got := r.object(); !reflect.DeepEqual(got, wantReplaced) {
					t.Errorf("replaced: got %v, want %v", got, wantReplaced)
				}
				if got := a.do("GET", mount+"/"+id, "", "").object(); !reflect.DeepEqual(got, wantReplaced) {
					t.Errorf("read after replace: got %v, want %v", got, wantReplaced)
				}

				a.do("DELETE", mount+"/"+id, "", "").check(t, http.StatusNoContent, "")
				a.do("GET", mount+"/"+id, "", "").check(t, http.StatusNotFound, "Product not found")
				a.do("DELETE", mount+"/"+id, "", "").check(t, http.StatusNotFound, "Product not found")
				a.json("PUT", mount+"/"+id, `{"name":"X","price":1}`).check(t, http.StatusNotFound, "Product not found")
			})
		}
	})
}

func TestProductsPrices(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		tests := []struct {
			name, contentType, body, want string
		}{
			{"JSON integer", "application/json", `{"name":"P","price":20}`, "20"},
			{"JSON zero", "application/json", `{"name":"P","price":0}`, "0"},
			{"JSON one decimal", "application/json", `{"name":"P","price":0.5}`, "0.5"},
			{"JSON trailing zeros", "application/json", `{"name":"P","price":19.990}`, "19.99"},
			{"JSON exponent", "application/json", `{"name":"P","price":1.5e2}`, "150"},
			{"JSON largest", "application/json", `{"name":"P","price":999999999999}`, "999999999999"},
			{"form", "application/x-www-form-urlencoded", `name=P&price=19.99&stock=3`, "19.99"},
			{"form cents", "application/x-www-form-urlencoded", `name=P&price=0.01`, "0.01"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := a.do("POST", "/products", tt.contentType, tt.body)
				r.check(t, http.StatusCreated, "Created")
				if got := r.object()["price"]; got != json.Number(tt.want) {
					t.Errorf("price: got %v, want %s", got, tt.want)
				}
			})
		}
		r := a.form("POST", "/products", "name=P&price=1&stock=12&description=Hi")
		r.check(t, http.StatusCreated, "Created")
		if got := r.object()["stock"]; got != json.Number("12") {
			t.Errorf("stock from a form string: got %v, want 12", got)
		}
	})
}

func TestProductsValidation(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		tests := []struct {
			name, body, want string
		}{
			{"empty", `{}`, "name is required"},
			{"name too long", `{"name":"` + strings.Repeat("x", 256) + `","price":1}`, "name must be at most 255 characters"},
			{"price missing", `{"name":"P"}`, "price is required"},
			{"price null", `{"name":"P","price":null}`, "price is required"},
			{"price blank", `{"name":"P","price":" "}`, "price is required"},
			{"price words", `{"name":"P","price":"cheap"}`, "price must be a number"},
			{"price boolean", `{"name":"P","price":true}`, "price must be a number"},
			{"price negative", `{"name":"P","price":-1}`, "price must be at least 0"},
			{"price three decimals", `{"name":"P","price":1.999}`, "price must have at most two decimals"},
			{"price tiny", `{"name":"P","price":1e-9}`, "price must have at most two decimals"},
			{"price huge", `{"name":"P","price":1e400}`, "price must be at most 999999999999"},
			{"price above bound", `{"name":"P","price":1000000000000}`, "price must be at most 999999999999"},
			{"price NaN text", `{"name":"P","price":"NaN"}`, "price must be a number"},
			{"price a JSON string", `{"name":"P","price":"1.50"}`, "price must be a number"},
			{"stock a JSON string", `{"name":"P","price":1,"stock":"3"}`, "stock must be an integer"},
			{"description too long", `{"name":"P","price":1,"description":"` + strings.Repeat("d", 5001) + `"}`, "description must be at most 5000 characters"},
			{"description a number", `{"name":"P","price":1,"description":5}`, "description must be a string"},
			{"stock negative", `{"name":"P","price":1,"stock":-1}`, "stock must be at least 0"},
			{"stock fractional", `{"name":"P","price":1,"stock":1.5}`, "stock must be an integer"},
			{"stock too large", `{"name":"P","price":1,"stock":2147483648}`, "stock must be at most 2147483647"},
			{"sku too long", `{"name":"P","price":1,"sku":"` + strings.Repeat("s", 256) + `"}`, "sku must be at most 255 characters"},
			{"sku with NUL", `{"name":"P","price":1,"sku":"A\u0000"}`, "sku must not contain null bytes"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, mount := range productMounts {
					a.json("POST", mount, tt.body).check(t, http.StatusBadRequest, tt.want)
				}
			})
		}
		id := idOf(a.mustCreate("/products", map[string]any{"name": "P", "price": 1}))
		a.json("PUT", "/products/"+id, `{"name":"P"}`).check(t, http.StatusBadRequest, "price is required")
		a.json("PATCH", "/products/"+id, `{"name":"P"}`).check(t, http.StatusMethodNotAllowed, "Method Not Allowed")
	})
}

func TestProductsSKU(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		a.mustCreate("/products", map[string]any{"name": "A", "price": 1, "sku": "PEN-1"})
		b := idOf(a.mustCreate("/products", map[string]any{"name": "B", "price": 1, "sku": "PEN-2"}))
		for _, mount := range productMounts {
			a.json("POST", mount, map[string]any{"name": "C", "price": 1, "sku": "PEN-1"}).check(t, http.StatusConflict, "SKU already exists")
		}
		a.json("PUT", "/products/"+b, map[string]any{"name": "B", "price": 1, "sku": "PEN-1"}).check(t, http.StatusConflict, "SKU already exists")
		// Any number of products may have no SKU, whether it is left out,
		// null or blank.
		for _, body := range []string{`{"name":"N","price":1}`, `{"name":"N","price":1,"sku":null}`, `{"name":"N","price":1,"sku":"  "}`, `{"name":"N","price":1,"sku":""}`} {
			r := a.json("POST", "/products", body)
			r.check(t, http.StatusCreated, "Created")
			if sku := r.object()["sku"]; sku != nil {
				t.Errorf("sku of %s: got %v, want null", body, sku)
			}
		}
	})
}

func TestProductsPaging(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		var ids []string
		for i := range 3 {
			ids = append(ids, idOf(a.mustCreate("/products", map[string]any{"name": fmt.Sprintf("P%d", i), "price": i})))
		}
		for _, mount := range productMounts {
			r := a.do("GET", mount+"?page=2&limit=1", "", "")
			r.check(t, http.StatusOK, "Success")
			if got := r.ids(); !reflect.DeepEqual(got, ids[1:2]) {
				t.Errorf("%s ids: got %v, want %v", mount, got, ids[1:2])
			}
			if got := r.Header.Get("X-Total-Count"); got != "3" {
				t.Errorf("%s X-Total-Count: got %q, want 3", mount, got)
			}
			want := fmt.Sprintf(`<http://example.com%[1]s?limit=1&page=1>; rel="first", <http://example.com%[1]s?limit=1&page=1>; rel="prev", `+
				`<http://example.com%[1]s?limit=1&page=3>; rel="next", <http://example.com%[1]s?limit=1&page=3>; rel="last"`, mount)
			if got := r.Header.Get("Link"); got != want {
				t.Errorf("%s Link:\n got %s\nwant %s", mount, got, want)
			}
			if got := a.do("GET", mount, "", "").ids(); !reflect.DeepEqual(got, ids) {
				t.Errorf("%s ids: got %v, want %v (id order)", mount, got, ids)
			}
		}
	})
}
