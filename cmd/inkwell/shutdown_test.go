package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSIGTERMDrainsRequestsInFlight sends SIGTERM to the test process while a
// registration is half uploaded, as a slow client sends it. The server must
// stop accepting connections, yet read the rest of the body, run the request
// and answer it before run returns. serve's signal handler catches the
// signal, and restores the default handling when it returns.
func TestSIGTERMDrainsRequestsInFlight(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	t.Setenv("BCRYPT_COST", "4")
	base, stop := serveFor(t)
	addr := strings.TrimPrefix(base, "http://")

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"name":"Ann","email":"ann@example.com","password":"password1","password_confirmation":"password1"}`
	head := fmt.Sprintf("POST /api/v1/register HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: %d\r\n\r\n", addr, len(body))
	half := len(body) / 2
	if _, err := conn.Write([]byte(head + body[:half])); err != nil {
		t.Fatal(err)
	}
	// Give the server a moment to start reading the request.
	time.Sleep(100 * time.Millisecond)

	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The listener closes first: new connections are refused while the
	// request above is still in flight.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections 5 s after SIGTERM")
		}
		time.Sleep(20 * time.Millisecond)
	}

	if _, err := conn.Write([]byte(body[half:])); err != nil {
		t.Fatalf("finish the upload after SIGTERM: %v", err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read the answer to the request in flight: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("request in flight: got %d, want 201", resp.StatusCode)
	}

	// run returns once the request in flight is answered; stop collects its
	// result.
	returned := make(chan struct{})
	go func() { stop(); close(returned) }()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after draining")
	}
}

// TestSIGTERMEndsEventStreams sends SIGTERM while an event stream is open.
// The stream's connection left fasthttp, whose shutdown does not see it:
// the server must still end it, with the last chunk of its body, so that
// the client reads a complete response and resumes elsewhere, and serve
// must return without waiting for the client to go.
func TestSIGTERMEndsEventStreams(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	t.Setenv("BCRYPT_COST", "4")
	base, stop := serveFor(t)

	resp, err := http.Get(base + "/api/v1/events?topics=products")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/v1/events: %d, want 200", resp.StatusCode)
	}
	body := bufio.NewReader(resp.Body)
	if line, err := body.ReadString('\n'); err != nil || !strings.HasPrefix(line, "retry: ") {
		t.Fatalf("first line of the stream: %q, %v; want the retry field", line, err)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, body)
		ended <- err
	}()
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the stream ended with %v, want the body's last chunk", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream still open 10 s after SIGTERM")
	}
	returned := make(chan struct{})
	go func() { stop(); close(returned) }()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after SIGTERM with a stream open")
	}
}
