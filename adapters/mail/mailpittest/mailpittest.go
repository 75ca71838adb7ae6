// Package mailpittest runs a real mail server for tests: Mailpit, with both
// its SMTP and its HTTP listener on free loopback ports (by default it
// listens on every interface), over a database in a temporary folder, and
// reads what arrived through its HTTP API.
//
// The mailpit binary is looked up on PATH, then in $GOBIN and the bin folder
// of each GOPATH entry, where make services installs it. Without it the
// tests skip, unless REQUIRE_MAIL=1 (as CI sets), which makes them fail
// instead.
package mailpittest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/internal/logtest"
)

// Server is a Mailpit that a test may stop and start again, on the same
// ports and database, to play a mail server that is down.
type Server struct {
	// SMTPPort is where it takes mail; API is its HTTP base URL.
	SMTPPort int
	API      string

	tb     testing.TB
	bin    string
	args   []string
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	out    logtest.Buffer
}

// Start starts Mailpit for tb, with chaos (Chaos) enabled, and stops it
// when tb ends. It skips tb when Mailpit is not installed (fails it under
// REQUIRE_MAIL=1).
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin, err := binary()
	if err != nil {
		if os.Getenv("REQUIRE_MAIL") == "1" {
			tb.Fatalf("mailpittest: REQUIRE_MAIL=1 but %v", err)
		}
		tb.Skipf("mailpittest: %v; run make services to run the mail tests", err)
	}
	smtpPort, httpPort := freePort(tb), freePort(tb)
	s := &Server{
		SMTPPort: smtpPort, API: "http://127.0.0.1:" + strconv.Itoa(httpPort), tb: tb, bin: bin,
		args: []string{
			"--smtp", "127.0.0.1:" + strconv.Itoa(smtpPort),
			"--listen", "127.0.0.1:" + strconv.Itoa(httpPort),
			"--database", filepath.Join(tb.TempDir(), "mailpit.db"),
			"--smtp-auth-accept-any", "--smtp-auth-allow-insecure",
			"--smtp-disable-rdns", "--disable-version-check", "--enable-chaos", "--quiet",
		},
	}
	s.Up()
	tb.Cleanup(s.Down)
	return s
}

// Up starts Mailpit, if it is down, and waits until it answers.
func (s *Server) Up() {
	s.tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	cmd := exec.Command(s.bin, s.args...)
	cmd.Stdout, cmd.Stderr = &s.out, &s.out
	if err := cmd.Start(); err != nil {
		s.tb.Fatalf("mailpittest: start %s: %v", s.bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.cmd, s.exited = cmd, exited
	if err := waitUntilUp(s.API, s.SMTPPort, exited); err != nil {
		s.tb.Fatalf("mailpittest: Mailpit on %s: %v; its output:\n%s", s.API, err, s.out.String())
	}
}

// Down stops Mailpit, if it runs: its SMTP port then refuses connections.
func (s *Server) Down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
}

// Config is the settings of an SMTP mailer that sends to this server.
func (s *Server) Config() mail.Config {
	return mail.Config{
		Mailer: mail.MailerSMTP, Host: "127.0.0.1", Port: s.SMTPPort, Scheme: mail.SchemeSMTP,
		FromAddress: "noreply@inkwell.test", FromName: "Inkwell", AppName: "Inkwell", Timeout: 5 * time.Second,
	}
}

// Address is one address of a message.
type Address struct {
	Name    string
	Address string
}

// Message is a message as Mailpit's API gives it.
type Message struct {
	ID        string
	MessageID string
	From      Address
	To        []Address
	Subject   string
	Text      string
	HTML      string
}

// Messages returns every message that arrived, oldest first, with its
// parts.
func (s *Server) Messages() []Message {
	s.tb.Helper()
	var list struct {
		Messages []Message `json:"messages"`
	}
	s.call("GET", "/api/v1/messages?limit=1000", nil, &list)
	out := make([]Message, 0, len(list.Messages))
	for i := len(list.Messages) - 1; i >= 0; i-- { // the API lists newest first
		var m Message
		s.call("GET", "/api/v1/message/"+list.Messages[i].ID, nil, &m)
		out = append(out, m)
	}
	return out
}

// WaitFor waits up to timeout until at least n messages have arrived and
// returns them all.
func (s *Server) WaitFor(n int, timeout time.Duration) []Message {
	s.tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := s.Messages()
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Trigger is one of Mailpit's chaos triggers: the SMTP server answers
// ErrorCode at the step it names with Probability percent.
type Trigger struct {
	ErrorCode   int
	Probability int
}

// Chaos sets Mailpit's chaos triggers; a zero Trigger turns its step's off.
func (s *Server) Chaos(sender, recipient Trigger) {
	s.tb.Helper()
	body := map[string]Trigger{"Sender": sender, "Recipient": recipient}
	s.call("PUT", "/api/v1/chaos", body, nil)
}

func (s *Server) call(method, path string, body, out any) {
	s.tb.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.tb.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.API+path, r)
	if err != nil {
		s.tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		s.tb.Fatalf("mailpittest: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		s.tb.Fatalf("mailpittest: %s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			s.tb.Fatalf("mailpittest: %s %s: %v: %s", method, path, err, raw)
		}
	}
}

// binary finds mailpit on PATH or where go install puts it.
func binary() (string, error) {
	if p, err := exec.LookPath("mailpit"); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	gopath := filepath.SplitList(os.Getenv("GOPATH"))
	if len(gopath) == 0 {
		if home, err := os.UserHomeDir(); err == nil {
			gopath = []string{filepath.Join(home, "go")}
		}
	}
	for _, p := range gopath {
		dirs = append(dirs, filepath.Join(p, "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "mailpit")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("mailpit is neither on PATH nor in a Go bin folder")
}

// freePort asks the kernel for a free loopback port. Another process could
// take it before Mailpit binds it; the start then fails with Mailpit's own
// message.
func freePort(tb testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("mailpittest: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitUntilUp waits until both the API and the SMTP port answer.
func waitUntilUp(api string, smtpPort int, exited <-chan struct{}) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := client.Get(api + "/api/v1/info")
		if err == nil {
			resp.Body.Close()
			var conn net.Conn
			if conn, err = net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(smtpPort), time.Second); err == nil {
				conn.Close()
				return nil
			}
		}
		select {
		case <-exited:
			return errors.New("exited before answering")
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within 20 seconds: %v", err)
		}
	}
}
