package imagetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
)

// TestReadOnlyRootKeepsDataOnTheVolume runs the image as an operator does
// in production: read-only root, /data on a volume, APP_ENV=production with
// APP_KEY. An account and a post with an image, made in one container, are
// found by a second container on the same volume, the image still served.
func TestReadOnlyRootKeepsDataOnTheVolume(t *testing.T) {
	t.Parallel()
	img := builtImage(t)
	vol := volume(t)
	port := freePort(t)
	env := []string{"APP_ENV=production", "APP_KEY=" + appKey(), fmt.Sprintf("APP_URL=http://127.0.0.1:%d", port)}

	c := run(t, img, uniqueName("volume"), vol, port, env...)
	wantNonroot(t, c, vol)
	status, body := send(t, "POST", c.base()+"/api/v1/register", "", jsonBody(map[string]any{
		"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
	}))
	if status != http.StatusCreated {
		t.Fatalf("register: got %d %v, want 201", status, body)
	}
	token := login(t, c)
	picture := pngImage(t)
	status, body = send(t, "POST", c.base()+"/api/v1/posts", token, multipartBody(t,
		map[string]string{"title": "Pictured", "body": "In a container", "status": "published"}, "image", "a.png", picture))
	if status != http.StatusCreated {
		t.Fatalf("create a post with an image: got %d %v, want 201", status, body)
	}
	id := fmt.Sprint(body["data"].(map[string]any)["id"])
	imageURL := attrs(body)["image_url"].(string)
	wantFile(t, imageURL, picture)
	if code := c.stop(t); code != 0 {
		t.Errorf("podman stop: exit code %d, want 0", code)
	}

	// A new container on the same volume: nothing lived in the first one.
	c = run(t, img, uniqueName("volume-again"), vol, port, env...)
	token = login(t, c)
	status, body = send(t, "GET", c.base()+"/api/v1/posts/"+id, token, nil)
	if status != http.StatusOK || attrs(body)["title"] != "Pictured" || attrs(body)["image_url"] != imageURL {
		t.Fatalf("the post after the restart: got %d %v, want 200 with its title and image %s", status, body, imageURL)
	}
	wantFile(t, imageURL, picture)
	if _, err := os.Stat(filepath.Join(vol, "inkwell.db")); err != nil {
		t.Errorf("the SQLite file is not on the volume: %v", err)
	}
}

// TestPostgreSQL runs the image against a scratch database on the
// machine's PostgreSQL, through a relay the test can cut: the health check
// exits 0 while the store answers, and 1 once it has gone.
func TestPostgreSQL(t *testing.T) {
	t.Parallel()
	dbURL, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	img := builtImage(t)
	r := newRelay(t, dbURL.Host)
	viaRelay := *dbURL
	viaRelay.Host = r.addr()
	port := freePort(t)
	c := run(t, img, uniqueName("postgres"), "", port, "APP_ENV=production", "APP_KEY="+appKey(), "DATABASE_URL="+viaRelay.String())

	// HOST=127.0.0.1: on the host's network it listens on loopback only.
	if logs := c.logs(t); !strings.Contains(logs, fmt.Sprintf(`"addr":"127.0.0.1:%d"`, port)) {
		t.Errorf("the start log does not say it listens on 127.0.0.1:%d only:\n%s", port, logs)
	}
	status, body := send(t, "POST", c.base()+"/api/v1/register", "", jsonBody(map[string]any{
		"name": "Bo", "email": "bo@example.com", "password": "password1", "password_confirmation": "password1",
	}))
	if status != http.StatusCreated {
		t.Fatalf("register: got %d %v, want 201", status, body)
	}
	token := login(t, c)
	status, body = send(t, "POST", c.base()+"/api/v1/posts", token, jsonBody(map[string]any{"title": "On PostgreSQL", "body": "B", "status": "published"}))
	if status != http.StatusCreated {
		t.Fatalf("create a post: got %d %v, want 201", status, body)
	}
	conn, err := pgx.Connect(context.Background(), dbURL.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM posts WHERE title = 'On PostgreSQL'").Scan(&n); err != nil || n != 1 {
		t.Errorf("posts in the scratch database: %d (%v), want 1", n, err)
	}

	wantHealthy(t, c, true)
	r.Close()
	wantHealthy(t, c, false)
}

// wantHealthy runs the image's health check both ways an orchestrator
// does, the image's HEALTHCHECK and an exec of inkwell healthcheck, and
// wants them to say ready (exit 0) or not (exit 1, /readyz's 503).
func wantHealthy(t *testing.T, c container, ready bool) {
	t.Helper()
	out, errOut, code := podman(t, "exec", c.name, "inkwell", "healthcheck")
	want := fmt.Sprintf("http://127.0.0.1:%d/readyz answered 200 OK\n", c.port)
	if !ready {
		want = fmt.Sprintf("inkwell: healthcheck: http://127.0.0.1:%d/readyz answered 503 Service Unavailable, want 200\n", c.port)
	}
	if got := out + errOut; (code == 0) != ready || (code != 0 && code != 1) || got != want {
		t.Errorf("podman exec %s inkwell healthcheck: exit %d, output %q; want exit %d and %q", c.name, code, got, map[bool]int{true: 0, false: 1}[ready], want)
	}
	out, errOut, code = podman(t, "healthcheck", "run", c.name)
	if (code == 0) != ready {
		t.Errorf("podman healthcheck run %s: exit %d, %s%s; want ready %v", c.name, code, out, errOut, ready)
	}
	if health := mustPodman(t, "inspect", "--format", "{{.State.Health.Status}}", c.name); ready && health != "healthy" {
		t.Errorf("health status after a passing check: got %s, want healthy", health)
	}
}

// TestStopDrainsRequestInFlight stops the container with podman stop while
// a registration is half uploaded: the server stops accepting connections,
// yet reads the rest, answers 201, and exits 0 before the stop timeout.
func TestStopDrainsRequestInFlight(t *testing.T) {
	t.Parallel()
	img := builtImage(t)
	port := freePort(t)
	c := run(t, img, uniqueName("stop"), volume(t), port, "APP_ENV=production", "APP_KEY="+appKey())
	addr := fmt.Sprintf("127.0.0.1:%d", port)

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"name":"Cy","email":"cy@example.com","password":"password1","password_confirmation":"password1"}`
	head := fmt.Sprintf("POST /api/v1/register HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: %d\r\n\r\n", addr, len(body))
	half := len(body) / 2
	if _, err := conn.Write([]byte(head + body[:half])); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)

	stopped := make(chan error, 1)
	start := time.Now()
	go func() {
		_, errOut, code := podman(t, "stop", "--time", "30", c.name)
		if code != 0 {
			stopped <- fmt.Errorf("podman stop: exit %d: %s", code, errOut)
			return
		}
		stopped <- nil
	}()
	// The listener closes first: new connections are refused while the
	// request above is in flight.
	for deadline := time.Now().Add(15 * time.Second); ; {
		probe, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil && errors.Is(err, syscall.ECONNREFUSED) {
			break
		}
		if err == nil {
			probe.Close()
		}
		if time.Now().After(deadline) {
			t.Fatal("the container still accepts connections 15 s after podman stop")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := conn.Write([]byte(body[half:])); err != nil {
		t.Fatalf("finish the upload after podman stop: %v", err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read the answer to the request in flight: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("request in flight: got %d, want 201", resp.StatusCode)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	// Exit 0 is the server's own: a container podman had to kill after
	// the timeout exits 137.
	if code := c.exitCode(t); code != 0 {
		t.Errorf("exit code after podman stop: %d, want 0", code)
	}
	t.Logf("podman stop returned after %s", time.Since(start).Round(time.Millisecond))
}

// wantNonroot checks that the server process runs as uid and gid 65532 on
// the host (rootful podman maps no ids) and that the files it made on the
// volume are theirs.
func wantNonroot(t *testing.T, c container, vol string) {
	t.Helper()
	pid := mustPodman(t, "inspect", "--format", "{{.State.Pid}}", c.name)
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	// Real, effective, saved and file system ids, all four.
	want := fmt.Sprintf("%d\t%[1]d\t%[1]d\t%[1]d", nonroot)
	seen := 0
	for _, line := range strings.Split(string(status), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && (k == "Uid" || k == "Gid") {
			seen++
			if strings.TrimSpace(v) != want {
				t.Errorf("the server process %s: %s %q, want %q", pid, k, strings.TrimSpace(v), want)
			}
		}
	}
	if seen != 2 {
		t.Errorf("/proc/%s/status has %d Uid and Gid lines, want 2:\n%s", pid, seen, status)
	}
	entries, err := os.ReadDir(vol)
	if err != nil || len(entries) == 0 {
		t.Fatalf("the volume holds nothing: %v", err)
	}
	for _, e := range entries {
		fi, err := os.Stat(filepath.Join(vol, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != nonroot || st.Gid != nonroot {
			t.Errorf("%s on the volume belongs to %d:%d, want %d:%d", e.Name(), st.Uid, st.Gid, nonroot, nonroot)
		}
	}
}

// login logs the first user in and returns the token.
func login(t *testing.T, c container) string {
	t.Helper()
	for _, email := range []string{"ann@example.com", "bo@example.com"} {
		status, body := send(t, "POST", c.base()+"/api/v1/login", "", jsonBody(map[string]any{"email": email, "password": "password1"}))
		if token, ok := body["token"].(string); status == http.StatusOK && ok {
			return token
		}
	}
	t.Fatal("no account logs in")
	return ""
}

// A body is what send sends, with its content type.
type body struct {
	contentType string
	data        []byte
}

func jsonBody(v any) *body {
	data, _ := json.Marshal(v)
	return &body{"application/json", data}
}

func multipartBody(t *testing.T, fields map[string]string, fileField, filename string, file []byte) *body {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := w.CreateFormFile(fileField, filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file)
	w.Close()
	return &body{w.FormDataContentType(), buf.Bytes()}
}

// send makes a request with an optional bearer token and body and decodes
// the JSON answer.
func send(t *testing.T, method, url, token string, b *body) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if b != nil {
		r = bytes.NewReader(b.data)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if b != nil {
		req.Header.Set("Content-Type", b.contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// attrs is the attributes of a post in version 1's representation.
func attrs(body map[string]any) map[string]any {
	data, _ := body["data"].(map[string]any)
	a, _ := data["attributes"].(map[string]any)
	return a
}

// wantFile fetches url and wants exactly data.
func wantFile(t *testing.T, url string, data []byte) {
	t.Helper()
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("image URL %q is not on 127.0.0.1", url)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, data) {
		t.Errorf("GET %s: got %d and %d bytes, want 200 and the %d bytes uploaded", url, resp.StatusCode, len(got), len(data))
	}
}

// pngImage is a small PNG.
func pngImage(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// maxImageSize is the most the image may take, uncompressed: the binary
// and little else (40.1 MB in November 2026), with room for the code of a
// few more months; a jump past it is a dependency to look at.
const maxImageSize = 42_000_000

// TestImageConfig reads what the image declares: its user, port, volume,
// health check and settings, the OCI labels of the commit it was built
// from, and its size.
func TestImageConfig(t *testing.T) {
	t.Parallel()
	img := builtImage(t)
	format := `{{.Config.User}}|{{json .Config.ExposedPorts}}|{{json .Config.Volumes}}|{{json .Config.Healthcheck.Test}}|{{json .Config.Entrypoint}}|{{json .Config.Cmd}}`
	want := `65532:65532|{"3000/tcp":{}}|{"/data":{}}|["CMD","/usr/local/bin/inkwell","healthcheck"]|["/usr/local/bin/inkwell"]|["serve"]`
	if got := mustPodman(t, "image", "inspect", "--format", format, img); got != want {
		t.Errorf("image config:\n got %s\nwant %s", got, want)
	}
	var env []string
	if err := json.Unmarshal([]byte(mustPodman(t, "image", "inspect", "--format", "{{json .Config.Env}}", img)), &env); err != nil {
		t.Fatal(err)
	}
	for _, kv := range []string{"DATABASE_URL=sqlite:///data/inkwell.db", "STORAGE_DIR=/data/storage", "HOST=0.0.0.0", "PORT=3000"} {
		if !slices.Contains(env, kv) {
			t.Errorf("image env %v lacks %s", env, kv)
		}
	}

	var labels map[string]string
	if err := json.Unmarshal([]byte(mustPodman(t, "image", "inspect", "--format", "{{json .Config.Labels}}", img)), &labels); err != nil {
		t.Fatal(err)
	}
	wantLabels := map[string]string{
		"org.opencontainers.image.version":  git(t, "dev", "describe", "--tags", "--always", "--dirty"),
		"org.opencontainers.image.revision": git(t, "unknown", "rev-parse", "HEAD"),
		"org.opencontainers.image.source":   "https://github.com/inkwell/inkwell",
		"org.opencontainers.image.licenses": "MIT",
	}
	for k, v := range wantLabels {
		if labels[k] != v {
			t.Errorf("label %s: got %q, want %q", k, labels[k], v)
		}
	}

	var size int64
	if _, err := fmt.Sscan(mustPodman(t, "image", "inspect", "--format", "{{.Size}}", img), &size); err != nil {
		t.Fatal(err)
	}
	if size > maxImageSize {
		t.Errorf("the image takes %d bytes, more than %d", size, maxImageSize)
	}
	t.Logf("image size: %d bytes", size)
}

// git runs git in the repository and returns its output's one line, or
// otherwise, as scripts/image.sh does outside a checkout.
func git(t *testing.T, otherwise string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return otherwise
	}
	return strings.TrimSpace(string(out))
}
