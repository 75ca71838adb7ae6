package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/domain"
)

var secret = domain.WebhookSecretOf([]byte("a key of twenty-four b.."))

func render(e domain.Event) ([]byte, error) {
	return []byte(`{"type":"` + string(e.Type) + `"}`), nil
}

func delivery() domain.Delivery {
	return domain.Delivery{ID: 42, Event: domain.Event{ID: 7, Type: domain.PostCreated}}
}

// TestSendSigns checks the Standard Webhooks headers with an HMAC computed
// here, from the secret's decoded key.
func TestSendSigns(t *testing.T) {
	type received struct {
		header http.Header
		body   []byte
	}
	got := make(chan received, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- received{r.Header.Clone(), body}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	s := webhooks.New(webhooks.Config{AllowPrivate: true}, render)
	status, err := s.Send(context.Background(), domain.Webhook{URL: srv.URL, Secret: secret}, delivery())
	if err != nil || status != http.StatusNoContent {
		t.Fatalf("Send: %d, %v; want 204, no error", status, err)
	}
	r := <-got
	if r.header.Get("webhook-id") != "msg_42" {
		t.Errorf("webhook-id %q, want msg_42", r.header.Get("webhook-id"))
	}
	ts, err := strconv.ParseInt(r.header.Get("webhook-timestamp"), 10, 64)
	if err != nil || time.Since(time.Unix(ts, 0)).Abs() > time.Minute {
		t.Errorf("webhook-timestamp %q, want the time now", r.header.Get("webhook-timestamp"))
	}
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(r.header.Get("webhook-id") + "." + r.header.Get("webhook-timestamp") + "." + string(r.body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if r.header.Get("webhook-signature") != want {
		t.Errorf("webhook-signature %q, want %q", r.header.Get("webhook-signature"), want)
	}
	if string(r.body) != `{"type":"post.created"}` || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("body %s (%s), want the rendered event as JSON", r.body, r.header.Get("Content-Type"))
	}
}

func TestSendFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(time.Second)
		}
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	s := webhooks.New(webhooks.Config{AllowPrivate: true, Timeout: 200 * time.Millisecond}, render)
	status, err := s.Send(context.Background(), domain.Webhook{URL: srv.URL, Secret: secret}, delivery())
	if status != 500 || err == nil {
		t.Errorf("a 500: got %d, %v; want 500 and an error", status, err)
	}
	status, err = s.Send(context.Background(), domain.Webhook{URL: srv.URL + "/slow", Secret: secret}, delivery())
	if status != 0 || err == nil {
		t.Errorf("a receiver slower than the timeout: got %d, %v; want 0 and an error", status, err)
	}
}

// TestPrivateAddressesRefused checks the guard on loopback: named
// literally, it is refused before any request; named through a host name,
// it is refused when dialled; reached through a redirect, too.
func TestPrivateAddressesRefused(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	s := webhooks.New(webhooks.Config{}, render)
	for _, url := range []string{srv.URL, "http://[::1]:" + port, "http://localhost:" + port, "http://0.0.0.0:" + port, "http://10.1.2.3/", "http://169.254.169.254/latest", "ftp://example.com/", "http://user:pw@example.com/"} {
		if s.Allowed(url) {
			t.Errorf("Allowed(%q) = true, want false", url)
		}
	}
	if !s.Allowed("https://example.com/hook") || !s.Allowed("http://93.184.215.14:8080/") {
		t.Error("public URLs refused")
	}
	// The machine's own name is no literal address and not "localhost",
	// so only the dial-time check stands between it and loopback.
	if host := loopbackName(t); host != "" {
		url := "http://" + host + ":" + port + "/"
		if !s.Allowed(url) {
			t.Fatalf("Allowed(%q) = false, want the name left to the dial-time check", url)
		}
		status, err := s.Send(context.Background(), domain.Webhook{URL: url, Secret: secret}, delivery())
		if err == nil || status != 0 || !strings.Contains(err.Error(), "not public") {
			t.Errorf("%s through the guard: got %d, %v; want it refused as not public", host, status, err)
		}
	}
	_, err := s.Send(context.Background(), domain.Webhook{URL: srv.URL, Secret: secret}, delivery())
	if !errors.Is(err, domain.ErrWebhookURL) {
		t.Errorf("a loopback URL: got %v, want domain.ErrWebhookURL", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback receiver got %d requests, want none", n)
	}
}

// loopbackName returns a host name, other than localhost, that resolves to
// loopback here (the machine's own name usually does, in /etc/hosts), or
// "" after logging that the dial-time check goes untested.
func loopbackName(t *testing.T) string {
	host, err := os.Hostname()
	if err == nil {
		addrs, err := net.LookupHost(host)
		if err == nil && len(addrs) > 0 && net.ParseIP(addrs[0]).IsLoopback() {
			return host
		}
	}
	t.Log("no host name resolves to loopback here; the dial-time check goes untested")
	return ""
}

// TestSpecialPurposeAddresses holds the creation check and the dial-time
// guard to one reading of IANA's special-purpose registries: every address
// here is refused by both, or accepted by both.
func TestSpecialPurposeAddresses(t *testing.T) {
	s := webhooks.New(webhooks.Config{}, render)
	for _, tc := range []struct {
		ip     string
		public bool
	}{
		{"0.0.0.0", false}, {"0.1.2.3", false}, {"10.0.0.1", false}, {"100.64.0.1", false},
		{"127.0.0.1", false}, {"127.255.255.254", false}, {"169.254.169.254", false}, {"172.16.0.1", false},
		{"192.0.0.1", false}, {"192.0.0.170", false}, {"192.0.2.1", false}, {"192.88.99.1", false},
		{"192.168.1.1", false}, {"198.18.0.1", false}, {"198.19.255.255", false}, {"198.51.100.7", false},
		{"203.0.113.9", false}, {"224.0.0.1", false}, {"240.0.0.1", false}, {"255.255.255.255", false},
		{"::", false}, {"::1", false}, {"::127.0.0.1", false}, {"::8.8.8.8", false}, {"::ffff:10.0.0.1", false},
		{"::ffff:127.0.0.1", false}, {"64:ff9b::a00:1", false}, {"64:ff9b::7f00:1", false},
		{"64:ff9b:1::808:808", false}, {"100::1", false}, {"100:0:0:1::1", false}, {"2001::1", false},
		{"2001:2::1", false}, {"2001:db8::1", false}, {"2002:a00:1::1", false}, {"3fff::1", false},
		{"5f00::1", false}, {"fc00::1", false}, {"fd12:3456::1", false}, {"fe80::1", false},
		{"fe80::1%eth0", false}, {"fec0::1", false}, {"ff02::1", false},
		// Public: IPv4 just outside the blocks, mapped and translated
		// forms of it, and global IPv6.
		{"8.8.8.8", true}, {"1.1.1.1", true}, {"93.184.215.14", true}, {"100.63.255.255", true},
		{"100.128.0.0", true}, {"172.32.0.1", true}, {"192.0.1.1", true}, {"198.17.255.255", true},
		{"198.20.0.1", true}, {"223.255.255.254", true}, {"::ffff:8.8.8.8", true}, {"64:ff9b::808:808", true},
		{"2606:4700:4700::1111", true}, {"2a00:1450:4001::1", true},
	} {
		t.Run(tc.ip, func(t *testing.T) {
			host := tc.ip
			if strings.Contains(host, ":") {
				host = "[" + strings.Replace(host, "%", "%25", 1) + "]"
			}
			if got := s.Allowed("https://" + host + "/hook"); got != tc.public {
				t.Errorf("Allowed: got %v, want %v", got, tc.public)
			}
			err := webhooks.DialGuard("tcp", net.JoinHostPort(tc.ip, "443"), nil)
			if got := err == nil; got != tc.public {
				t.Errorf("dial guard: got %v, want public %v", err, tc.public)
			}
		})
	}
}

// TestWebhookURLs checks the rest of the creation check: the scheme, the
// port, and the host in every spelling that reaches loopback, with and
// without WEBHOOKS_ALLOW_PRIVATE.
func TestWebhookURLs(t *testing.T) {
	strict := webhooks.New(webhooks.Config{}, render)
	private := webhooks.New(webhooks.Config{AllowPrivate: true}, render)
	for _, tc := range []struct {
		url             string
		strict, private bool
	}{
		{"https://example.com/hook", true, true},
		{"https://EXAMPLE.com./hook", true, true},
		{"https://bücher.example/hook", true, true},
		{"http://example.com:1/", true, true},
		{"http://example.com:65535/", true, true},
		{"http://example.com:0/", false, false},
		{"http://example.com:65536/", false, false},
		{"http://example.com:99999/", false, false},
		{"ftp://example.com/", false, false},
		{"http://user:pw@example.com/", false, false},
		{"http:///path", false, false},
		{"http://localhost/", false, true},
		{"http://LocalHost./", false, true},
		{"http://api.localhost/", false, true},
		{"http://１２７.０.０.１/", false, true},
		{"http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", false, true},
		{"http://ＬＯＣＡＬＨＯＳＴ:8080/", false, true},
		{"http://2130706433/", false, true},
		{"http://0x7f.1/", false, true},
		{"http://127.1/", false, true},
		{"http://[64:ff9b::a00:1]/", false, true},
		{"http://10.0.0.1:8080/", false, true},
	} {
		if got := strict.Allowed(tc.url); got != tc.strict {
			t.Errorf("Allowed(%q): got %v, want %v", tc.url, got, tc.strict)
		}
		if got := private.Allowed(tc.url); got != tc.private {
			t.Errorf("Allowed(%q) with WEBHOOKS_ALLOW_PRIVATE: got %v, want %v", tc.url, got, tc.private)
		}
	}
}

// TestFailureNamesNoAddress checks that what a webhook's owner reads of a
// failed request names no address of the service's network: the
// resolver's, the local end's, the one a name resolved to.
func TestFailureNamesNoAddress(t *testing.T) {
	target := &net.TCPAddr{IP: net.ParseIP("10.0.0.5"), Port: 443}
	local := &net.TCPAddr{IP: net.ParseIP("fd00::7"), Port: 51234}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Post", URL: "https://hooks.invalid/x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "hooks.invalid", Server: "10.0.0.2:53", IsNotFound: true}}}, "lookup hooks.invalid: no such host"},
		{&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "x.example", Server: "[fd00::53]:53", IsTemporary: true}}, "lookup x.example: the name could not be resolved"},
		{&net.OpError{Op: "dial", Net: "tcp", Addr: target, Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}, "connection refused"},
		{&net.OpError{Op: "read", Net: "tcp", Source: local, Addr: target, Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}, "connection reset"},
		{&net.OpError{Op: "dial", Net: "tcp", Addr: target, Err: errors.New("bind 10.0.0.9:0 and [fd00::7]:51234 and ::ffff:10.1.2.3 failed")}, "dial: bind an address and an address and an address failed"},
		{errors.New("proxyconnect tcp: 192.168.1.1:3128 refused"), "proxyconnect tcp: an address refused"},
	} {
		if got := webhooks.Failure(tc.err); got != tc.want {
			t.Errorf("Failure(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
