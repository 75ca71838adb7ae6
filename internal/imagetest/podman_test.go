package imagetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testImage is the tag the tests build; they run the image by its ID, which
// no later build can move.
const testImage = "localhost/inkwell-test:latest"

// nonroot is the uid and gid the image runs as.
const nonroot = 65532

// root is the repository's root, where the Containerfile and scripts are.
var root = func() string {
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return dir
}()

var (
	buildOnce sync.Once
	imageID   string
	buildErr  error
)

// builtImage returns the ID of the image built from the working tree, building
// it once per test binary with scripts/image.sh. Building again with an
// unchanged binary reuses podman's cached layers. It skips the test when
// podman is missing or the test does not run as root, or fails it then in
// CI (CI=true or REQUIRE_PODMAN=1).
func builtImage(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("imagetest: builds and runs the container image")
	}
	var missing string
	if _, err := exec.LookPath("podman"); err != nil {
		missing = "podman is missing; make services installs it"
	} else if os.Geteuid() != 0 {
		// Rootless podman maps the image's uid to another one on the
		// host, which the checks of the process and its files read.
		missing = "the image tests run rootful podman: run them as root"
	}
	if missing != "" {
		if os.Getenv("REQUIRE_PODMAN") == "1" || os.Getenv("CI") == "true" {
			t.Fatal("imagetest: required here (CI or REQUIRE_PODMAN=1), but " + missing)
		}
		t.Skip("imagetest: " + missing)
	}
	buildOnce.Do(func() {
		start := time.Now()
		cmd := exec.Command("bash", filepath.Join(root, "scripts", "image.sh"), testImage)
		cmd.Dir = root
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			buildErr = fmt.Errorf("scripts/image.sh: %v\n%s%s", err, stdout.String(), stderr.String())
			return
		}
		lines := strings.Fields(stdout.String())
		if len(lines) == 0 {
			buildErr = fmt.Errorf("scripts/image.sh printed no image ID; stderr: %s", stderr.String())
			return
		}
		imageID = lines[len(lines)-1]
		t.Logf("image %.12s built in %s", imageID, time.Since(start).Round(time.Millisecond))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return imageID
}

// podman runs scripts/podman.sh with args and returns its standard output
// and exit status; it fails the test when podman cannot be run at all.
func podman(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(root, "scripts", "podman.sh")}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("podman %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// mustPodman is podman that fails the test unless it exits 0.
func mustPodman(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := podman(t, args...)
	if code != 0 {
		t.Fatalf("podman %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return strings.TrimSpace(out)
}

// A container is one run of the image on the host's network, listening on
// 127.0.0.1 only.
type container struct {
	name string
	port int
}

// base is the container's address as the tests reach it.
func (c container) base() string { return fmt.Sprintf("http://127.0.0.1:%d", c.port) }

// run starts the image as container name with the settings env on a
// read-only root (without even podman's tmpfs on /tmp), with volume on
// /data when it is not empty, and waits until /readyz answers 200. The
// container is removed when the test ends.
func run(t *testing.T, img, name, volume string, port int, env ...string) container {
	t.Helper()
	args := []string{"run", "--detach", "--name", name, "--read-only", "--read-only-tmpfs=false"}
	if volume != "" {
		args = append(args, "--volume", volume+":/data")
	}
	env = append([]string{"HOST=127.0.0.1", fmt.Sprint("PORT=", port), "BCRYPT_COST=4"}, env...)
	for _, kv := range env {
		args = append(args, "--env", kv)
	}
	mustPodman(t, append(args, img)...)
	t.Cleanup(func() { podman(t, "rm", "--force", "--volumes", "--time", "0", name) })
	c := container{name: name, port: port}
	c.waitReady(t)
	return c
}

// waitReady waits until the container answers /readyz with 200.
func (c container) waitReady(t *testing.T) {
	t.Helper()
	client := http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(60 * time.Second); ; {
		resp, err := client.Get(c.base() + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("container %s not ready in 60s: %v\n%s", c.name, err, c.logs(t))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// logs is what the container wrote on its standard output and error.
func (c container) logs(t *testing.T) string {
	t.Helper()
	out, errOut, _ := podman(t, "logs", c.name)
	return out + errOut
}

// stop stops the container with podman stop and returns its exit code.
func (c container) stop(t *testing.T) int {
	t.Helper()
	mustPodman(t, "stop", "--time", "30", c.name)
	return c.exitCode(t)
}

func (c container) exitCode(t *testing.T) int {
	t.Helper()
	var code int
	if _, err := fmt.Sscan(mustPodman(t, "inspect", "--format", "{{.State.ExitCode}}", c.name), &code); err != nil {
		t.Fatal(err)
	}
	return code
}

// uniqueName is a container name of this test run.
func uniqueName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return "inkwell-test-" + prefix + "-" + hex.EncodeToString(b)
}

// appKey is a fresh APP_KEY.
func appKey() string {
	b := make([]byte, 32)
	rand.Read(b)
	return "base64:" + base64.StdEncoding.EncodeToString(b)
}

// freePort returns a port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// volume returns an empty folder for /data, owned by the image's user as
// an operator prepares one.
func volume(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chown(dir, nonroot, nonroot); err != nil {
		t.Fatalf("give the volume to uid %d: %v", nonroot, err)
	}
	return dir
}

// A relay forwards TCP connections from a port of its own to target, until
// Close cuts every connection and refuses new ones: a server going away.
type relay struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newRelay(t *testing.T, target string) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{ln: ln}
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			r.mu.Lock()
			r.conns = append(r.conns, in, out)
			r.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	t.Cleanup(r.Close)
	return r
}

func (r *relay) addr() string { return r.ln.Addr().String() }

// Close refuses new connections and cuts those open.
func (r *relay) Close() {
	r.ln.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}
