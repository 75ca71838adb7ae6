package console_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// apiRecord creates one of area B's records through its API (path
// /api/v1/users or /api/v1/products) and returns its id.
func (b *bench) apiRecord(path string, body map[string]any) int64 {
	b.t.Helper()
	status, out := b.api("POST", path, "", body)
	if status != http.StatusCreated {
		b.t.Fatalf("create %s: %d %v", path, status, out)
	}
	id, _ := out["data"].(map[string]any)["id"].(float64)
	return int64(id)
}

// apiRecordData is record id of area B's API at path, as it shows it.
func (b *bench) apiRecordData(path string, id int64) map[string]any {
	b.t.Helper()
	status, out := b.api("GET", path+"/"+strconv.FormatInt(id, 10), "", nil)
	if status != http.StatusOK {
		b.t.Fatalf("read %s %d: %d %v", path, id, status, out)
	}
	return out["data"].(map[string]any)
}

// cells are the trimmed texts of the cells sel finds, in order.
func cells(a answer, sel string) []string {
	var out []string
	a.doc.Find(sel).Each(func(_ int, s *goquery.Selection) { out = append(out, strings.TrimSpace(s.Text())) })
	return out
}

// auditActions are the audit page's actions, newest first.
func auditActions(br *browser) []string {
	return cells(br.get("/admin/audit"), "#audit tbody td.action")
}

// editForm reads the edit form of the page at path and returns its action
// and its fields as the page filled them in.
func editForm(t *testing.T, br *browser, path string) (string, url.Values) {
	t.Helper()
	a := br.get(path)
	wantPage(t, a, http.StatusOK)
	form := a.doc.Find("form#edit")
	if form.Length() != 1 || form.AttrOr("method", "") != "post" || form.Find(`input[name="_token"]`).AttrOr("value", "") == "" {
		t.Fatalf("no edit form with a token on %s: %.2000s", path, a.body)
	}
	fields := url.Values{}
	form.Find("input[name], textarea[name]").Each(func(_ int, s *goquery.Selection) {
		name := s.AttrOr("name", "")
		if goquery.NodeName(s) == "textarea" {
			fields.Set(name, s.Text())
		} else {
			fields.Set(name, s.AttrOr("value", ""))
		}
	})
	return form.AttrOr("action", ""), fields
}

// People: listed newest first, searched by name or e-mail and paged,
// reached from the nav; the edit form saves through area B's own update,
// comes back to its page with a notice, is audited as person.update, and
// the API shows the change; a refused form is shown again with 422 and a
// sentence per field, changing nothing.
func TestPeoplePage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		pat := b.apiRecord("/api/v1/users", map[string]any{"name": "Pat <b>Lee</b>", "email": "pat@example.com", "age": 30,
			"address": map[string]any{"street": "1 Main St", "city": "Springfield", "zip": "12345", "country": "US"}})
		b.apiRecord("/api/v1/users", map[string]any{"name": "Sam", "email": "sam@lee.example"})
		b.apiRecord("/api/v1/users", map[string]any{"name": "Kim", "email": "kim@example.com"})
		for i := range 55 {
			b.apiRecord("/api/v1/users", map[string]any{"name": "Filler " + strconv.Itoa(i), "email": "filler" + strconv.Itoa(i) + "@example.org"})
		}

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		a := br.get("/admin")
		if a.doc.Find(`nav a[href="/admin/people"]`).Length() != 1 || a.doc.Find(`nav a[href="/admin/products"]`).Length() != 1 {
			t.Errorf("the nav links neither people nor products: %.1500s", a.body)
		}
		a = br.get("/admin/people")
		wantPage(t, a, http.StatusOK)
		if n := a.doc.Find("#people tbody tr[id]").Length(); n != 50 {
			t.Errorf("first page: %d rows, want 50", n)
		}
		if got := a.text("#people tbody tr[id] td.name"); got != "Filler 54" {
			t.Errorf("first row: got %q, want the newest, Filler 54", got)
		}
		next := a.doc.Find(`a[rel="next"]`).AttrOr("href", "")
		a = br.get(next)
		wantPage(t, a, http.StatusOK)
		if got := cells(a, "#people tbody tr[id] td.name"); len(got) != 8 || got[5] != "Kim" || got[6] != "Sam" || got[7] != "Pat <b>Lee</b>" {
			t.Errorf("second page (%s): got %v", next, got)
		}
		a = br.get("/admin/people?q=LEE")
		wantPage(t, a, http.StatusOK)
		if got := cells(a, "#people tbody tr[id] td.name"); strings.Join(got, "|") != "Sam|Pat <b>Lee</b>" {
			t.Errorf("search by name or e-mail: got %v", got)
		}
		if a.doc.Find("#people b").Length() != 0 {
			t.Error("a name's markup became an element")
		}
		if got := a.doc.Find("#person-"+strconv.FormatInt(pat, 10)+" td.name a").AttrOr("href", ""); got != "/admin/people/"+strconv.FormatInt(pat, 10) {
			t.Errorf("row link: got %q", got)
		}
		wantPage(t, br.get("/admin/people?page=0"), http.StatusBadRequest)
		wantPage(t, br.get("/admin/people/999999"), http.StatusNotFound)

		page := "/admin/people/" + strconv.FormatInt(pat, 10)
		action, fields := editForm(t, br, page)
		if action != page+"/edit" || fields.Get("name") != "Pat <b>Lee</b>" || fields.Get("age") != "30" || fields.Get("city") != "Springfield" || fields.Get("version") == "" {
			t.Fatalf("the form is not filled in from the record: %s %v", action, fields)
		}
		before := b.apiRecordData("/api/v1/users", pat)

		// Refused: every broken field has its sentence, nothing changes.
		bad := url.Values{}
		for k, v := range fields {
			bad[k] = v
		}
		bad.Set("email", "not an address")
		bad.Set("age", "151")
		bad.Set("country", strings.Repeat("x", 256))
		a = br.submit(action, bad)
		wantPage(t, a, http.StatusUnprocessableEntity)
		want := []string{"Enter a valid e-mail address.", "The age must be at most 150.", "The country must be at most 255 characters long."}
		if got := cells(a, ".refusal"); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("refusals: got %q, want %q", got, want)
		}
		if got := a.doc.Find(`form#edit input[name="email"]`).AttrOr("value", ""); got != "not an address" {
			t.Errorf("the refused form lost what was sent: %q", got)
		}
		bad.Set("age", "old")
		a = br.submit(action, bad)
		wantPage(t, a, http.StatusUnprocessableEntity)
		if got := cells(a, ".refusal"); strings.Join(got, "|") != "The age must be a whole number.|Enter a valid e-mail address.|The country must be at most 255 characters long." {
			t.Errorf("an age that is no number: got %q", got)
		}
		taken := url.Values{}
		for k, v := range fields {
			taken[k] = v
		}
		taken.Set("email", "KIM@example.com")
		a = br.submit(action, taken)
		wantPage(t, a, http.StatusUnprocessableEntity)
		if got := cells(a, ".refusal"); strings.Join(got, "|") != "Another person already uses this e-mail address." {
			t.Errorf("a taken e-mail: got %q", got)
		}
		// A NUL, bytes that are no UTF-8 and 100 kB in a field are
		// refused as fields, never a fault.
		for _, v := range []string{"Pat\x00Lee", "Pat \xff\xfe", strings.Repeat("x", 100<<10)} {
			odd := url.Values{}
			for k, vs := range fields {
				odd[k] = vs
			}
			odd.Set("name", v)
			if a := br.submit(action, odd); a.status < 400 || a.status >= 500 {
				t.Errorf("a name of %d bytes with odd characters: got %d, want a refusal", len(v), a.status)
			}
		}
		if after := b.apiRecordData("/api/v1/users", pat); after["updated_at"] != before["updated_at"] || after["email"] != "pat@example.com" {
			t.Errorf("refused forms changed the record: %v", after)
		}

		// Saved: back to the page with its notice, audited, seen in the API.
		b.stack.Clock.Advance(time.Second)
		fields.Set("name", "Pat Lee")
		fields.Set("age", "")
		for _, line := range []string{"street", "city", "zip", "country"} {
			fields.Set(line, "")
		}
		wantRedirect(t, br.submit(action, fields), page)
		a = br.get(page)
		if got := a.text("#notice"); got != "The person was saved." {
			t.Errorf("notice: got %q", got)
		}
		if got := br.get(page).text("#notice"); got != "" {
			t.Errorf("the notice shows twice: %q", got)
		}
		after := b.apiRecordData("/api/v1/users", pat)
		if after["name"] != "Pat Lee" || after["email"] != "pat@example.com" || after["age"] != nil || after["address"] != nil {
			t.Errorf("the API after the edit: %v", after)
		}
		// A form filled in from the version just replaced changes nothing.
		b.stack.Clock.Advance(time.Second)
		fields.Set("name", "Stale")
		wantPage(t, br.submit(action, fields), http.StatusPreconditionFailed)
		if got := auditActions(br); strings.Join(got, " ") != "person.update admin.login" {
			t.Errorf("audit: got %v", got)
		}
	})
}

// Products: listed newest first, searched by name and paged; the edit
// form saves through area B's own update (the API's PUT), audited as
// product.update, back on its page with a notice; a refused form says
// why, field by field, with 422.
func TestProductsPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		pen := b.apiRecord("/api/v1/products", map[string]any{"name": "Fountain pen", "price": 19.99, "stock": 4, "sku": "PEN-1"})
		b.apiRecord("/api/v1/products", map[string]any{"name": "Ink", "price": 5, "sku": "INK-1"})
		b.apiRecord("/api/v1/products", map[string]any{"name": "Pen case", "price": 12.5})

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		a := br.get("/admin/products")
		wantPage(t, a, http.StatusOK)
		if got := cells(a, "#products tbody tr[id] td.name"); strings.Join(got, "|") != "Pen case|Ink|Fountain pen" {
			t.Errorf("newest first: got %v", got)
		}
		if got := cells(a, "#products tbody tr[id] td.price"); strings.Join(got, "|") != "12.50|5.00|19.99" {
			t.Errorf("prices: got %v", got)
		}
		a = br.get("/admin/products?q=PEN")
		if got := cells(a, "#products tbody tr[id] td.name"); strings.Join(got, "|") != "Pen case|Fountain pen" {
			t.Errorf("search by name: got %v", got)
		}
		if got := a.text("#products tbody tr[id] td.sku"); got != "" {
			t.Errorf("a product without a SKU shows %q", got)
		}

		page := "/admin/products/" + strconv.FormatInt(pen, 10)
		action, fields := editForm(t, br, page)
		if fields.Get("price") != "19.99" || fields.Get("stock") != "4" || fields.Get("sku") != "PEN-1" {
			t.Fatalf("the form is not filled in from the product: %v", fields)
		}
		for _, tc := range []struct {
			price, stock, sku string
			want              []string
		}{
			{"-1", "-2", "", []string{"The price must be at least 0.", "The stock must be at least 0."}},
			{"1.999", "x", "", []string{"The price takes at most two decimals.", "The stock must be a whole number."}},
			{"ten", "1", "", []string{"The price must be a number."}},
			{"1", "1", "INK-1", []string{"Another product already uses this SKU."}},
		} {
			bad := url.Values{}
			for k, v := range fields {
				bad[k] = v
			}
			bad.Set("price", tc.price)
			bad.Set("stock", tc.stock)
			bad.Set("sku", tc.sku)
			a = br.submit(action, bad)
			wantPage(t, a, http.StatusUnprocessableEntity)
			if got := cells(a, ".refusal"); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("price %q, stock %q, sku %q: got %q, want %q", tc.price, tc.stock, tc.sku, got, tc.want)
			}
			if got := a.doc.Find(`form#edit input[name="price"]`).AttrOr("value", ""); got != tc.price {
				t.Errorf("the refused form lost the price sent: %q", got)
			}
		}
		if got := b.apiRecordData("/api/v1/products", pen); got["price"] != 19.99 || got["name"] != "Fountain pen" {
			t.Errorf("refused forms changed the product: %v", got)
		}

		fields.Set("name", "Fountain pen, gold nib")
		fields.Set("price", "45.5")
		fields.Set("stock", "2")
		fields.Set("sku", "")
		fields.Set("description", "Refillable.")
		wantRedirect(t, br.submit(action, fields), page)
		if got := br.get(page).text("#notice"); got != "The product was saved." {
			t.Errorf("notice: got %q", got)
		}
		got := b.apiRecordData("/api/v1/products", pen)
		if got["name"] != "Fountain pen, gold nib" || got["price"] != 45.5 || got["stock"] != float64(2) || got["sku"] != nil || got["description"] != "Refillable." {
			t.Errorf("the API after the edit: %v", got)
		}
		if got := auditActions(br); strings.Join(got, " ") != "product.update admin.login" {
			t.Errorf("audit: got %v", got)
		}
		// Area B's own API keeps its behaviour: anyone's PUT, unaudited.
		if status, out := b.api("PUT", "/api/v1/products/"+strconv.FormatInt(pen, 10), "", map[string]any{"name": "Pen", "price": 1}); status != http.StatusOK {
			t.Errorf("the API's PUT: %d %v", status, out)
		}
		if got := auditActions(br); strings.Join(got, " ") != "product.update admin.login" {
			t.Errorf("audit after the API's PUT: got %v", got)
		}
	})
}

// The webhook page shows the webhook's URL, events and owner, linking to
// the owner's page, and its deliveries with status, attempts, last error
// and time; disable, enable and retry come back to it.
func TestWebhookPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		ctx := t.Context()
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, bobToken := b.register("Bob", "bob@example.com")
		status, out := b.api("POST", "/api/v1/webhooks", bobToken, map[string]any{"url": "http://127.0.0.1:1/hook", "events": []string{"post.created", "post.deleted"}})
		if status != http.StatusCreated {
			t.Fatalf("create webhook: %d %v", status, out)
		}
		hookID := strconv.FormatInt(int64(out["data"].(map[string]any)["id"].(float64)), 10)
		b.post(bobToken, "Announced", "published")
		if _, err := b.stack.Webhooks.FanOut(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := b.stack.Webhooks.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		page := "/admin/webhooks/" + hookID
		a := br.get(page)
		wantPage(t, a, http.StatusOK)
		if got := a.text("#url"); got != "http://127.0.0.1:1/hook" {
			t.Errorf("URL: got %q", got)
		}
		if got := a.text("#events"); got != "post.created, post.deleted" {
			t.Errorf("events: got %q", got)
		}
		owner := a.doc.Find("#owner a")
		if strings.TrimSpace(owner.Text()) != "bob@example.com" || owner.AttrOr("href", "") != "/admin/users/"+strconv.FormatInt(bobID, 10) {
			t.Errorf("owner: got %q linking to %q", owner.Text(), owner.AttrOr("href", ""))
		}
		if secret, _ := out["secret"].(string); secret == "" || strings.Contains(a.body, secret) {
			t.Error("the page shows the webhook's secret")
		}
		row := a.doc.Find("#deliveries tbody tr[id]")
		if row.Length() != 1 || strings.TrimSpace(row.Find("td.status").Text()) != "failed" || strings.TrimSpace(row.Find("td.attempts").Text()) != "1" ||
			strings.TrimSpace(row.Find("td.error").Text()) == "" || strings.TrimSpace(row.Find("td.time").Text()) == "" {
			t.Fatalf("deliveries: %.2000s", a.body)
		}
		if !strings.HasPrefix(a.text("#state"), "disabled") {
			t.Errorf("state: got %q, want disabled after the failure", a.text("#state"))
		}

		submit := func(sel string) answer {
			t.Helper()
			a := br.get(page)
			form := a.doc.Find(sel)
			if form.Length() != 1 {
				t.Fatalf("no form %s: %.2000s", sel, a.body)
			}
			return br.submit(form.AttrOr("action", ""), url.Values{"back": {form.Find(`input[name="back"]`).AttrOr("value", "")}})
		}
		wantRedirect(t, submit("form#enable"), page)
		if a = br.get(page); a.text("#notice") != "The webhook was enabled." || a.text("#state") != "enabled" {
			t.Errorf("after enable: notice %q, state %q", a.text("#notice"), a.text("#state"))
		}
		wantRedirect(t, submit("form#disable"), page)
		wantRedirect(t, submit("#deliveries form.retry"), page)
		if a = br.get(page); a.text("#deliveries td.status") != "pending" {
			t.Errorf("after retry: %q", a.text("#deliveries td.status"))
		}
		wantPage(t, br.get("/admin/webhooks/999999"), http.StatusNotFound)
	})
}
