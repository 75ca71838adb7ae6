package clustertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/mail/mailpittest"
	"github.com/inkwell/inkwell/adapters/postgres/pgbouncertest"
	"github.com/inkwell/inkwell/adapters/postgres/standbytest"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
	"github.com/inkwell/inkwell/internal/logtest"
)

// origin is a page STATEFUL_DOMAINS allows by default to use sessions.
const origin = "http://localhost:3000"

// replicas is how many inkwell processes the cluster runs.
const replicas = 3

// TestCluster starts three replicas at once on one fresh database, through
// PgBouncer, on an S3 bucket, behind HAProxy, each from the built binary.
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("clustertest: the cluster takes a binary build and several processes")
	}
	haproxy := haproxyBinary(t)
	if os.Getenv("REQUIRE_CLUSTER") == "1" {
		t.Setenv("REQUIRE_POSTGRES", "1")
		t.Setenv("REQUIRE_PGBOUNCER", "1")
		t.Setenv("REQUIRE_S3", "1")
	}
	// A primary and a hot standby of the test's own, each behind a
	// PgBouncer: the replicas' anonymous reads go to the standby.
	pair := standbytest.Start(t)
	direct := pair.PrimaryURL
	pooled := pgbouncertest.URL(t, direct)
	standby := pgbouncertest.URL(t, pair.StandbyURL)
	bucket := s3test.Start(t).Bucket(t)
	if os.Getenv("REQUIRE_CLUSTER") == "1" {
		t.Setenv("REQUIRE_MAIL", "1")
	}
	mailpit := mailpittest.Start(t)
	bin := build(t)

	balancer := freeAddr(t)
	env := []string{
		"DATABASE_URL=" + pooled,
		"DATABASE_DIRECT_URL=" + direct,
		"DATABASE_READ_URL=" + standby,
		"FILESYSTEM_DISK=s3",
		"AWS_ACCESS_KEY_ID=" + bucket.AccessKeyID,
		"AWS_SECRET_ACCESS_KEY=" + bucket.SecretAccessKey,
		"AWS_DEFAULT_REGION=" + bucket.Region,
		"AWS_BUCKET=" + bucket.Bucket,
		"AWS_ENDPOINT=" + bucket.Endpoint,
		"AWS_USE_PATH_STYLE_ENDPOINT=true",
		"APP_URL=http://" + balancer,
		// One key for every replica: a link or cookie one signs, another
		// checks.
		"APP_KEY=base64:" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)),
		"BCRYPT_COST=4",
		"LOGIN_MAX_ATTEMPTS=3",
		"LOG_LEVEL=warn",
		"MAIL_MAILER=smtp",
		"MAIL_HOST=127.0.0.1",
		"MAIL_PORT=" + strconv.Itoa(mailpit.SMTPPort),
		"MAIL_FROM_ADDRESS=noreply@inkwell.test",
	}
	// These replicas keep no cache of anonymous reads, whose misses read
	// the primary: the standby's subtest watches where such reads go. The
	// cache's subtest starts replicas of its own with it on.
	cacheOn := slices.Clone(env)
	env = append(env, "HTTP_CACHE_MAX_BYTES=0")
	// The replicas start together, so they race for the migrations.
	nodes := make([]*replica, replicas)
	for i := range nodes {
		nodes[i] = startReplica(t, bin, env)
	}
	for _, n := range nodes {
		n.waitReady(t)
	}
	startHAProxy(t, haproxy, balancer, nodes)
	lb := "http://" + balancer

	t.Run("state is shared", func(t *testing.T) {
		// A token issued through one replica works on every other.
		reg := call(t, "POST", nodes[0].url+"/api/v1/register", jsonBody(map[string]any{
			"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
		}))
		reg.want(t, http.StatusCreated)
		token := reg.body["token"].(string)
		for _, n := range nodes {
			call(t, "GET", n.url+"/api/v1/user", nil, "Authorization", "Bearer "+token).want(t, http.StatusOK)
		}

		// A browser session started on one, signed in on a second, is
		// signed in on the third, and signed out everywhere by a logout on
		// the first.
		b := &browser{jar: map[string]string{}}
		b.do(t, "GET", nodes[0].url+"/sanctum/csrf-cookie", nil).want(t, http.StatusNoContent)
		b.do(t, "POST", nodes[1].url+"/login", jsonBody(map[string]any{"email": "ann@example.com", "password": "password1"})).want(t, http.StatusOK)
		for _, n := range nodes {
			b.do(t, "GET", n.url+"/api/v1/user", nil).want(t, http.StatusOK)
		}
		b.do(t, "POST", nodes[2].url+"/logout", nil).want(t, http.StatusNoContent)
		for _, n := range nodes {
			b.do(t, "GET", n.url+"/api/v1/user", nil).want(t, http.StatusUnauthorized)
		}

		// An avatar uploaded through one replica is served by every one.
		img := pngImage(t)
		up := call(t, "POST", nodes[1].url+"/api/v1/user/avatar", multipartBody(t, "avatar", "me.png", img), "Authorization", "Bearer "+token)
		up.want(t, http.StatusOK)
		avatar, ok := strings.CutPrefix(up.body["user"].(map[string]any)["avatar_url"].(string), lb)
		if !ok {
			t.Fatalf("avatar_url %v is not under APP_URL %s", up.body["user"], lb)
		}
		for _, n := range nodes {
			r := call(t, "GET", n.url+avatar, nil)
			r.want(t, http.StatusOK)
			if !bytes.Equal(r.raw, img) {
				t.Errorf("%s from %s: got %d bytes, want the %d uploaded", avatar, n.url, len(r.raw), len(img))
			}
		}

		// Failed logins count across replicas: three, one on each, and the
		// fourth is refused wherever it goes.
		wrong := func(n *replica) response {
			return call(t, "POST", n.url+"/api/v1/login", jsonBody(map[string]any{"email": "ann@example.com", "password": "wrong-password"}))
		}
		for _, n := range nodes {
			wrong(n).want(t, http.StatusUnprocessableEntity)
		}
		wrong(nodes[0]).want(t, http.StatusTooManyRequests)

		// A token logged out through one replica is refused by all.
		call(t, "POST", nodes[2].url+"/api/v1/logout", nil, "Authorization", "Bearer "+token).want(t, http.StatusOK)
		for _, n := range nodes {
			call(t, "GET", n.url+"/api/v1/user", nil, "Authorization", "Bearer "+token).want(t, http.StatusUnauthorized)
		}
	})

	// mailsTo waits up to 10 s for n mails to to whose subject holds
	// subject and returns those that arrived: registrations mail too.
	mailsTo := func(t *testing.T, to, subject string, n int) []mailpittest.Message {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			var got []mailpittest.Message
			for _, m := range mailpit.Messages() {
				if len(m.To) == 1 && m.To[0].Address == to && strings.Contains(m.Subject, subject) {
					got = append(got, m)
				}
			}
			if len(got) >= n || time.Now().After(deadline) {
				return got
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	t.Run("a verification link one replica mailed verifies on another", func(t *testing.T) {
		reg := call(t, "POST", nodes[1].url+"/api/v1/register", jsonBody(map[string]any{
			"name": "Vi", "email": "vi@example.com", "password": "password1", "password_confirmation": "password1",
		}))
		reg.want(t, http.StatusCreated)
		got := mailsTo(t, "vi@example.com", "verify your email", 1)
		if len(got) != 1 {
			t.Fatalf("%d verification mails arrived, want 1", len(got))
		}
		link := regexp.MustCompile(`(http://\S+?)(/api/v1/verify-email/\S+)`).FindStringSubmatch(got[0].Text)
		if link == nil || link[1] != lb {
			t.Fatalf("no verification link under APP_URL in:\n%s", got[0].Text)
		}
		// Signed by one replica, checked by another and through the
		// balancer: every replica holds the same APP_KEY.
		call(t, "GET", nodes[2].url+link[2], nil).want(t, http.StatusOK)
		call(t, "GET", lb+link[2], nil).want(t, http.StatusOK)
		me := call(t, "GET", nodes[0].url+"/api/v1/user", nil, "Authorization", "Bearer "+reg.body["token"].(string))
		me.want(t, http.StatusOK)
		if me.body["email_verified_at"] == nil {
			t.Errorf("email_verified_at is null after the link")
		}
	})

	t.Run("a reset asked on one replica completes on another", func(t *testing.T) {
		call(t, "POST", nodes[0].url+"/api/v1/register", jsonBody(map[string]any{
			"name": "Rae", "email": "rae@example.com", "password": "password1", "password_confirmation": "password1",
		})).want(t, http.StatusCreated)
		forgot := func(n *replica) {
			call(t, "POST", n.url+"/api/v1/forgot-password", jsonBody(map[string]any{"email": "rae@example.com"})).want(t, http.StatusOK)
		}
		forgot(nodes[1])
		got := mailsTo(t, "rae@example.com", "reset your password", 1)
		if len(got) != 1 {
			t.Fatalf("%d mails arrived, want 1", len(got))
		}
		// The throttle is counted in the database: another replica sends
		// nothing more.
		forgot(nodes[2])
		forgot(nodes[0])
		link := regexp.MustCompile(`(\S+)/password-reset/([A-Za-z0-9_-]{43})\?email=(\S+)`).FindStringSubmatch(got[0].Text)
		if link == nil || link[1] != lb || link[3] != "rae%40example.com" {
			t.Fatalf("no reset link under APP_URL in:\n%s", got[0].Text)
		}
		token := link[2]
		call(t, "POST", nodes[2].url+"/api/v1/reset-password", jsonBody(map[string]any{
			"token": token, "email": "rae@example.com", "password": "new-password", "password_confirmation": "new-password",
		})).want(t, http.StatusOK)
		call(t, "POST", nodes[0].url+"/api/v1/login", jsonBody(map[string]any{"email": "rae@example.com", "password": "new-password"})).want(t, http.StatusOK)
		time.Sleep(1500 * time.Millisecond) // longer than a worker's poll
		if n := len(mailsTo(t, "rae@example.com", "reset your password", 1)); n != 1 {
			t.Errorf("%d reset mails arrived, want 1: the throttle holds across replicas", n)
		}
	})

	reg := call(t, "POST", lb+"/api/v1/register", jsonBody(map[string]any{
		"name": "Bob", "email": "bob@example.com", "password": "password1", "password_confirmation": "password1",
	}))
	reg.want(t, http.StatusCreated)
	writer := "Bearer " + reg.body["token"].(string)

	t.Run("events cross replicas", func(t *testing.T) {
		// A stream on one replica hears what another commits, as it reads
		// the outbox they share; a NOTIFY on the LISTEN connection, which
		// bypasses PgBouncer, wakes it, and its poll would within seconds.
		s := openEvents(t, nodes[1].url, "", writer)
		post := call(t, "POST", nodes[0].url+"/api/v1/posts", jsonBody(map[string]any{
			"title": "Across", "body": "B", "status": "published",
		}), "Authorization", writer)
		post.want(t, http.StatusCreated)
		person := call(t, "POST", nodes[0].url+"/users", jsonBody(map[string]any{"name": "Pat", "email": "pat@example.com"}))
		person.want(t, http.StatusCreated)
		s.want(t, "post.created", post.body["data"])
		last := s.want(t, "user.created", person.body["data"])
		// The witness stays while the first stream goes; once it has the
		// post written meanwhile, a stream that starts now on that replica
		// would not, so only Last-Event-ID can bring it back.
		witness := openEvents(t, nodes[1].url, "", writer)
		defer witness.close()
		s.close()

		// A post written while the stream is gone is the first thing the
		// stream resumed from the last id sends, once, and the next is
		// what commits after.
		missed := call(t, "POST", nodes[2].url+"/api/v1/posts", jsonBody(map[string]any{
			"title": "Missed", "body": "B", "status": "published",
		}), "Authorization", writer)
		missed.want(t, http.StatusCreated)
		witness.want(t, "post.created", missed.body["data"])
		s = openEvents(t, nodes[1].url, last.id, writer)
		defer s.close()
		resumed := s.want(t, "post.created", missed.body["data"])
		if a, b := eventID(t, last), eventID(t, resumed); b <= a {
			t.Errorf("resumed after %d with event %d", a, b)
		}
		live := call(t, "POST", nodes[0].url+"/api/v1/posts", jsonBody(map[string]any{
			"title": "Live", "body": "B", "status": "published",
		}), "Authorization", writer)
		live.want(t, http.StatusCreated)
		s.want(t, "post.created", live.body["data"])
	})

	t.Run("a revoked token's streams end on every replica", func(t *testing.T) {
		// The deletion commits a revocation in the outbox, which each
		// replica's feed reads in order with the events: the streams of
		// the token, on the other replicas, send nothing after it and end,
		// while a stream of another token goes on.
		tok := call(t, "POST", nodes[0].url+"/api/v1/tokens", jsonBody(map[string]any{"name": "feed"}), "Authorization", writer)
		tok.want(t, http.StatusCreated)
		feed := "Bearer " + tok.body["token"].(string)
		id := fmt.Sprint(tok.body["data"].(map[string]any)["id"])
		revoked := []*eventStream{openEvents(t, nodes[1].url, "", feed), openEvents(t, nodes[2].url, "", feed)}
		witness := openEvents(t, nodes[1].url, "", writer)
		defer witness.close()
		before := call(t, "POST", nodes[0].url+"/api/v1/posts", jsonBody(map[string]any{
			"title": "Before", "body": "B", "status": "published",
		}), "Authorization", writer)
		before.want(t, http.StatusCreated)
		for _, s := range append(revoked, witness) {
			s.want(t, "post.created", before.body["data"])
		}
		call(t, "DELETE", nodes[0].url+"/api/v1/tokens/"+id, nil, "Authorization", writer).want(t, http.StatusOK)
		after := call(t, "POST", nodes[2].url+"/api/v1/posts", jsonBody(map[string]any{
			"title": "After", "body": "B", "status": "published",
		}), "Authorization", writer)
		after.want(t, http.StatusCreated)
		for _, s := range revoked {
			s.ends(t, 5*time.Second)
		}
		witness.want(t, "post.created", after.body["data"])
		r := call(t, "GET", nodes[1].url+"/api/v1/events", nil, "Authorization", feed)
		r.want(t, http.StatusUnauthorized)
	})

	t.Run("anonymous reads go to the standby", func(t *testing.T) {
		// Every replica reads its anonymous callers' posts on the standby,
		// through its PgBouncer, once the standby has replayed what was
		// written; a token's reads stay on the primary.
		post := call(t, "POST", nodes[0].url+"/api/v1/posts", jsonBody(map[string]any{
			"title": "Replicated", "body": "B", "status": "published",
		}), "Authorization", writer)
		post.want(t, http.StatusCreated)
		path := fmt.Sprintf("/api/v1/posts/%d", int64(post.body["data"].(map[string]any)["id"].(float64)))
		for _, n := range nodes {
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(string(call(t, "GET", n.url+"/metrics", nil).raw), "\nstore_standby_usable 1\n") ||
				call(t, "GET", n.url+path, nil).status != http.StatusOK {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the standby was not usable, with the post written on the primary, within 10s", n.url)
				}
				time.Sleep(50 * time.Millisecond)
			}
			before := readsOf(t, n)
			call(t, "GET", n.url+"/api/v1/posts", nil).want(t, http.StatusOK)
			call(t, "GET", n.url+path, nil).want(t, http.StatusOK)
			call(t, "GET", n.url+path, nil, "Authorization", writer).want(t, http.StatusOK)
			after := readsOf(t, n)
			if got := [2]int{after[0] - before[0], after[1] - before[1]}; got != [2]int{1, 2} {
				t.Errorf("%s: reads on the primary and the standby: got %v, want [1 2]", n.url, got)
			}
		}
	})

	t.Run("a write is fresh on every replica's cache within a second", func(t *testing.T) {
		testCacheAcrossReplicas(t, bin, cacheOn, nodes[0].url, writer)
	})

	t.Run("the console works across replicas", func(t *testing.T) {
		testConsoleAcrossReplicas(t, bin, env, nodes, lb)
	})

	t.Run("a killed replica loses no acknowledged write", func(t *testing.T) {
		// About 130 writes a second for up to four seconds, the kill after
		// one.
		const workers, maxWrites = 6, 400
		var (
			mu        sync.Mutex
			acked     []float64
			failed    []string
			killedAt  atomic.Int64 // unix nanoseconds, 0 before the kill
			lateFails atomic.Int64 // failures a second or more after the kill
			issued    atomic.Int64
		)
		deadline := time.Now().Add(4 * time.Second)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for n := 0; time.Now().Before(deadline) && issued.Add(1) <= maxWrites; n++ {
					r, err := try("POST", lb+"/api/v1/posts", jsonBody(map[string]any{
						"title": fmt.Sprintf("Load %d-%d", w, n), "body": "B", "status": "published",
					}), "Authorization", writer)
					mu.Lock()
					if err == nil && r.status == http.StatusCreated {
						acked = append(acked, r.body["data"].(map[string]any)["id"].(float64))
					} else {
						failed = append(failed, fmt.Sprintf("%v %d %.80s", err, r.status, r.raw))
						if k := killedAt.Load(); k != 0 && time.Since(time.Unix(0, k)) > time.Second {
							lateFails.Add(1)
						}
					}
					mu.Unlock()
					time.Sleep(40 * time.Millisecond)
				}
			})
		}
		time.Sleep(time.Second)
		nodes[2].kill(t)
		killedAt.Store(time.Now().UnixNano())
		wg.Wait()

		// Only requests in flight on the killed replica may fail.
		if len(failed) > workers {
			t.Errorf("%d of %d writes failed, more than the %d that can have been in flight: %v", len(failed), len(failed)+len(acked), workers, failed)
		}
		if n := lateFails.Load(); n > 0 {
			t.Errorf("%d writes failed a second after the kill: the balancer did not route around the dead replica", n)
		}
		if len(acked) < 50 {
			t.Errorf("only %d writes acknowledged", len(acked))
		}
		// The writer reads the primary; an anonymous reader could be
		// answered by the standby, up to DATABASE_READ_MAX_LAG behind.
		for _, id := range acked {
			call(t, "GET", fmt.Sprintf("%s/api/v1/posts/%d", nodes[0].url, int64(id)), nil, "Authorization", writer).want(t, http.StatusOK)
		}
		t.Logf("%d writes acknowledged and found, %d failed at the kill", len(acked), len(failed))
	})

	t.Run("SIGTERM drains a slow upload", func(t *testing.T) {
		img := pngImage(t)
		body, contentType := multipartBytes(t, "avatar", "me.png", img)
		pr, pw := io.Pipe()
		req, err := http.NewRequest("POST", nodes[1].url+"/api/v1/user/avatar", pr)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = int64(len(body))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Authorization", writer)
		done := make(chan response, 1)
		go func() {
			r, err := send(req)
			if err != nil {
				r.raw = []byte(err.Error())
			}
			done <- r
		}()
		// Half the body, then the signal while the rest is still to come.
		half := len(body) / 2
		if _, err := pw.Write(body[:half]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		nodes[1].signal(t, syscall.SIGTERM)
		time.Sleep(time.Second)
		// The balancer keeps answering from the replica that is left.
		call(t, "GET", lb+"/api/v1/posts", nil).want(t, http.StatusOK)
		if _, err := pw.Write(body[half:]); err != nil {
			t.Fatal(err)
		}
		_ = pw.Close()
		up := <-done
		up.want(t, http.StatusOK)
		if err := nodes[1].wait(10 * time.Second); err != nil {
			t.Errorf("replica after SIGTERM: %v", err)
		}
		// The drained upload was stored, not just answered: the replica
		// left serves the very bytes.
		user, _ := up.body["user"].(map[string]any)
		url, _ := user["avatar_url"].(string)
		avatar, ok := strings.CutPrefix(url, lb)
		if !ok {
			t.Fatalf("avatar_url %q is not under APP_URL %s", url, lb)
		}
		if r := call(t, "GET", nodes[0].url+avatar, nil); r.status != http.StatusOK || !bytes.Equal(r.raw, img) {
			t.Errorf("%s after the drain: got %d with %d bytes, want 200 with the %d uploaded", avatar, r.status, len(r.raw), len(img))
		}
	})
}

// replica is one running inkwell process.
type replica struct {
	url    string
	cmd    *exec.Cmd
	out    *logtest.Buffer
	exited chan struct{}
	err    error
}

func startReplica(t *testing.T, bin string, env []string) *replica {
	t.Helper()
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin)
	// Only what the test chooses: nothing of the caller's environment
	// reaches the replicas but PATH and HOME.
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "HOST=127.0.0.1", "PORT=" + port}, env...)
	cmd.Dir = t.TempDir()
	r := &replica{url: "http://" + addr, cmd: cmd, out: &logtest.Buffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = r.out, r.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start replica: %v", err)
	}
	go func() { r.err = cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-r.exited
		if t.Failed() {
			t.Logf("replica %s output:\n%s", r.url, r.out.String())
		}
	})
	return r
}

func (r *replica) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-r.exited:
			t.Fatalf("replica %s exited: %v\n%s", r.url, r.err, r.out.String())
		default:
		}
		if resp, err := http.Get(r.url + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("replica %s not ready within a minute:\n%s", r.url, r.out.String())
}

func (r *replica) kill(t *testing.T) { r.signal(t, syscall.SIGKILL) }

func (r *replica) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %s: %v", r.url, err)
	}
}

// wait waits for the process to exit and returns how it ended.
func (r *replica) wait(timeout time.Duration) error {
	select {
	case <-r.exited:
		return r.err
	case <-time.After(timeout):
		return fmt.Errorf("still running after %s", timeout)
	}
}

// eventStream is an open GET /api/v1/events on one replica.
type eventStream struct {
	sc     *bufio.Scanner
	cancel context.CancelFunc
}

// event is one message of an event stream.
type event struct {
	id, typ string
	data    map[string]any
}

// openEvents opens the event stream of the replica at base as auth,
// resuming after lastID unless it is empty. The stream ends after 15
// seconds, the bound on how long its events may take to arrive.
func openEvents(t *testing.T, base, lastID, auth string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/events", nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("GET %s/api/v1/events: %v", base, err)
	}
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		cancel()
		t.Fatalf("GET %s/api/v1/events: %d %.200s", base, resp.StatusCode, raw)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	return &eventStream{sc: sc, cancel: func() { cancel(); resp.Body.Close() }}
}

func (s *eventStream) close() { s.cancel() }

// ends fails unless the server ends the stream within d without sending
// another event.
func (s *eventStream) ends(t *testing.T, d time.Duration) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		for s.sc.Scan() {
			if id, ok := strings.CutPrefix(s.sc.Text(), "id: "); ok {
				done <- "sent event " + id
				return
			}
		}
		done <- ""
	}()
	select {
	case got := <-done:
		if got != "" {
			t.Errorf("the stream %s, want it ended", got)
		}
	case <-time.After(d):
		t.Errorf("the stream still open %s later", d)
	}
	s.close()
}

// next returns the stream's next event, skipping the retry field and
// comment lines.
func (s *eventStream) next(t *testing.T) event {
	t.Helper()
	var e event
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "" && e.id != "":
			return e
		case strings.HasPrefix(line, "id: "):
			e.id = line[len("id: "):]
		case strings.HasPrefix(line, "event: "):
			e.typ = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[len("data: "):]), &e.data); err != nil {
				t.Fatalf("event data is not JSON: %s", line)
			}
		}
	}
	t.Fatalf("the stream ended before the next event: %v", s.sc.Err())
	return e
}

// want reads the next event and fails unless it is of type typ about the
// record created, as the API answered it.
func (s *eventStream) want(t *testing.T, typ string, created any) event {
	t.Helper()
	e := s.next(t)
	id := created.(map[string]any)["id"]
	data, _ := e.data["data"].(map[string]any)
	if e.typ != typ || e.data["id"] != e.id || data["id"] != id {
		t.Fatalf("event %s %s %v, want %s of record %v", e.id, e.typ, e.data, typ, id)
	}
	return e
}

// eventID reads e's id as the number it is.
func eventID(t *testing.T, e event) int64 {
	t.Helper()
	n, err := strconv.ParseInt(e.id, 10, 64)
	if err != nil {
		t.Fatalf("event id %q: %v", e.id, err)
	}
	return n
}

// build compiles the service's binary into a folder of the test's.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "inkwell")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/inkwell/inkwell/cmd/inkwell")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// haproxyBinary finds Debian's HAProxy, skipping the test without it
// unless REQUIRE_CLUSTER=1 (as CI sets).
func haproxyBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("haproxy"); err == nil {
		return p
	}
	if fi, err := os.Stat("/usr/sbin/haproxy"); err == nil && fi.Mode()&0o111 != 0 {
		return "/usr/sbin/haproxy"
	}
	if os.Getenv("REQUIRE_CLUSTER") == "1" {
		t.Fatal("clustertest: REQUIRE_CLUSTER=1 but haproxy is neither on PATH nor at /usr/sbin/haproxy")
	}
	t.Skip("clustertest: haproxy is not installed; install it (apt-get install haproxy, or make services) to run the cluster test")
	return ""
}

// startHAProxy runs HAProxy with deploy/haproxy.cfg, bound to addr and
// balancing over nodes, until the test ends.
func startHAProxy(t *testing.T, bin, addr string, nodes []*replica) {
	t.Helper()
	cfg, err := pgbouncertest.DeployFile("haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	servers := 0
	for line := range strings.Lines(cfg) {
		line = strings.TrimRight(line, "\n")
		field := strings.Fields(line)
		switch {
		case len(field) > 0 && field[0] == "bind":
			line = "    bind " + addr
		case len(field) > 0 && field[0] == "server":
			if servers++; servers > 1 {
				continue
			}
			for i, n := range nodes {
				out = append(out, fmt.Sprintf("    server app%d %s check", i+1, strings.TrimPrefix(n.url, "http://")))
			}
			continue
		}
		out = append(out, line)
	}
	if servers == 0 || !strings.Contains(strings.Join(out, "\n"), "bind "+addr) {
		t.Fatal("deploy/haproxy.cfg has no bind or server line to point at the test's replicas")
	}
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-f", path)
	logs := &logtest.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start haproxy: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("haproxy output:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-exited:
			t.Fatalf("haproxy exited:\n%s", logs.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy on %s not answering:\n%s", addr, logs.String())
		}
	}
}

// readsOf returns how many reads a replica's /metrics says it sent to the
// primary and to the standby.
func readsOf(t *testing.T, n *replica) [2]int {
	t.Helper()
	r := call(t, "GET", n.url+"/metrics", nil)
	r.want(t, http.StatusOK)
	var out [2]int
	for i, target := range []string{"primary", "standby"} {
		series := `store_reads_total{target="` + target + `"} `
		found := false
		for line := range strings.Lines(string(r.raw)) {
			if v, ok := strings.CutPrefix(line, series); ok {
				count, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil {
					t.Fatalf("%s: %s%q", n.url, series, v)
				}
				out[i], found = count, true
			}
		}
		if !found {
			t.Fatalf("%s/metrics has no %s", n.url, series)
		}
	}
	return out
}

// response is what the test sees of an answer.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r response) want(t *testing.T, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("got %d %.200s, want %d", r.status, r.raw, status)
	}
}

// body is a request body with its content type.
type body struct {
	data        []byte
	contentType string
}

func jsonBody(v any) *body {
	b, _ := json.Marshal(v)
	return &body{b, "application/json"}
}

func multipartBody(t *testing.T, field, name string, data []byte) *body {
	b, ct := multipartBytes(t, field, name, data)
	return &body{b, ct}
}

func multipartBytes(t *testing.T, field, name string, data []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile(field, name)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(data)
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// call sends a request and fails the test when no answer comes.
func call(t *testing.T, method, url string, b *body, headers ...string) response {
	t.Helper()
	r, err := try(method, url, b, headers...)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return r
}

func try(method, url string, b *body, headers ...string) (response, error) {
	var rd io.Reader
	if b != nil {
		rd = bytes.NewReader(b.data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return response{}, err
	}
	if b != nil {
		req.Header.Set("Content-Type", b.contentType)
	}
	req.Header.Set("Accept", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return send(req)
}

var client = &http.Client{Timeout: 20 * time.Second}

func send(req *http.Request) (response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r, err
}

// browser keeps cookies and echoes XSRF-TOKEN as a page on origin does
// with axios.
type browser struct{ jar map[string]string }

func (b *browser) do(t *testing.T, method, url string, body *body) response {
	t.Helper()
	headers := []string{"Origin", origin}
	var cookies []string
	for k, v := range b.jar {
		cookies = append(cookies, k+"="+v)
	}
	if len(cookies) > 0 {
		headers = append(headers, "Cookie", strings.Join(cookies, "; "))
	}
	if method != "GET" && b.jar["XSRF-TOKEN"] != "" {
		headers = append(headers, "X-XSRF-TOKEN", b.jar["XSRF-TOKEN"])
	}
	r := call(t, method, url, body, headers...)
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Value == "" || (!c.Expires.IsZero() && c.Expires.Before(time.Now())) {
			delete(b.jar, c.Name)
		} else {
			b.jar[c.Name] = c.Value
		}
	}
	return r
}

func pngImage(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// freeAddr asks the kernel for a free loopback address.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
