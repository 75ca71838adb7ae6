// Package demo generates demonstration and benchmark data, not part of the
// domain: users, tags, posts with their tag links, and comments, as plain
// values that any store adapter can write in bulk for `inkwell seed` and the
// benchmarks. It imports the standard library and domain only: it sits
// beside the core, which never imports it, and below the stores and
// cmd/inkwell, which do. It is production code (`inkwell seed` runs it), so
// it lives apart from the test harnesses under internal/.
//
// A Plan is a pure function of its fields: each row is computed from the
// plan's seed and the row's own number, never from the rows before it, so the
// same plan always yields the same rows, in any order and in parallel.
// References between rows are row numbers (User 0 is the first user), which
// the store translates to the ids it assigns.
package demo

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// The shape of the data. The figures are the ones benchmarks rely on, so
// they are constants rather than knobs.
const (
	// PublishedShare is the probability that a post is published; the rest
	// are drafts.
	PublishedShare = 0.85
	// SearchWord appears in about SearchWordShare of the titles and nowhere
	// else in any title, so that a benchmark can search for a rare word.
	SearchWord      = "inkwell"
	SearchWordShare = 0.01
	// MaxTagsPerPost bounds the tags of one post; tagCountWeights gives
	// their distribution, about two on average.
	MaxTagsPerPost = 4
	// Password is the password of every generated user.
	Password = "password"
	// Span is how far back from Plan.Until the posts and comments reach;
	// accounts and tags were created during signupSpan before that.
	Span       = 365 * 24 * time.Hour
	signupSpan = 30 * 24 * time.Hour
)

// tagCountWeights[k] is the weight of a post having k tags: a mean of 2.05.
var tagCountWeights = [MaxTagsPerPost + 1]float64{0.10, 0.25, 0.30, 0.20, 0.15}

// ErrNotEmpty is what a store answers when asked to seed content tables that
// already hold rows: the generated e-mails and slugs would collide with
// earlier ones, and a benchmark's figures would mean nothing.
var ErrNotEmpty = &domain.Error{Kind: domain.Conflict, Code: "seed_not_empty"}

// Plan describes the data to generate.
type Plan struct {
	Users, Tags, Posts, Comments int
	// Seed selects the data: the same plan with the same seed gives the
	// same rows.
	Seed uint64
	// Until is the newest time any row may carry. Posts are created over the
	// Span before it, in post order; comments follow their post.
	Until time.Time
	// PasswordHash is stored for every user. Hashing is the caller's
	// business (with the configured cost), and hashing once keeps a plan of
	// thousands of users from spending minutes in bcrypt.
	PasswordHash string
}

// Validate reports a plan that cannot be generated.
func (p Plan) Validate() error {
	switch {
	case p.Users < 0 || p.Tags < 0 || p.Posts < 0 || p.Comments < 0:
		return errors.New("demo plan: counts must not be negative")
	case p.Posts > 0 && p.Users == 0:
		return fmt.Errorf("demo plan: %d posts need at least one user to write them", p.Posts)
	case p.Comments > 0 && (p.Posts == 0 || p.Users == 0):
		return fmt.Errorf("demo plan: %d comments need at least one post and one user", p.Comments)
	case p.Users > 0 && p.PasswordHash == "":
		return errors.New("demo plan: the users need a password hash")
	case p.Until.IsZero():
		return errors.New("demo plan: Until is not set")
	}
	return nil
}

// Rows returns how many rows the plan writes in all, tag links included.
func (p Plan) Rows() int {
	return p.Users + p.Tags + p.Posts + p.Links() + p.Comments
}

// Links returns how many post-tag links the plan's posts carry.
func (p Plan) Links() int {
	n := 0
	for i := range p.Posts {
		_, h := p.postHead(i)
		n += len(h.tags)
	}
	return n
}

// User is a generated account.
type User struct {
	Name, Email, PasswordHash string
	EmailVerifiedAt           time.Time
	CreatedAt, UpdatedAt      time.Time
}

// Tag is a generated tag; UpdatedAt equals CreatedAt.
type Tag struct {
	Name, Slug string
	CreatedAt  time.Time
}

// Post is a generated post. Author is a user number and Tags are tag numbers,
// distinct and ascending.
type Post struct {
	Author                     int
	Title, Slug, Excerpt, Body string
	Status                     domain.PostStatus
	PublishedAt                *time.Time // nil for drafts
	CreatedAt, UpdatedAt       time.Time
	Tags                       []int
}

// Comment is a generated comment: Post and User are row numbers.
type Comment struct {
	Post, User           int
	Body                 string
	CreatedAt, UpdatedAt time.Time
}

// The streams keep the rows of each kind independent of the others.
const (
	streamUsers uint64 = iota + 1
	streamTags
	streamPosts
	streamComments
)

// rng returns the generator of row i of a stream. splitmix64 scatters
// neighbouring row numbers over the whole seed space, since PCG streams
// seeded with nearby values start out correlated.
func (p Plan) rng(stream uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix(p.Seed^stream<<56), splitmix(uint64(i)^stream<<60)))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// The timeline, in microseconds since the Unix epoch: the precision every
// store keeps, so that the rows read back exactly as generated.
func (p Plan) until() int64       { return p.Until.UnixMicro() }
func (p Plan) postsStart() int64  { return p.until() - Span.Microseconds() }
func (p Plan) signupStart() int64 { return p.postsStart() - signupSpan.Microseconds() }

func at(us int64) time.Time { return time.UnixMicro(us).UTC() }

// spread places row i of n in its own slot of span microseconds from start,
// at a random point of the slot: rows in order, at distinct times when the
// slots are at least a microsecond wide.
func spread(r *rand.Rand, start, span int64, i, n int) int64 {
	step := max(span/int64(n), 1)
	return start + int64(i)*step + r.Int64N(step)
}

// User returns user i: "user<i+1>@example.com", with a name that may repeat.
func (p Plan) User(i int) User {
	r := p.rng(streamUsers, i)
	created := spread(r, p.signupStart(), signupSpan.Microseconds()/2, i, p.Users)
	verified := created + r.Int64N(time.Hour.Microseconds())
	return User{
		Name:            firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))],
		Email:           "user" + strconv.Itoa(i+1) + "@example.com",
		PasswordHash:    p.PasswordHash,
		EmailVerifiedAt: at(verified),
		CreatedAt:       at(created),
		UpdatedAt:       at(verified),
	}
}

// Tag returns tag i. The first tags are single topics; past the list the
// topics come round again with a number ("Go 2"), so that names stay unique
// ignoring case, and so do slugs.
func (p Plan) Tag(i int) Tag {
	r := p.rng(streamTags, i)
	name := topics[i%len(topics)]
	if round := i / len(topics); round > 0 {
		name += " " + strconv.Itoa(round+1)
	}
	// Tags are made in the second half of the signup period, after the
	// first accounts.
	half := signupSpan.Microseconds() / 2
	return Tag{Name: name, Slug: domain.Slugify(name), CreatedAt: at(spread(r, p.signupStart()+half, half, i, p.Tags))}
}

// postHead is what the rest of a plan needs to know of post i without its
// text: comments need its status, author and times, Links its tags.
type postHead struct {
	author    int
	status    domain.PostStatus
	created   int64
	published int64 // 0 for drafts
	tags      []int
}

// postHead draws post i's head from the start of its generator and returns
// the generator for the text.
func (p Plan) postHead(i int) (*rand.Rand, postHead) {
	r := p.rng(streamPosts, i)
	h := postHead{status: domain.StatusDraft}
	h.created = spread(r, p.postsStart(), Span.Microseconds(), i, p.Posts)
	// Squaring a uniform number favours the first users: a few prolific
	// authors and a long tail, as on a real blog platform.
	u := r.Float64()
	h.author = min(int(u*u*float64(p.Users)), p.Users-1)
	if r.Float64() < PublishedShare {
		h.status = domain.StatusPublished
		h.published = h.created + r.Int64N(min(6*time.Hour.Microseconds(), p.until()-h.created)+1)
	}
	h.tags = p.pickTags(r)
	return r, h
}

// pickTags draws a post's tags, favouring the first tags as the authors
// favour the first users, so that a few tags are popular.
func (p Plan) pickTags(r *rand.Rand) []int {
	want, x := 0, r.Float64()
	for k, w := range tagCountWeights {
		if x < w {
			want = k
			break
		}
		x -= w
	}
	want = min(want, p.Tags)
	tags := make([]int, 0, want)
	for len(tags) < want {
		u := r.Float64()
		t := min(int(u*u*float64(p.Tags)), p.Tags-1)
		j := 0
		for j < len(tags) && tags[j] < t {
			j++
		}
		if j < len(tags) && tags[j] == t {
			continue // drawn already; draw again
		}
		tags = append(tags, 0)
		copy(tags[j+1:], tags[j:])
		tags[j] = t
	}
	return tags
}

// Post returns post i. Posts are created in post order over the Span before
// Until, so that the store's ids grow with created_at as they would in use.
// The slug is the title's with "-<i+1>" appended: vocabulary words hold no
// digits, so the suffix alone makes every slug unique.
func (p Plan) Post(i int) Post {
	r, h := p.postHead(i)
	title := p.title(r)
	body := paragraphs(r)
	post := Post{
		Author:    h.author,
		Title:     title,
		Slug:      domain.Slugify(title) + "-" + strconv.Itoa(i+1),
		Excerpt:   domain.Excerpt(body),
		Body:      body,
		Status:    h.status,
		CreatedAt: at(h.created),
		Tags:      h.tags,
	}
	if h.status == domain.StatusPublished {
		pub := at(h.published)
		post.PublishedAt = &pub
		post.UpdatedAt = pub
	} else {
		post.UpdatedAt = at(h.created + r.Int64N(min(48*time.Hour.Microseconds(), p.until()-h.created)+1))
	}
	return post
}

// title has 4 to 9 words, capitalised; about one in a hundred has
// SearchWord in place of one of them.
func (p Plan) title(r *rand.Rand) string {
	n := 4 + r.IntN(6)
	words := make([]string, n)
	for k := range words {
		words[k] = vocabulary[r.IntN(len(vocabulary))]
	}
	if r.Float64() < SearchWordShare {
		words[r.IntN(n)] = SearchWord
	}
	words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
	return strings.Join(words, " ")
}

// paragraphs writes a body of one to three HTML paragraphs, a few hundred
// bytes, so that excerpts have tags to strip and text to cut.
func paragraphs(r *rand.Rand) string {
	var b strings.Builder
	b.Grow(512)
	for range 1 + r.IntN(3) {
		b.WriteString("<p>")
		for s := range 2 + r.IntN(2) {
			if s > 0 {
				b.WriteByte(' ')
			}
			sentence(&b, r, 5+r.IntN(8))
		}
		b.WriteString("</p>\n")
	}
	return b.String()
}

// sentence writes n words, the first capitalised, and a full stop.
func sentence(b *strings.Builder, r *rand.Rand, n int) {
	for k := range n {
		w := vocabulary[r.IntN(len(vocabulary))]
		if k == 0 {
			b.WriteString(strings.ToUpper(w[:1]))
			b.WriteString(w[1:])
			continue
		}
		b.WriteByte(' ')
		b.WriteString(w)
	}
	b.WriteByte('.')
}

// Comment returns comment i, on a published post when it finds one (drafts
// are visible to their author only), by a random user, written some time
// between the post's publication and Until.
func (p Plan) Comment(i int) Comment {
	r := p.rng(streamComments, i)
	post := r.IntN(p.Posts)
	_, h := p.postHead(post)
	// About 15% of posts are drafts: a few draws find a published post
	// unless (in a tiny plan) there is none, and then the author comments
	// on their own draft.
	for try := 0; h.status != domain.StatusPublished && try < 16; try++ {
		post = r.IntN(p.Posts)
		_, h = p.postHead(post)
	}
	user, from := r.IntN(p.Users), h.published
	if h.status != domain.StatusPublished {
		user, from = h.author, h.created
	}
	created := from + r.Int64N(p.until()-from+1)
	var b strings.Builder
	for s := range 1 + r.IntN(3) {
		if s > 0 {
			b.WriteByte(' ')
		}
		sentence(&b, r, 4+r.IntN(10))
	}
	return Comment{Post: post, User: user, Body: b.String(), CreatedAt: at(created), UpdatedAt: at(created)}
}
