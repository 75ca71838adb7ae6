// Package webhooks sends webhook deliveries over HTTP: signed as Standard
// Webhooks asks, with a timeout per attempt, and refusing, when the dial
// happens, addresses a public service must not be made to call.
package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Config holds the sender's settings.
type Config struct {
	// AllowPrivate lets webhooks call loopback, private, link-local and
	// other non-public addresses (WEBHOOKS_ALLOW_PRIVATE): for tests and
	// for services on one private network.
	AllowPrivate bool
	// Timeout bounds each attempt, connection included; 10 seconds when
	// zero.
	Timeout time.Duration
}

// Render turns an event into the body a delivery carries: the HTTP
// adapter's representation, the same the event stream sends.
type Render func(domain.Event) ([]byte, error)

// Sender implements ports.WebhookSender.
type Sender struct {
	client *http.Client
	render Render
	cfg    Config
}

var _ ports.WebhookSender = (*Sender)(nil)

// New returns a sender that renders bodies with render.
func New(cfg Config, render Render) *Sender {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout}
	if !cfg.AllowPrivate {
		// The check runs on the address actually dialled, after DNS
		// resolution, for every connection: redirects and a name that
		// resolves to a public address when checked and to a private one
		// when used are refused alike.
		dialer.Control = refusePrivate
	}
	transport := &http.Transport{
		// A proxy would dial the target itself, past the check.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	client := &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("too many redirects")
			}
			return nil
		},
	}
	return &Sender{client: client, render: render, cfg: cfg}
}

// errPrivate is the refusal of a non-public address.
var errPrivate = errors.New("the address is not public (WEBHOOKS_ALLOW_PRIVATE)")

func refusePrivate(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	if !public(ip) {
		return fmt.Errorf("dial %s: %w", ip, errPrivate)
	}
	return nil
}

// public reports whether ip is an address on the public internet.
func public(ip netip.Addr) bool {
	ip = ip.Unmap()
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() ||
		sharedAddressSpace.Contains(ip))
}

// sharedAddressSpace is carrier-grade NAT's 100.64.0.0/10, which
// IsPrivate leaves out but which is no more public.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// Allowed implements ports.WebhookSender: an absolute http or https URL
// with a host, and, unless private addresses are allowed, no host that
// names a non-public address literally or is localhost. Names are checked
// again, resolved, when dialled.
func (s *Sender) Allowed(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return false
	}
	if s.cfg.AllowPrivate {
		return true
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return public(ip)
	}
	return true
}

// Send implements ports.WebhookSender.
func (s *Sender) Send(ctx context.Context, w domain.Webhook, d domain.Delivery) (int, error) {
	if !s.Allowed(w.URL) {
		return 0, domain.ErrWebhookURL
	}
	body, err := s.render(d.Event)
	if err != nil {
		return 0, fmt.Errorf("render event %d: %w", d.Event.ID, err)
	}
	id := "msg_" + strconv.FormatInt(d.ID, 10)
	timestamp := time.Now().Unix()
	signature, err := Sign(w.Secret, id, timestamp, body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Inkwell-Webhooks")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(timestamp, 10))
	req.Header.Set("webhook-signature", signature)
	resp, err := s.client.Do(req)
	if err != nil {
		if errors.Is(err, errPrivate) {
			return 0, errPrivate
		}
		return 0, fmt.Errorf("post: %w", unwrapURLError(err))
	}
	defer resp.Body.Close()
	// Reading a little of the body lets the connection be reused; a
	// receiver's long answer is not waited for.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// unwrapURLError drops the method and URL that net/http puts around an
// error: the URL is the webhook's own, which its owner knows.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Sign returns the webhook-signature header of a message: "v1," and the
// base64 of the HMAC-SHA256, keyed with the secret's base64-decoded bytes,
// of "id.timestamp.body".
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, domain.WebhookSecretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhook secret: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, timestamp)
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
