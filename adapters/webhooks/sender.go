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
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"

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

// refusePrivate is the dial-time guard: address is the IP address about to
// be dialled, after DNS resolution, and publicHost decides it as it decides
// a URL's host at creation.
func refusePrivate(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if !publicHost(host) {
		return fmt.Errorf("dial %s: %w", host, errPrivate)
	}
	return nil
}

// publicHost is the one rule, at creation and when dialling, for which hosts
// a webhook may call without WEBHOOKS_ALLOW_PRIVATE. host is lower-case
// ASCII (IDNA's lookup form) or an IP address: an address must be public;
// a name must not be localhost, nor an IPv4 address in a spelling that
// netip refuses and the C resolver accepts (2130706433, 0x7f.1), and is
// checked again, resolved, when dialled.
func publicHost(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return public(ip)
	}
	host = strings.TrimSuffix(host, ".")
	if host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	return !numericLabel(host[strings.LastIndexByte(host, '.')+1:])
}

// numericLabel reports whether a name's last label is a number (decimal,
// or hexadecimal after 0x): no top-level domain is, so the name can only
// be an IPv4 address as inet_aton spells it.
func numericLabel(label string) bool {
	if hex, ok := strings.CutPrefix(label, "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return label != "" && strings.Trim(label, "0123456789") == ""
}

// public reports whether ip is globally reachable: outside every block that
// IANA's IPv4 and IPv6 special-purpose address registries mark as not
// globally reachable, and outside multicast. IPv4-mapped and NAT64
// (64:ff9b::/96) addresses are decided by the IPv4 address they carry, so
// [64:ff9b::a00:1] is 10.0.0.1.
func public(ip netip.Addr) bool {
	ip = ip.WithZone("").Unmap()
	if nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte(b[12:]))
	}
	blocks := notGlobal6
	if ip.Is4() {
		blocks = notGlobal4
	}
	for _, p := range blocks {
		if p.Contains(ip) {
			return false
		}
	}
	return ip.IsValid()
}

// nat64 is the well-known prefix of IPv4/IPv6 translation (RFC 6052).
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// notGlobal4 are the IPv4 blocks that are not globally reachable, from
// https://www.iana.org/assignments/iana-ipv4-special-registry, with
// multicast. Whole blocks are refused even where the registry makes an
// exception for a few anycast addresses (192.0.0.9, 192.0.0.10), which no
// webhook receiver has.
var notGlobal4 = prefixes(
	"0.0.0.0/8",       // "this network"
	"10.0.0.0/8",      // private use
	"100.64.0.0/10",   // shared address space (carrier-grade NAT)
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link local
	"172.16.0.0/12",   // private use
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation (TEST-NET-1)
	"192.88.99.0/24",  // 6to4 relay anycast, deprecated
	"192.168.0.0/16",  // private use
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation (TEST-NET-2)
	"203.0.113.0/24",  // documentation (TEST-NET-3)
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, with the limited broadcast 255.255.255.255
)

// notGlobal6 are the IPv6 blocks that are not globally reachable, from
// https://www.iana.org/assignments/iana-ipv6-special-registry, with
// multicast and the deprecated site-local block. ::/96 holds the
// unspecified address, loopback and the deprecated IPv4-compatible
// addresses (::a.b.c.d), which no network routes; 2001::/23 and 2002::/16
// are refused whole, Teredo and 6to4 included, which tunnel to IPv4
// addresses this check would not see.
var notGlobal6 = prefixes(
	"::/96",          // unspecified, loopback, IPv4-compatible
	"64:ff9b:1::/48", // local-use IPv4/IPv6 translation
	"100::/64",       // discard-only
	"100:0:0:1::/64", // dummy prefix
	"2001::/23",      // IETF protocol assignments (Teredo, benchmarking, ORCHID)
	"2001:db8::/32",  // documentation
	"2002::/16",      // 6to4
	"3fff::/20",      // documentation
	"5f00::/16",      // segment routing SIDs
	"fc00::/7",       // unique local
	"fe80::/10",      // link local
	"fec0::/10",      // site local, deprecated
	"ff00::/8",       // multicast
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Allowed implements ports.WebhookSender: an absolute http or https URL
// with a host, no user information and a port, when given, from 1 to
// 65535; unless private addresses are allowed, a host that publicHost
// accepts once IDNA has mapped it to its lookup form, as net/http does
// before resolving it, so that fullwidth or circled spellings of loopback
// are refused here too. Names are checked again, resolved, when dialled.
func (s *Sender) Allowed(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return false
		}
	}
	host, err := lookupForm(u.Hostname())
	if err != nil {
		return false
	}
	return s.cfg.AllowPrivate || publicHost(host)
}

// lookupForm is host as net/http looks it up: lower-cased when it is
// ASCII, else mapped by IDNA's lookup profile, which turns "１２７.０.０.１"
// into 127.0.0.1 and "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ" into localhost.
func lookupForm(host string) (string, error) {
	for i := 0; i < len(host); i++ {
		if host[i] >= utf8.RuneSelf {
			return idna.Lookup.ToASCII(host)
		}
	}
	return strings.ToLower(host), nil
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
		return 0, errors.New(failure(err))
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

// failure words a request that got no answer for the webhook's owner,
// who reads it as last_error: what went wrong, never an address of the
// network the service runs in. Go's errors name them: the resolver's
// ("lookup x on 10.0.0.2:53: no such host"), the local end of a
// connection, the address a name resolved to. The URL, which net/http
// puts around the error, is the owner's own and goes too.
func failure(err error) string {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return "lookup " + dns.Name + ": no such host"
	case errors.As(err, &dns) && dns.IsTimeout:
		return "lookup " + dns.Name + ": timed out"
	case errors.As(err, &dns):
		return "lookup " + dns.Name + ": the name could not be resolved"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "host unreachable"
	case errors.Is(err, syscall.ENETUNREACH):
		return "network unreachable"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before an answer"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		// "dial tcp 10.0.0.5:443: connect: …": the operation and the
		// cause, without the addresses between them.
		return oe.Op + ": " + withoutAddresses(oe.Err.Error())
	}
	return withoutAddresses(err.Error())
}

// addressPattern matches IPv4 and IPv6 addresses, bracketed or not, with a
// port or not.
var addressPattern = regexp.MustCompile(`(?:\b\d{1,3}(?:\.\d{1,3}){3}\b|\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f.]{0,15}){2,7}\]?)(?::\d+)?`)

// withoutAddresses is msg with every IP address, and its port, left out.
func withoutAddresses(msg string) string {
	return addressPattern.ReplaceAllString(msg, "an address")
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
