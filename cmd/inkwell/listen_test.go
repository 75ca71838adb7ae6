package main

import (
	"net"
	"net/netip"
	"path/filepath"
	"testing"
)

// hasIPv6Loopback reports whether the machine can listen on ::1.
func hasIPv6Loopback() bool {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// outsideAddr returns an address of the machine that is not loopback, if it
// has one.
func outsideAddr() (string, bool) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return "", false
	}
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr().Is4() && !p.Addr().IsLoopback() {
			return p.Addr().String(), true
		}
	}
	return "", false
}

// TestListen serves with each HOST setting and dials the addresses the
// server must answer on, and those it must not.
func TestListen(t *testing.T) {
	v6 := hasIPv6Loopback()
	outside, hasOutside := outsideAddr()
	for _, tc := range []struct {
		name    string
		env     map[string]string
		first   string   // where the server is awaited
		answers []string // where it must answer, beside first
		refuses []string // where it must not
		needsV6 bool     // whether the case needs IPv6 loopback
		outside bool     // whether it must answer on an address not loopback
	}{
		{"development default", map[string]string{"APP_ENV": "development"}, "127.0.0.1", []string{"::1"}, nil, false, false},
		{"production default", map[string]string{"APP_ENV": "production"}, "127.0.0.1", []string{"::1"}, nil, false, true},
		{"IPv4 loopback", map[string]string{"HOST": "127.0.0.1"}, "127.0.0.1", nil, []string{"::1"}, false, false},
		{"IPv6 loopback", map[string]string{"HOST": "::1"}, "::1", nil, []string{"127.0.0.1"}, true, false},
		{"IPv6 loopback in brackets", map[string]string{"HOST": "[::1]"}, "::1", nil, []string{"127.0.0.1"}, true, false},
		{"every IPv4 interface", map[string]string{"HOST": "0.0.0.0"}, "127.0.0.1", nil, []string{"::1"}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needsV6 && !v6 {
				t.Skip("the machine has no IPv6 loopback")
			}
			t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			port, stop := serveAt(t, tc.first)
			check := func(host string, want bool) {
				if host == "::1" && !v6 {
					return
				}
				if got := answers(host, port); got != want {
					t.Errorf("answers on %s: got %v, want %v", host, got, want)
				}
			}
			for _, h := range tc.answers {
				check(h, true)
			}
			for _, h := range tc.refuses {
				check(h, false)
			}
			if hasOutside {
				check(outside, tc.outside)
			}
			stop()
			// The shutdown closes every listener.
			check(tc.first, false)
			for _, h := range tc.answers {
				check(h, false)
			}
		})
	}
}

// TestBrowseURL checks the URL serve's start line gives for each kind of
// listener: its own address, or loopback of its family for every interface.
func TestBrowseURL(t *testing.T) {
	for _, tc := range []struct {
		network string
		addr    *net.TCPAddr
		want    string
	}{
		{"tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3000}, "http://127.0.0.1:3000"},
		{"tcp6", &net.TCPAddr{IP: net.IPv6loopback, Port: 3000}, "http://[::1]:3000"},
		{"tcp4", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://127.0.0.1:8080"},
		{"tcp", &net.TCPAddr{IP: net.IPv6unspecified, Port: 3000}, "http://127.0.0.1:3000"},
		{"tcp6", &net.TCPAddr{IP: net.IPv6unspecified, Port: 3000}, "http://[::1]:3000"},
		{"tcp4", &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 3000}, "http://10.0.0.5:3000"},
	} {
		if got := browseURL(listenAddr{network: tc.network}, tc.addr); got != tc.want {
			t.Errorf("%s %s: got %s, want %s", tc.network, tc.addr, got, tc.want)
		}
	}
}
