package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// healthcheckTimeout bounds inkwell healthcheck's request. It is longer
// than the store check of /readyz (two seconds), so that a slow store comes
// back as a 503 rather than as no answer.
const healthcheckTimeout = 5 * time.Second

var healthcheckCommand = &command{
	name:     "healthcheck",
	synopsis: "inkwell healthcheck [--url URL]",
	summary:  "exit 0 when the local server is ready, 1 when not",
	about: `Asks the server on this machine whether it is ready: GET /readyz on the
address HOST and PORT give (127.0.0.1 when HOST is empty or 0.0.0.0, ::1 when
it is ::), or on URL. It exits 0 when the answer is 200 and 1 otherwise, with
one line on standard error saying why: no server listening, no answer within
five seconds, or another status, such as 503 when the store is unreachable.
It opens no store, so it is the health check of a container image that has
no curl: HEALTHCHECK, a Kubernetes exec probe, Compose's healthcheck.`,
	store: storeNone,
	define: func(fs *flag.FlagSet) func() (action, error) {
		raw := fs.String("url", "", "check `URL` instead of /readyz on HOST and PORT")
		return func() (action, error) {
			if *raw == "" {
				return healthcheck(""), nil
			}
			u, err := url.Parse(*raw)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, fmt.Errorf("--url: %q is not an absolute http(s) URL", *raw)
			}
			return healthcheck(u.String()), nil
		}
	},
}

// healthcheck is the action of inkwell healthcheck: GET target, or /readyz
// on the configured listener when target is empty.
func healthcheck(target string) action {
	return func(ctx context.Context, cfg environment, _ *slog.Logger, out io.Writer) error {
		if target == "" {
			target = cfg.readyURL()
		}
		client := &http.Client{
			Timeout: healthcheckTimeout,
			// A redirect is not readiness: it is reported as its status.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return fmt.Errorf("healthcheck: %v", err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("healthcheck: %s: %s", target, requestFailure(err))
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("healthcheck: %s answered %s, want 200", target, resp.Status)
		}
		_, err = fmt.Fprintf(out, "%s answered %s\n", target, resp.Status)
		return err
	}
}

// readyURL is the URL of /readyz on the first address serve listens on,
// as seen from this machine: loopback when it listens on every interface.
func (e environment) readyURL() string {
	host := "127.0.0.1"
	if a := e.listenAddrs()[0]; a.host != "" {
		ip, _ := parseHost(a.host)
		switch {
		case ip.IsUnspecified() && ip.Is6():
			host = "::1"
		case !ip.IsUnspecified():
			host = ip.String()
		}
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(e.Port)) + "/readyz"
}

// requestFailure says in a few words why a request got no answer.
func requestFailure(err error) string {
	var timeout interface{ Timeout() bool }
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused; is inkwell serving there?"
	case errors.As(err, &timeout) && timeout.Timeout():
		return fmt.Sprintf("no answer within %s", healthcheckTimeout)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return err.Error()
}
