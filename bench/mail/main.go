// Command mail measures the forgotten-password flow against a running
// server whose mail goes to Mailpit.
//
//	mailpit --smtp 127.0.0.1:1925 --listen 127.0.0.1:8925 &
//	PORT=3917 BCRYPT_COST=4 PASSWORD_RESET_THROTTLE=0 MAIL_MAILER=smtp \
//	  MAIL_HOST=127.0.0.1 MAIL_PORT=1925 inkwell serve &
//	go run ./bench/mail -base http://127.0.0.1:3917 -mailpit http://127.0.0.1:8925
//
// It registers -accounts accounts, then:
//   - answers: POST /api/v1/forgot-password for known and unknown addresses
//     in turn, one at a time, and reports each kind's p50 and p99, which
//     should match (the answer does not tell them apart);
//   - throughput: -writers concurrent requests for -burst, for known
//     addresses, reported in requests a second with p50 and p99;
//   - steady: -rate requests a second for -duration, for known addresses,
//     and the answers' p50 and p99: run it with the mail server up and
//     down, at a rate the machine keeps up with, to see that an answer does
//     not wait for SMTP (throughput at saturation also counts the CPU the
//     mail worker spends sending, which only an up server costs);
//   - delay: -rate requests a second for -duration, each for an account of
//     its own, and the delay from each request to its mail's arrival in
//     Mailpit (p50, p99).
//
// Run throughput with the mail server up and down (stop Mailpit, or point
// MAIL_PORT at a closed port) to see that no request waits for SMTP. The
// server needs PASSWORD_RESET_THROTTLE=0, or each account gets one mail a
// minute and the rest are dropped by the throttle. Measure the delay on
// its own (-skip throughput), with the outbox drained: the thousands of
// mails a throughput run enqueues would be ahead of the measured ones.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	base     = flag.String("base", "http://127.0.0.1:3000", "the server's base URL")
	mailpit  = flag.String("mailpit", "http://127.0.0.1:8025", "Mailpit's API base URL; empty skips the delay measurement")
	accounts = flag.Int("accounts", 600, "accounts to register")
	writers  = flag.Int("writers", 8, "concurrent requests of the throughput measurement")
	burst    = flag.Duration("burst", 5*time.Second, "how long the throughput measurement runs")
	rate     = flag.Int("rate", 50, "requests a second of the delay measurement")
	duration = flag.Duration("duration", 10*time.Second, "how long the delay measurement runs")
	skip     = flag.String("skip", "", "measurements to leave out, a comma list of answers, throughput, steady and delay")
)

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mail:", err)
		os.Exit(1)
	}
}

// skipped says whether -skip names the measurement.
func skipped(name string) bool { return slices.Contains(strings.Split(*skip, ","), name) }

func run() error {
	prefix := fmt.Sprintf("b%d", time.Now().UnixNano())
	emails := make([]string, *accounts)
	for i := range emails {
		emails[i] = fmt.Sprintf("%s-%d@example.com", prefix, i)
		if status, err := post("/api/v1/register", map[string]string{
			"name": "Bench", "email": emails[i], "password": "password1", "password_confirmation": "password1",
		}); err != nil || status != http.StatusCreated {
			return fmt.Errorf("register %s: %d %v", emails[i], status, err)
		}
	}
	if !skipped("answers") {
		var known, unknown []time.Duration
		for i := range 200 {
			k, err := forgot(emails[i%len(emails)])
			if err != nil {
				return err
			}
			// The mail the known address made is sent meanwhile; the
			// pause keeps that work out of the next measurement.
			time.Sleep(20 * time.Millisecond)
			u, err := forgot(fmt.Sprintf("%s-nobody-%d@example.com", prefix, i))
			if err != nil {
				return err
			}
			known, unknown = append(known, k), append(unknown, u)
			time.Sleep(20 * time.Millisecond)
		}
		fmt.Printf("answers: known p50 %v p99 %v; unknown p50 %v p99 %v\n", pct(known, 50), pct(known, 99), pct(unknown, 50), pct(unknown, 99))
	}
	if !skipped("throughput") {
		var n atomic.Int64
		var mu sync.Mutex
		var took []time.Duration
		stop := time.Now().Add(*burst)
		var wg sync.WaitGroup
		for w := range *writers {
			wg.Go(func() {
				for i := w; time.Now().Before(stop); i += *writers {
					d, err := forgot(emails[i%len(emails)])
					if err != nil {
						fmt.Fprintln(os.Stderr, err)
						return
					}
					n.Add(1)
					mu.Lock()
					took = append(took, d)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		fmt.Printf("throughput: %.0f requests/s, p50 %v p99 %v (%d writers, %v)\n",
			float64(n.Load())/burst.Seconds(), pct(took, 50), pct(took, 99), *writers, *burst)
	}
	if !skipped("steady") {
		steady(emails)
	}
	if !skipped("delay") && *mailpit != "" {
		return delay(prefix)
	}
	return nil
}

// steady sends -rate requests a second for -duration, for known addresses
// in turn, and reports how long the answers took.
func steady(emails []string) {
	total := int(duration.Seconds() * float64(*rate))
	took := make([]time.Duration, total)
	failed := atomic.Int64{}
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	defer tick.Stop()
	var wg sync.WaitGroup
	for i := range total {
		<-tick.C
		wg.Go(func() {
			d, err := forgot(emails[i%len(emails)])
			if err != nil {
				failed.Add(1)
				fmt.Fprintln(os.Stderr, err)
			}
			took[i] = d
		})
	}
	wg.Wait()
	fmt.Printf("steady: %d requests at %d/s for %v, %d failed; answer p50 %v p99 %v\n",
		total, *rate, *duration, failed.Load(), pct(took, 50), pct(took, 99))
}

// delay sends -rate requests a second for accounts of their own, then
// matches each to its mail in Mailpit by address.
func delay(prefix string) error {
	if err := call("DELETE", *mailpit+"/api/v1/messages", nil); err != nil {
		return err
	}
	total := int(duration.Seconds() * float64(*rate))
	emails := make([]string, total)
	for i := range emails {
		emails[i] = fmt.Sprintf("%s-d%d@example.com", prefix, i)
		if status, err := post("/api/v1/register", map[string]string{
			"name": "Bench", "email": emails[i], "password": "password1", "password_confirmation": "password1",
		}); err != nil || status != http.StatusCreated {
			return fmt.Errorf("register %s: %d %v", emails[i], status, err)
		}
	}
	sent := make([]time.Time, total)
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	defer tick.Stop()
	var wg sync.WaitGroup
	for i := range total {
		<-tick.C
		wg.Go(func() {
			sent[i] = time.Now()
			if _, err := forgot(emails[i]); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		})
	}
	wg.Wait()
	wanted := map[string]bool{}
	for _, e := range emails {
		wanted[e] = true
	}
	arrived := map[string]time.Time{}
	deadline := time.Now().Add(30 * time.Second)
	for len(arrived) < total && time.Now().Before(deadline) {
		var list struct {
			Messages []struct {
				To      []struct{ Address string }
				Subject string
				Created time.Time
			} `json:"messages"`
		}
		if err := get(*mailpit+fmt.Sprintf("/api/v1/messages?limit=%d", 2*total+1000), &list); err != nil {
			return err
		}
		for _, m := range list.Messages {
			// Registration mails a verification link to the same
			// address; only the reset mail is measured.
			if len(m.To) == 1 && wanted[m.To[0].Address] && strings.Contains(m.Subject, "reset your password") {
				arrived[m.To[0].Address] = m.Created
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	var delays []time.Duration
	for i, e := range emails {
		if at, ok := arrived[e]; ok {
			delays = append(delays, at.Sub(sent[i]))
		}
	}
	fmt.Printf("delay: %d of %d mails arrived; request to arrival p50 %v p99 %v (%d/s for %v)\n",
		len(delays), total, pct(delays, 50), pct(delays, 99), *rate, *duration)
	return nil
}

func forgot(email string) (time.Duration, error) {
	began := time.Now()
	status, err := post("/api/v1/forgot-password", map[string]string{"email": email})
	if err != nil || status != http.StatusOK {
		return 0, fmt.Errorf("forgot-password %s: %d %v", email, status, err)
	}
	return time.Since(began), nil
}

func post(path string, body any) (int, error) {
	b, _ := json.Marshal(body)
	resp, err := client.Post(*base+path, "application/json", bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func call(method, url string, body io.Reader) error {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

func get(url string, out any) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

// pct is the p-th percentile of ds, rounded to 0.1 ms.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)].Round(100 * time.Microsecond)
}
