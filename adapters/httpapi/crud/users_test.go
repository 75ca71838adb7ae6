package crud_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// userMounts are the paths where the users routers are mounted.
var userMounts = []string{"/users", "/api/v1/users", "/api/v2/users"}

func TestUsersLifecycle(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		for i, mount := range userMounts {
			t.Run(mount, func(t *testing.T) {
				email := fmt.Sprintf("ann%d@example.com", i)
				a.clock.Advance(time.Second)
				createdAt := a.clock.Now().Format(timeLayout)
				r := a.json("POST", mount, map[string]any{"name": "Ann", "email": email, "age": 30,
					"address": map[string]any{"street": "1 Rue de Rivoli", "city": "Paris", "zip": "75001", "country": "FR"}})
				r.check(t, http.StatusCreated, "Created")
				created := r.object()
				id := idOf(created)
				want := map[string]any{
					"id": json.Number(id), "name": "Ann", "email": email, "age": json.Number("30"),
					"address":    map[string]any{"street": "1 Rue de Rivoli", "city": "Paris", "zip": "75001", "country": "FR"},
					"created_at": createdAt, "updated_at": createdAt,
				}
				if !reflect.DeepEqual(created, want) {
					t.Errorf("created: got %v, want %v", created, want)
				}

				r = a.do("GET", mount+"/"+id, "", "")
				r.check(t, http.StatusOK, "Success")
				if got := r.object(); !reflect.DeepEqual(got, want) {
					t.Errorf("read: got %v, want %v", got, want)
				}

				r = a.do("GET", mount, "", "")
				r.check(t, http.StatusOK, "Success")
				if ids := r.ids(); !slices.Contains(ids, id) {
					t.Errorf("list ids: got %v, want them to hold %s", ids, id)
				}

				a.clock.Advance(time.Second)
				r = a.json("PUT", mount+"/"+id, map[string]any{"name": "Ann B.", "email": email})
				r.check(t, http.StatusOK, "Success")
				replaced := r.object()
				wantReplaced := map[string]any{
					"id": json.Number(id), "name": "Ann B.", "email": email, "age": nil, "address": nil,
					"created_at": createdAt, "updated_at": a.clock.Now().Format(timeLayout),
				}
				if !reflect.DeepEqual(replaced, wantReplaced) {
					t.Errorf("replaced: got %v, want %v", replaced, wantReplaced)
				}
				if got := a.do("GET", mount+"/"+id, "", "").object(); !reflect.DeepEqual(got, wantReplaced) {
					t.Errorf("read after replace: got %v, want %v", got, wantReplaced)
				}

				a.do("DELETE", mount+"/"+id, "", "").check(t, http.StatusNoContent, "")
				a.do("GET", mount+"/"+id, "", "").check(t, http.StatusNotFound, "User not found")
				a.do("DELETE", mount+"/"+id, "", "").check(t, http.StatusNotFound, "User not found")
				a.json("PUT", mount+"/"+id, map[string]any{"name": "X", "email": email}).check(t, http.StatusNotFound, "User not found")
			})
		}
	})
}

func TestUsersFormBodies(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		r := a.form("POST", "/users", "name=Ann+Lee&email=ann%40example.com&age=42&address[city]=Paris&address[zip]=75001&newsletter=true&tags[]=a")
		r.check(t, http.StatusCreated, "Created")
		got := r.object()
		want := map[string]any{"name": "Ann Lee", "email": "ann@example.com", "age": json.Number("42"),
			"address": map[string]any{"city": "Paris", "zip": "75001"}}
		for k, v := range want {
			if !reflect.DeepEqual(got[k], v) {
				t.Errorf("%s: got %#v, want %#v", k, got[k], v)
			}
		}
		if _, ok := got["newsletter"]; ok {
			t.Errorf("unknown field newsletter came back: %v", got)
		}

		id := idOf(got)
		r = a.form("PATCH", "/api/v2/users/"+id, "age=&address[country]=FR")
		r.check(t, http.StatusOK, "Success")
		got = r.object()
		if got["age"] != nil {
			t.Errorf("age after a blank form value: got %v, want null", got["age"])
		}
		if want := map[string]any{"country": "FR"}; !reflect.DeepEqual(got["address"], want) {
			t.Errorf("address: got %v, want %v", got["address"], want)
		}

		tests := []struct {
			name, body, want string
		}{
			{"age not a number", "name=Ann&email=b%40example.com&age=abc", "age must be an integer"},
			{"age with decimals", "name=Ann&email=b%40example.com&age=4.5", "age must be an integer"},
			{"age out of range", "name=Ann&email=b%40example.com&age=151", "age must be at most 150"},
			{"address as text", "name=Ann&email=b%40example.com&address=Paris", "address must be an object"},
			{"name as list", "name[]=Ann&email=b%40example.com", "name must be a string"},
			{"nested address field as object", "name=Ann&email=b%40example.com&address[city][x]=1", "address.city must be a string"},
			{"NUL byte", "name=A%00nn&email=b%40example.com", "name must not contain null bytes"},
			{"missing email", "name=Ann", "email is required"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				a.form("POST", "/users", tt.body).check(t, http.StatusBadRequest, tt.want)
			})
		}
	})
}

func TestUsersValidation(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		long := strings.Repeat("é", 256)
		tests := []struct {
			name string
			body string
			want string
		}{
			{"empty object", `{}`, "name is required"},
			{"empty body", ``, "name is required"},
			{"name null", `{"name":null,"email":"a@example.com"}`, "name is required"},
			{"name blank", `{"name":"   ","email":"a@example.com"}`, "name is required"},
			{"name a number", `{"name":42,"email":"a@example.com"}`, "name must be a string"},
			{"name too long", `{"name":"` + long + `","email":"a@example.com"}`, "name must be at most 255 characters"},
			{"name with NUL", `{"name":"A\u0000nn","email":"a@example.com"}`, "name must not contain null bytes"},
			{"email missing", `{"name":"Ann"}`, "email is required"},
			{"email invalid", `{"name":"Ann","email":"not-an-address"}`, "email must be a valid email address"},
			{"email without domain dot", `{"name":"Ann","email":"ann@localhost"}`, "email must be a valid email address"},
			{"email with display name", `{"name":"Ann","email":"Ann <ann@example.com>"}`, "email must be a valid email address"},
			{"email too long", `{"name":"Ann","email":"` + strings.Repeat("a", 250) + `@example.com"}`, "email must be a valid email address"},
			{"age negative", `{"name":"Ann","email":"a@example.com","age":-1}`, "age must be at least 0"},
			{"age too high", `{"name":"Ann","email":"a@example.com","age":151}`, "age must be at most 150"},
			{"age fractional", `{"name":"Ann","email":"a@example.com","age":30.5}`, "age must be an integer"},
			{"age boolean", `{"name":"Ann","email":"a@example.com","age":true}`, "age must be an integer"},
			{"age huge", `{"name":"Ann","email":"a@example.com","age":1e400}`, "age must be an integer"},
			{"age words", `{"name":"Ann","email":"a@example.com","age":"thirty"}`, "age must be an integer"},
			{"age a JSON string", `{"name":"Ann","email":"a@example.com","age":"30"}`, "age must be an integer"},
			{"address a list", `{"name":"Ann","email":"a@example.com","address":["Paris"]}`, "address must be an object"},
			{"address city a number", `{"name":"Ann","email":"a@example.com","address":{"city":75}}`, "address.city must be a string"},
			{"address zip too long", `{"name":"Ann","email":"a@example.com","address":{"zip":"` + long + `"}}`, "address.zip must be at most 255 characters"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, mount := range userMounts {
					a.json("POST", mount, tt.body).check(t, http.StatusBadRequest, tt.want)
				}
			})
		}

		// A replacement is validated as a whole: required fields stay required.
		id := idOf(a.mustCreate("/users", map[string]any{"name": "Ann", "email": "ann@example.com"}))
		for _, mount := range userMounts {
			a.json("PUT", mount+"/"+id, `{"name":"Ann"}`).check(t, http.StatusBadRequest, "email is required")
		}
	})
}

func TestUsersAccepts(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		tests := []struct {
			name string
			body string
			want map[string]any
		}{
			{"unicode", `{"name":"Zoë 名前 🚀","email":"josé@exämple.com"}`,
				map[string]any{"name": "Zoë 名前 🚀", "email": "josé@exämple.com"}},
			{"255 characters of four bytes", `{"name":"` + strings.Repeat("🚀", 255) + `","email":"long@example.com"}`,
				map[string]any{"name": strings.Repeat("🚀", 255)}},
			{"trimmed", `{"name":"  Ann  ","email":" trim@example.com "}`,
				map[string]any{"name": "Ann", "email": "trim@example.com"}},
			{"unknown fields ignored", `{"name":"Ann","email":"x@example.com","id":999999,"created_at":"1999-01-01T00:00:00Z","admin":true}`,
				map[string]any{"created_at": "2026-11-20T10:00:00.000000Z"}},
			{"age zero", `{"name":"Ann","email":"zero@example.com","age":0}`,
				map[string]any{"age": json.Number("0")}},
			{"age whole float", `{"name":"Ann","email":"whole@example.com","age":42.0}`,
				map[string]any{"age": json.Number("42")}},
			{"age null", `{"name":"Ann","email":"null@example.com","age":null,"address":null}`,
				map[string]any{"age": nil, "address": nil}},
			{"empty address", `{"name":"Ann","email":"empty@example.com","address":{}}`,
				map[string]any{"address": nil}},
			{"media type with charset", `{"name":"Ann","email":"charset@example.com"}`,
				map[string]any{"email": "charset@example.com"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := a.do("POST", "/users", "application/json; charset=utf-8", tt.body)
				r.check(t, http.StatusCreated, "Created")
				got := r.object()
				for k, v := range tt.want {
					if !reflect.DeepEqual(got[k], v) {
						t.Errorf("%s: got %#v, want %#v", k, got[k], v)
					}
				}
				if id := idOf(got); id == "999999" {
					t.Errorf("id: got the client's %s", id)
				}
			})
		}
	})
}

func TestUsersConflicts(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		ann := idOf(a.mustCreate("/users", map[string]any{"name": "Ann", "email": "Ann@Example.com"}))
		bob := idOf(a.mustCreate("/api/v1/users", map[string]any{"name": "Bob", "email": "bob@example.com"}))

		for _, mount := range userMounts {
			a.json("POST", mount, map[string]any{"name": "Other", "email": "ann@example.COM"}).check(t, http.StatusConflict, "Email already exists")
			a.json("PUT", mount+"/"+bob, map[string]any{"name": "Bob", "email": "ANN@example.com"}).check(t, http.StatusConflict, "Email already exists")
		}
		a.json("PATCH", "/api/v2/users/"+bob, map[string]any{"email": "ann@example.com"}).check(t, http.StatusConflict, "Email already exists")
		// Keeping one's own address, in another case, is no conflict.
		a.json("PUT", "/users/"+ann, map[string]any{"name": "Ann", "email": "ANN@example.com"}).check(t, http.StatusOK, "Success")
		// A failed update leaves the record as it was.
		if got := a.do("GET", "/users/"+bob, "", "").object()["email"]; got != "bob@example.com" {
			t.Errorf("bob's email after the conflicts: got %v, want bob@example.com", got)
		}
	})
}

func TestUsersConcurrentCreates(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		const n = 20
		statuses := make(chan int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := fmt.Sprintf(`{"name":"Racer %d","email":"Race@Example.com"}`, i)
				statuses <- a.json("POST", userMounts[i%len(userMounts)], body).Status
			}()
		}
		wg.Wait()
		close(statuses)
		counts := map[int]int{}
		for s := range statuses {
			counts[s]++
		}
		if want := map[int]int{http.StatusCreated: 1, http.StatusConflict: n - 1}; !reflect.DeepEqual(counts, want) {
			t.Errorf("statuses: got %v, want %v", counts, want)
		}
		if total := a.do("GET", "/users", "", "").Header.Get("X-Total-Count"); total != "1" {
			t.Errorf("X-Total-Count: got %s, want 1", total)
		}
	})
}

func TestUsersPaging(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		var ids []string
		for i := range 5 {
			ids = append(ids, idOf(a.mustCreate("/users", map[string]any{"name": fmt.Sprintf("U%d", i), "email": fmt.Sprintf("u%d@example.com", i)})))
		}
		link := func(path string, page, limit int, rel string) string {
			return fmt.Sprintf(`<http://example.com%s?limit=%d&page=%d>; rel="%s"`, path, limit, page, rel)
		}
		for _, mount := range []string{"/users", "/api/v1/users"} {
			tests := []struct {
				query    string
				wantIDs  []string
				wantLink []string
			}{
				{"", ids, []string{link(mount, 1, 100, "first"), link(mount, 1, 100, "last")}},
				{"?page=1&limit=2", ids[:2], []string{link(mount, 1, 2, "first"), link(mount, 2, 2, "next"), link(mount, 3, 2, "last")}},
				{"?page=2&limit=2", ids[2:4], []string{link(mount, 1, 2, "first"), link(mount, 1, 2, "prev"), link(mount, 3, 2, "next"), link(mount, 3, 2, "last")}},
				{"?page=3&limit=2", ids[4:], []string{link(mount, 1, 2, "first"), link(mount, 2, 2, "prev"), link(mount, 3, 2, "last")}},
				{"?page=9&limit=2", nil, []string{link(mount, 1, 2, "first"), link(mount, 3, 2, "prev"), link(mount, 3, 2, "last")}},
				{"?page=abc&limit=-4", ids, []string{link(mount, 1, 100, "first"), link(mount, 1, 100, "last")}},
				{"?limit=5000", ids, []string{link(mount, 1, 1000, "first"), link(mount, 1, 1000, "last")}},
				{"?page=99999999999999&limit=1000", nil, []string{link(mount, 1, 1000, "first"), link(mount, 1, 1000, "prev"), link(mount, 1, 1000, "last")}},
			}
			for _, tt := range tests {
				t.Run(mount+tt.query, func(t *testing.T) {
					r := a.do("GET", mount+tt.query, "", "")
					r.check(t, http.StatusOK, "Success")
					if got := r.ids(); !reflect.DeepEqual(got, tt.wantIDs) {
						t.Errorf("ids: got %v, want %v", got, tt.wantIDs)
					}
					if string(r.Data) == "null" {
						t.Errorf("data: got null, want a list")
					}
					if got := r.Header.Get("X-Total-Count"); got != "5" {
						t.Errorf("X-Total-Count: got %q, want 5", got)
					}
					if got, want := r.Header.Get("Link"), strings.Join(tt.wantLink, ", "); got != want {
						t.Errorf("Link:\n got %s\nwant %s", got, want)
					}
				})
			}
		}
	})
}

func TestUsersPagingBaseURL(t *testing.T) {
	a := newAPI(t, stores[0].Open(t), options{baseURL: "https://api.example.org"})
	r := a.do("GET", "/users", "", "")
	if got, want := r.Header.Get("Link"), `<https://api.example.org/users?limit=100&page=1>; rel="first", <https://api.example.org/users?limit=100&page=1>; rel="last"`; got != want {
		t.Errorf("Link: got %s, want %s", got, want)
	}
	r = a.json("POST", "/api/v2/users", map[string]any{"name": "Ann", "email": "ann@example.com"})
	if got, want := r.Header.Get("Location"), "https://api.example.org/api/v2/users/"+idOf(r.object()); got != want {
		t.Errorf("Location: got %s, want %s", got, want)
	}
}

func TestUsersV2(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		var people []map[string]any
		for _, p := range []map[string]any{
			{"name": "Bob", "email": "bob@example.org", "age": 40},
			{"name": "Ann", "email": "ann@example.com", "age": 30},
			{"name": "Cara", "email": "cara_100%@example.org"},
		} {
			r := a.json("POST", "/api/v2/users", p)
			r.check(t, http.StatusCreated, "Created")
			people = append(people, r.object())
			if got, want := r.Header.Get("Location"), "http://example.com/api/v2/users/"+idOf(r.object()); got != want {
				t.Errorf("Location: got %q, want %q", got, want)
			}
			a.clock.Advance(time.Second)
		}
		bob, ann, cara := idOf(people[0]), idOf(people[1]), idOf(people[2])

		type metaBlock struct {
			Page     int `json:"page"`
			PerPage  int `json:"per_page"`
			Total    int `json:"total"`
			LastPage int `json:"last_page"`
		}
		lists := []struct {
			query    string
			wantIDs  []string
			wantMeta metaBlock
		}{
			{"", []string{bob, ann, cara}, metaBlock{1, 15, 3, 1}},
			{"?per_page=2", []string{bob, ann}, metaBlock{1, 2, 3, 2}},
			{"?per_page=2&page=2", []string{cara}, metaBlock{2, 2, 3, 2}},
			{"?per_page=500", []string{bob, ann, cara}, metaBlock{1, 100, 3, 1}},
			{"?page=0&per_page=x", []string{bob, ann, cara}, metaBlock{1, 15, 3, 1}},
			{"?q=ANN", []string{ann}, metaBlock{1, 15, 1, 1}},
			{"?q=example.org", []string{bob, cara}, metaBlock{1, 15, 2, 1}},
			{"?q=100%25", []string{cara}, metaBlock{1, 15, 1, 1}},
			{"?q=b_b", nil, metaBlock{1, 15, 0, 1}},
			{"?q=nobody", nil, metaBlock{1, 15, 0, 1}},
			{"?sort=name", []string{ann, bob, cara}, metaBlock{1, 15, 3, 1}},
			{"?sort=-name", []string{cara, bob, ann}, metaBlock{1, 15, 3, 1}},
			{"?sort=-created_at", []string{cara, ann, bob}, metaBlock{1, 15, 3, 1}},
			{"?sort=email", []string{ann, bob, cara}, metaBlock{1, 15, 3, 1}},
			{"?sort=updated_at,-id", []string{bob, ann, cara}, metaBlock{1, 15, 3, 1}},
			{"?sort=-created_at&q=example.org", []string{cara, bob}, metaBlock{1, 15, 2, 1}},
		}
		for _, tt := range lists {
			t.Run("list"+tt.query, func(t *testing.T) {
				r := a.do("GET", "/api/v2/users"+tt.query, "", "")
				r.check(t, http.StatusOK, "Success")
				if got := r.ids(); !reflect.DeepEqual(got, tt.wantIDs) && !(len(got) == 0 && len(tt.wantIDs) == 0) {
					t.Errorf("ids: got %v, want %v", got, tt.wantIDs)
				}
				if string(r.Data) == "null" {
					t.Errorf("data: got null, want a list")
				}
				var m metaBlock
				if err := json.Unmarshal(r.Meta, &m); err != nil || m != tt.wantMeta {
					t.Errorf("meta: got %s (%v), want %+v", r.Meta, err, tt.wantMeta)
				}
			})
		}
		if age := people[2]["age"]; age != nil {
			t.Fatalf("cara's age: got %v, want null", age)
		}

		a.do("GET", "/api/v2/users?sort=password", "", "").check(t, http.StatusBadRequest,
			"sort must list fields among id, name, email, age, created_at, updated_at")
		a.do("GET", "/api/v2/users?q=a%00b", "", "").check(t, http.StatusBadRequest, "q must not contain null bytes")
		a.do("GET", "/api/v2/users?q=a%1bb", "", "").check(t, http.StatusBadRequest, "q must not contain control characters")

		// PATCH changes the fields it carries and nothing else.
		patches := []struct {
			name string
			body string
			want map[string]any
		}{
			{"age only", `{"age":31}`, map[string]any{"name": "Ann", "email": "ann@example.com", "age": json.Number("31"), "address": nil}},
			{"address only", `{"address":{"city":"Lyon"}}`, map[string]any{"age": json.Number("31"), "address": map[string]any{"city": "Lyon"}}},
			{"name and unknown field", `{"name":"Annie","role":"admin"}`, map[string]any{"name": "Annie", "age": json.Number("31"), "address": map[string]any{"city": "Lyon"}}},
			{"clear age", `{"age":null}`, map[string]any{"name": "Annie", "age": nil, "address": map[string]any{"city": "Lyon"}}},
			{"nothing", `{}`, map[string]any{"name": "Annie", "email": "ann@example.com", "age": nil}},
			{"email", `{"email":"annie@example.com"}`, map[string]any{"email": "annie@example.com"}},
		}
		for _, tt := range patches {
			t.Run("patch "+tt.name, func(t *testing.T) {
				a.clock.Advance(time.Second)
				r := a.json("PATCH", "/api/v2/users/"+ann, tt.body)
				r.check(t, http.StatusOK, "Success")
				got := r.object()
				for k, v := range tt.want {
					if !reflect.DeepEqual(got[k], v) {
						t.Errorf("%s: got %#v, want %#v", k, got[k], v)
					}
				}
				if got["created_at"] != people[1]["created_at"] {
					t.Errorf("created_at: got %v, want %v", got["created_at"], people[1]["created_at"])
				}
				if want := a.clock.Now().Format(timeLayout); got["updated_at"] != want {
					t.Errorf("updated_at: got %v, want %v", got["updated_at"], want)
				}
				if read := a.do("GET", "/api/v2/users/"+ann, "", "").object(); !reflect.DeepEqual(read, got) {
					t.Errorf("read after patch: got %v, want %v", read, got)
				}
			})
		}

		badPatches := []struct {
			name, id, body string
			status         int
			want           string
		}{
			{"blank name", ann, `{"name":""}`, 400, "name is required"},
			{"null email", ann, `{"email":null}`, 400, "email is required"},
			{"bad email", ann, `{"email":"nope"}`, 400, "email must be a valid email address"},
			{"bad age", ann, `{"age":"old"}`, 400, "age must be an integer"},
			{"age a JSON string", ann, `{"age":"30"}`, 400, "age must be an integer"},
			{"malformed", ann, `{"age":`, 400, "Malformed JSON body."},
			{"missing record", "999999", `{"age":1}`, 404, "User not found"},
			{"bad id", "abc", `{"age":1}`, 404, "User not found"},
		}
		for _, tt := range badPatches {
			t.Run("patch "+tt.name, func(t *testing.T) {
				a.json("PATCH", "/api/v2/users/"+tt.id, tt.body).check(t, tt.status, tt.want)
			})
		}
		// v1 has no PATCH.
		for _, mount := range []string{"/users", "/api/v1/users"} {
			a.json("PATCH", mount+"/"+ann, `{"age":1}`).check(t, http.StatusMethodNotAllowed, "Method Not Allowed")
		}
		// v1 creates answer no Location.
		if loc := a.json("POST", "/users", map[string]any{"name": "Dan", "email": "dan@example.com"}).Header.Get("Location"); loc != "" {
			t.Errorf("v1 Location: got %q, want none", loc)
		}
	})
}
