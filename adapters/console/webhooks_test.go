package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// Webhooks, failing first: a webhook whose deliveries fail is listed
// disabled with its URL as text; enabling, disabling and retrying its
// delivery are seen in the API. A reset mail the console sends is on the
// mails page and can be retried. The audit log names each action.
func TestWebhooksAndMails(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		ctx := context.Background()
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, bobToken := b.register("Bob", "bob@example.com")
		hostile := "http://127.0.0.1:1/hook?x=<script>alert(1)</script>"
		status, out := b.api("POST", "/api/v1/webhooks", bobToken, map[string]any{"url": hostile, "events": []string{"post.created"}})
		if status != http.StatusCreated {
			t.Fatalf("create webhook: %d %v", status, out)
		}
		data, _ := out["data"].(map[string]any)
		hookID := strconv.FormatInt(int64(data["id"].(float64)), 10)
		healthy := "http://127.0.0.1:1/healthy"
		if status, out := b.api("POST", "/api/v1/webhooks", bobToken, map[string]any{"url": healthy, "events": []string{"post.deleted"}}); status != http.StatusCreated {
			t.Fatalf("create webhook: %d %v", status, out)
		}
		b.post(bobToken, "Announced", "published")
		if _, err := b.stack.Webhooks.FanOut(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := b.stack.Webhooks.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		enabled := func() bool {
			t.Helper()
			status, out := b.api("GET", "/api/v1/webhooks/"+hookID, bobToken, nil)
			d, _ := out["data"].(map[string]any)
			if status != http.StatusOK || d == nil {
				t.Fatalf("webhook: %d %v", status, out)
			}
			return d["enabled"] == true
		}
		if enabled() {
			t.Fatal("the failing webhook was not disabled")
		}

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		a := br.get("/admin/webhooks")
		wantPage(t, a, http.StatusOK)
		first := a.doc.Find("#webhooks tbody tr").First()
		if got := strings.TrimSpace(first.Find("td a").Text()); got != hostile {
			t.Errorf("first webhook: got %q, want the failing one %q", got, hostile)
		}
		if a.doc.Find("#webhooks script").Length() != 0 {
			t.Error("the URL's markup became a script element")
		}
		wantRedirect(t, br.submit("/admin/webhooks/"+hookID+"/enable", nil), "/admin/webhooks")
		if !enabled() {
			t.Error("enabled in the console, disabled in the API")
		}
		br.get("/admin/webhooks")
		wantRedirect(t, br.submit("/admin/webhooks/"+hookID+"/disable", nil), "/admin/webhooks")
		if enabled() {
			t.Error("disabled in the console, enabled in the API")
		}

		a = br.get("/admin/webhooks/" + hookID)
		wantPage(t, a, http.StatusOK)
		retry := a.doc.Find(`#deliveries form[action^="/admin/deliveries/"]`).First()
		action := retry.AttrOr("action", "")
		if action == "" {
			t.Fatalf("no delivery to retry: %.1500s", a.body)
		}
		wantRedirect(t, br.submit(action, url.Values{"back": {"/admin/webhooks/" + hookID}}), "/admin/webhooks/"+hookID)
		status, out = b.api("GET", "/api/v1/webhooks/"+hookID+"/deliveries", bobToken, nil)
		list, _ := out["data"].([]any)
		if status != http.StatusOK || len(list) != 1 || list[0].(map[string]any)["status"] != "pending" {
			t.Errorf("delivery after retry: %d %v", status, out)
		}

		user := "/admin/users/" + strconv.FormatInt(bobID, 10)
		br.get(user)
		wantRedirect(t, br.submit(user+"/send-reset", nil), user)
		a = br.get("/admin/mails")
		wantPage(t, a, http.StatusOK)
		row := a.doc.Find("#mails tbody tr").First()
		if !strings.Contains(row.Text(), "bob@example.com") {
			t.Fatalf("the reset mail is not listed: %.1500s", a.body)
		}
		mailRetry := row.Find("form").AttrOr("action", "")
		wantRedirect(t, br.submit(mailRetry, nil), "/admin/mails")
		if a = br.get("/admin/mails"); a.text("#notice") != "The mail will be sent again shortly." {
			t.Errorf("no notice after the mail retry: %.800s", a.body)
		}

		a = br.get("/admin/audit")
		var actions []string
		a.doc.Find("#audit tbody td.action").Each(func(_ int, s *goquery.Selection) { actions = append(actions, strings.TrimSpace(s.Text())) })
		want := "mail.retry user.send_reset delivery.retry webhook.disable webhook.enable admin.login"
		if strings.Join(actions, " ") != want {
			t.Errorf("audit: got %v, want %s", actions, want)
		}
	})
}
