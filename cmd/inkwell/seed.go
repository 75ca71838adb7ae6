package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/demo"
)

var seedCommand = &command{
	name:     "seed",
	synopsis: "inkwell seed [--users N] [--posts N] [--comments N] [--tags N] [--seed S]",
	summary:  "fill an empty store with demo data",
	about: fmt.Sprintf(`Fills an empty database with generated users, tags, posts and comments, for
demos and benchmarks. It refuses a database that already holds users, tags,
posts or comments, rather than adding to them: seed a fresh database.

The users are user1@example.com, user2@example.com, ..., all with the password
"password" (hashed once, at BCRYPT_COST). About 85%% of the posts are
published; they were created over the past year, carry 0-4 tags (about 2 on
average), and about 1%% of their titles contain the word %q. The comments
are spread over the published posts, by random users. The same flags give the
same rows, with times counted back from midnight UTC of the day of the run.

PostgreSQL loads everything in one transaction (all or nothing) that locks the
users, tags, posts, post_tags and comments tables until it commits. SQLite
commits every 10,000 rows or so, so that a running server can write in
between; an interrupted load keeps what it committed.`, demo.SearchWord),
	store:  storeCreate,
	define: defineSeed,
}

// seedDefaultCommentsPerPost is how many comments per post --comments
// defaults to, the proportion the benchmarks assume.
const seedDefaultCommentsPerPost = 3

// defineSeed declares seed's flags; the plan they describe is checked before
// the store opens.
func defineSeed(fs *flag.FlagSet) func() (action, error) {
	users := fs.Int("users", 10, "`number` of users")
	posts := fs.Int("posts", 50, "`number` of posts")
	comments := fs.Int("comments", 0, "`number` of comments in all (default 3 × posts)")
	tags := fs.Int("tags", 20, "`number` of tags")
	seedValue := fs.Uint64("seed", 1, "selects the generated data")
	return func() (action, error) {
		commentsGiven := false
		fs.Visit(func(f *flag.Flag) { commentsGiven = commentsGiven || f.Name == "comments" })
		if !commentsGiven {
			*comments = seedDefaultCommentsPerPost * *posts
		}
		plan := demo.Plan{
			Users: *users, Tags: *tags, Posts: *posts, Comments: *comments, Seed: *seedValue,
			Until: time.Now().UTC().Truncate(24 * time.Hour),
			// Validate runs before the store opens and the password is
			// hashed; seed puts the real hash in its place.
			PasswordHash: "-",
		}
		if err := plan.Validate(); err != nil {
			return nil, err
		}
		return func(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
			return seed(ctx, cfg, log, plan, out)
		}, nil
	}
}

// seed loads plan into the store.
func seed(ctx context.Context, cfg environment, log *slog.Logger, plan demo.Plan, out io.Writer) error {
	// An interrupt cancels the load, which rolls back what it has not
	// committed.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	svc, cleanup, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer cleanup()
	seeder, ok := svc.Store.(demo.Seeder)
	if !ok {
		return fmt.Errorf("seed: the %T store cannot be seeded", svc.Store)
	}
	if plan.PasswordHash, err = passwords.NewBcrypt(cfg.service().Passwords).Hash(demo.Password); err != nil {
		return err
	}

	bar := newProgressBar(os.Stderr)
	start := time.Now()
	err = seeder.Seed(ctx, plan, bar.update)
	bar.finish(err == nil)
	if errors.Is(err, demo.ErrNotEmpty) {
		return errors.New("seed: the database already holds users, tags, posts or comments; seed fills an empty database only (create a fresh one, or point DATABASE_URL at another)")
	}
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	elapsed := time.Since(start)
	rows := plan.Rows()
	links := rows - plan.Users - plan.Tags - plan.Posts - plan.Comments
	fmt.Fprintf(out, "seeded %d users, %d tags, %d posts with %d tag links, %d comments: %d rows in %s (%.0f rows/s)\n",
		plan.Users, plan.Tags, plan.Posts, links, plan.Comments, rows,
		elapsed.Round(time.Millisecond), float64(rows)/elapsed.Seconds())
	return nil
}

// progressBar shows a seeding's progress on w: a bar redrawn in place when w
// is a terminal, otherwise a plain line every progressEvery, so that a log
// file gets a few lines rather than thousands of redraws.
type progressBar struct {
	w        io.Writer
	terminal bool
	start    time.Time
	last     time.Time
	done     int
	total    int
	drawn    bool
}

const (
	progressRedraw = 100 * time.Millisecond
	progressEvery  = 5 * time.Second
	progressWidth  = 30
)

func newProgressBar(f *os.File) *progressBar {
	fi, err := f.Stat()
	now := time.Now()
	return &progressBar{w: f, terminal: err == nil && fi.Mode()&os.ModeCharDevice != 0, start: now, last: now}
}

// update is the progress callback of demo.Seeder.
func (p *progressBar) update(done, total int) {
	p.done, p.total = done, total
	now := time.Now()
	switch {
	case p.terminal && (now.Sub(p.last) >= progressRedraw || done == total):
		p.last = now
		suffix := ""
		if done == total && total > 0 {
			// The store may still build indexes and commit.
			suffix = "  finishing…"
		}
		p.draw(now, suffix)
	case !p.terminal && now.Sub(p.last) >= progressEvery:
		p.last = now
		fmt.Fprintf(p.w, "seed: %s of %s rows (%d%%)\n", thousands(done), thousands(total), percent(done, total))
	}
}

func (p *progressBar) draw(now time.Time, suffix string) {
	filled := progressWidth * percent(p.done, p.total) / 100
	bar := strings.Repeat("█", filled) + strings.Repeat("░", progressWidth-filled)
	rate := float64(p.done) / max(now.Sub(p.start).Seconds(), 1e-3)
	line := fmt.Sprintf("\r%s %3d%%  %s/%s rows  %s rows/s", bar, percent(p.done, p.total), thousands(p.done), thousands(p.total), thousands(int(rate)))
	fmt.Fprint(p.w, line+suffix+"\033[K")
	p.drawn = true
}

// finish ends the bar's line, so that what follows starts on a new one.
func (p *progressBar) finish(ok bool) {
	if !p.drawn {
		return
	}
	if ok {
		p.done = p.total
		p.draw(time.Now(), "")
	}
	fmt.Fprintln(p.w)
}

func percent(done, total int) int {
	if total == 0 {
		return 100
	}
	return int(int64(done) * 100 / int64(total))
}

// thousands writes n with thousands separators: 1234567 → 1,234,567.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
