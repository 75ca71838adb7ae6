package s3files_test

import (
	"net"
	"testing"

	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

func TestBucket(t *testing.T) {
	srv := s3test.Start(t)
	portstest.RunFiles(t, func(tb testing.TB) ports.FileStore {
		return newBucket(tb, srv.Bucket(tb))
	})
}

// TestBucketReplicas checks what several replicas rely on: a file one store
// saves, another store on the same bucket opens and deletes.
func TestBucketReplicas(t *testing.T) {
	srv := s3test.Start(t)
	cfg := srv.Bucket(t)
	one, other := newBucket(t, cfg), newBucket(t, cfg)
	ctx := t.Context()
	path, err := one.Save(ctx, "posts", []byte("shared"), ".png")
	if err != nil {
		t.Fatal(err)
	}
	f, err := other.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) on the other store: %v", path, err)
	}
	f.Body.Close()
	if err := other.Delete(ctx, path); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Open(ctx, path); domain.KindOf(err) != domain.NotFound {
		t.Errorf("Open(%q) after the other store deleted it: got %v, want not found", path, err)
	}
}

// TestBucketUnreachable checks that a server nobody answers on is a
// dependency down, which the HTTP layer answers with 503.
func TestBucketUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close()
	b := newBucket(t, s3files.Config{
		AccessKeyID: "id", SecretAccessKey: "secret", Region: "us-east-1",
		Bucket: "nowhere", Endpoint: endpoint, UsePathStyle: true,
	})
	_, err = b.Open(t.Context(), "posts/0123456789abcdef0123456789abcdef.png")
	if domain.KindOf(err) != domain.Unavailable {
		t.Errorf("Open on %s: got %v (kind %v), want kind unavailable", endpoint, err, domain.KindOf(err))
	}
}

func TestPublicURL(t *testing.T) {
	cases := []struct {
		url, want string
		ok        bool
	}{
		{"", "", false},
		{"https://cdn.example.com", "https://cdn.example.com/posts/a.png", true},
		{"https://cdn.example.com/files/", "https://cdn.example.com/files/posts/a.png", true},
	}
	for _, tc := range cases {
		b := newBucket(t, s3files.Config{AccessKeyID: "id", SecretAccessKey: "secret", Region: "us-east-1", Bucket: "b", URL: tc.url})
		got, ok := b.PublicURL("posts/a.png")
		if got != tc.want || ok != tc.ok {
			t.Errorf("URL %q: got %q, %v, want %q, %v", tc.url, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNewRefusesIncompleteSettings(t *testing.T) {
	full := s3files.Config{AccessKeyID: "id", SecretAccessKey: "secret", Region: "us-east-1", Bucket: "b"}
	for name, change := range map[string]func(*s3files.Config){
		"no bucket":     func(c *s3files.Config) { c.Bucket = "" },
		"no region":     func(c *s3files.Config) { c.Region = "" },
		"no key id":     func(c *s3files.Config) { c.AccessKeyID = "" },
		"no secret key": func(c *s3files.Config) { c.SecretAccessKey = "" },
	} {
		cfg := full
		change(&cfg)
		if _, err := s3files.New(cfg); err == nil {
			t.Errorf("%s: got no error", name)
		}
	}
}

func newBucket(tb testing.TB, cfg s3files.Config) *s3files.Bucket {
	tb.Helper()
	b, err := s3files.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
