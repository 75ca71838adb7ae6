// Package web holds the transport mechanics that Inkwell's driving adapters
// over HTTP share (the JSON API and the admin console): who the client is
// behind trusted proxies, which origin a request came to, the CSRF token
// comparison and same-origin check, and the table from an error's kind to
// an HTTP status. It holds no rule of the service and no wording: each
// adapter words its own answers.
package web

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Proxies are the networks of the reverse proxies whose X-Forwarded-For,
// -Proto and -Host headers are believed (TRUSTED_PROXIES). Anybody can send
// those headers, so from any other peer they are ignored, and even a trusted
// proxy's values are used only when they are well formed: they end up in
// the links the service hands out.
type Proxies []netip.Prefix

// ProxyList renders networks as Fiber's TrustedProxies takes them.
func ProxyList(networks []netip.Prefix) []string {
	list := make([]string, len(networks))
	for i, n := range networks {
		list[i] = n.String()
	}
	return list
}

// trusts reports whether a is the address of a trusted proxy.
func (p Proxies) trusts(a netip.Addr) bool {
	for _, n := range p {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// peer is the address at the other end of the request's connection.
func peer(c *fiber.Ctx) netip.Addr {
	a, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	return a.Unmap()
}

// ClientIP is the address of the client, as the login throttle counts it:
// the peer's, or, when the peer is a trusted proxy, the nearest address in
// X-Forwarded-For that is not a trusted proxy's. X-Forwarded-For is read
// from the right because each proxy appends the address it saw: the entries
// left of the first untrusted one were written by that client, which could
// have written anything there.
func (p Proxies) ClientIP(c *fiber.Ctx) string {
	addr := peer(c)
	if !p.trusts(addr) {
		return addr.String()
	}
	hops := forwarded(c, fiber.HeaderXForwardedFor)
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(hops[i])
		if err != nil {
			// Whatever a trusted proxy could not vouch for stops the walk
			// at the last address it could.
			break
		}
		addr = hop.Unmap()
		if !p.trusts(addr) {
			break
		}
	}
	return addr.String()
}

// Origin is the scheme and host the request came to, for absolute links:
// the connection's own scheme and Host header, or the X-Forwarded-Proto and
// X-Forwarded-Host of a trusted proxy. A forwarded scheme must be http or
// https, and a forwarded host a host name or IP address with an optional
// port; anything else is ignored, so that no header can turn the service's
// links into javascript: URLs or point them at a host with a path.
func (p Proxies) Origin(c *fiber.Ctx) string {
	scheme, host := "http", string(c.Request().Host())
	if c.Context().IsTLS() {
		scheme = "https"
	}
	if p.trusts(peer(c)) {
		if s := strings.ToLower(last(forwarded(c, fiber.HeaderXForwardedProto))); s == "http" || s == "https" {
			scheme = s
		}
		if h := last(forwarded(c, fiber.HeaderXForwardedHost)); validHost(h) {
			host = h
		}
	}
	return scheme + "://" + host
}

// forwarded returns the comma-separated values of every line of header name,
// trimmed, in the order they were added.
func forwarded(c *fiber.Ctx, name string) []string {
	var values []string
	for _, line := range c.Request().Header.PeekAll(name) {
		for v := range strings.SplitSeq(string(line), ",") {
			values = append(values, strings.TrimSpace(v))
		}
	}
	return values
}

// last is the value the nearest proxy added, the one a trusted proxy
// vouches for; "" when there is none.
func last(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[len(values)-1]
}

// validHost reports whether h is what a Host header may hold: a host name,
// an IPv4 address or a bracketed IPv6 address, with an optional port.
func validHost(h string) bool {
	name, port, hasPort := h, "", false
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		name, port, hasPort = h[:i], h[i+1:], true
	}
	if hasPort && !validPort(port) {
		return false
	}
	if inner, ok := strings.CutPrefix(name, "["); ok {
		inner, ok = strings.CutSuffix(inner, "]")
		a, err := netip.ParseAddr(inner)
		return ok && err == nil && a.Is6() && a.Zone() == ""
	}
	return validHostName(name)
}

// validPort reports whether p is a port number, 1 to 65535, in digits only.
func validPort(p string) bool {
	if p == "" || len(p) > 5 || strings.Trim(p, "0123456789") != "" {
		return false
	}
	n, _ := strconv.Atoi(p)
	return n >= 1 && n <= 65535
}

// validHostName reports whether name is a DNS host name (RFC 1123): dot-
// separated labels of letters, digits and inner hyphens. IPv4 addresses are
// such names too.
func validHostName(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}
