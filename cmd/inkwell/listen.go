package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
)

// A listenAddr is one address serve listens on.
type listenAddr struct {
	network string // tcp4 or tcp6 for one address, tcp for every interface
	host    string // an IP address, or empty for every interface
	// optional is true for an address the machine may lack, which is then
	// skipped: IPv6 loopback, where IPv6 is turned off.
	optional bool
}

// listenAddrs returns where serve listens: HOST alone when it is set;
// otherwise loopback in development, so that a laptop's development server
// is not reachable from the network it is on, and every interface in
// production, where a container's or a host's firewall decides.
func (e environment) listenAddrs() []listenAddr {
	if e.Host != "" {
		// check has parsed HOST already.
		ip, _ := parseHost(e.Host)
		network := "tcp6"
		if ip.Is4() {
			// tcp4 keeps 0.0.0.0 to IPv4: on "tcp", Go listens on both
			// families for it.
			network = "tcp4"
		}
		return []listenAddr{{network: network, host: ip.String()}}
	}
	if e.AppEnv == "development" {
		return []listenAddr{
			{network: "tcp4", host: "127.0.0.1"},
			{network: "tcp6", host: "::1", optional: true},
		}
	}
	return []listenAddr{{network: "tcp"}}
}

// parseHost reads HOST: an IPv4 or IPv6 address, the latter with or without
// brackets. An IPv4 address written as IPv6 (::ffff:10.0.0.1) is IPv4.
func parseHost(host string) (netip.Addr, error) {
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, err
	}
	return ip.Unmap(), nil
}

// listen opens a listener on port at each of addrs. Its errors name the
// setting to change, on one line.
func listen(addrs []listenAddr, port int, log *slog.Logger) ([]net.Listener, error) {
	var listeners []net.Listener
	for _, a := range addrs {
		ln, err := net.Listen(a.network, net.JoinHostPort(a.host, strconv.Itoa(port)))
		if err != nil && a.optional && familyUnavailable(err) {
			log.Info("not listening on "+a.host+": the machine has no such address", "err", err)
			continue
		}
		if err != nil {
			for _, ln := range listeners {
				_ = ln.Close()
			}
			return nil, listenError(a, port, err)
		}
		listeners = append(listeners, ln)
	}
	return listeners, nil
}

// familyUnavailable reports whether a listen failed because the machine
// lacks the address or its whole family, rather than because the port is
// taken.
func familyUnavailable(err error) bool {
	return errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT) ||
		errors.Is(err, syscall.EPROTONOSUPPORT)
}

func listenError(a listenAddr, port int, err error) error {
	on := ""
	if a.host != "" {
		on = " on " + a.host
	}
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("PORT %d: address already in use%s; choose another PORT or stop the process using it", port, on)
	case errors.Is(err, syscall.EACCES):
		return fmt.Errorf("PORT %d: permission denied%s; choose a PORT above 1023, or allow the binary to bind it (setcap cap_net_bind_service=+ep)", port, on)
	case familyUnavailable(err):
		return fmt.Errorf("HOST %s: this machine has no such address; use one of its addresses, or leave HOST empty", a.host)
	}
	return fmt.Errorf("HOST %q, PORT %d: %w", a.host, port, err)
}

// browseURL is the URL a browser on this machine opens to reach the
// listener at addr, opened for a: the loopback address of its family when
// it listens on every interface.
func browseURL(a listenAddr, addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	ip := tcp.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
		if a.network == "tcp6" {
			ip = net.IPv6loopback
		}
	}
	return "http://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}
