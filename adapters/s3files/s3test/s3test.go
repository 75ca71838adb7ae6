// Package s3test runs a real S3-compatible server for tests: versitygw with
// its POSIX backend, on a free loopback port, over a temporary folder.
//
// The versitygw binary is looked up on PATH, then in $GOBIN and the bin
// folder of each GOPATH entry, where scripts/versitygw.sh installs it.
// Without it the tests skip, unless REQUIRE_S3=1 (as CI sets), which makes
// them fail instead.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/internal/logtest"
)

// region is the region the server is started with and the stores use.
const region = "us-east-1"

// Server is a running versitygw.
type Server struct {
	// Endpoint is the server's base URL, http://127.0.0.1:port.
	Endpoint        string
	AccessKeyID     string
	SecretAccessKey string
	client          *s3.Client
	stop            func()
}

// Start starts a server that stops when tb and its subtests end. It skips
// tb when versitygw is not installed (fails it under REQUIRE_S3=1) and
// fails it when the server does not start.
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin, err := binary()
	if err != nil {
		if os.Getenv("REQUIRE_S3") == "1" {
			tb.Fatalf("s3test: REQUIRE_S3=1 but %v", err)
		}
		tb.Skipf("s3test: %v; run scripts/versitygw.sh (or make services) to run the S3 tests", err)
	}
	port, err := freePort()
	if err != nil {
		tb.Fatalf("s3test: %v", err)
	}
	s := &Server{
		Endpoint:        "http://127.0.0.1:" + strconv.Itoa(port),
		AccessKeyID:     randomHex(10),
		SecretAccessKey: randomHex(20),
	}
	var out logtest.Buffer
	cmd := exec.Command(bin,
		"--access", s.AccessKeyID, "--secret", s.SecretAccessKey, "--region", region,
		"--port", "127.0.0.1:"+strconv.Itoa(port), "--quiet",
		"posix", tb.TempDir())
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatalf("s3test: start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	tb.Cleanup(s.stop)
	if err := waitUntilUp(s.Endpoint, exited); err != nil {
		tb.Fatalf("s3test: versitygw on %s: %v; its output:\n%s", s.Endpoint, err, out.String())
	}
	s.client = s3.New(s3.Options{
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKeyID, s.SecretAccessKey, ""),
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
	})
	return s
}

// Stop stops the server before the test ends, for a test of what happens
// when storage goes away.
func (s *Server) Stop() { s.stop() }

// Bucket creates an empty bucket of its own for tb and returns the settings
// of a store on it.
func (s *Server) Bucket(tb testing.TB) s3files.Config {
	tb.Helper()
	name := "inkwell-" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &name}); err != nil {
		tb.Fatalf("s3test: create bucket %s: %v", name, err)
	}
	return s3files.Config{
		AccessKeyID:     s.AccessKeyID,
		SecretAccessKey: s.SecretAccessKey,
		Region:          region,
		Bucket:          name,
		Endpoint:        s.Endpoint,
		UsePathStyle:    true,
	}
}

// binary finds versitygw on PATH or where go install puts it.
func binary() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
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
		p := filepath.Join(d, "versitygw")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("versitygw is neither on PATH nor in a Go bin folder")
}

// freePort asks the kernel for a free loopback port. Another process could
// take it before versitygw binds it; the start then fails with versitygw's
// own message.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitUntilUp polls the endpoint until it answers any HTTP response.
func waitUntilUp(endpoint string, exited <-chan struct{}) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := client.Get(endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-exited:
			return errors.New("exited before answering")
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return errors.New("no answer within 20 seconds: " + err.Error())
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
