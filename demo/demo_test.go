package demo

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
)

var until = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

func plan(users, tags, posts, comments int) Plan {
	return Plan{Users: users, Tags: tags, Posts: posts, Comments: comments, Seed: 1, Until: until, PasswordHash: "$2a$04$hash"}
}

func TestDeterministic(t *testing.T) {
	a, b := plan(50, 30, 200, 600), plan(50, 30, 200, 600)
	for i := range 50 {
		if got, want := a.User(i), b.User(i); got != want {
			t.Fatalf("User(%d): got %+v, then %+v", i, got, want)
		}
	}
	for i := range 30 {
		if got, want := a.Tag(i), b.Tag(i); got != want {
			t.Fatalf("Tag(%d): got %+v, then %+v", i, got, want)
		}
	}
	// Rows depend on their number only, not on the rows generated before.
	for _, i := range []int{199, 0, 57, 57, 3} {
		if got, want := a.Post(i), b.Post(i); !reflect.DeepEqual(got, want) {
			t.Fatalf("Post(%d): got %+v, then %+v", i, got, want)
		}
	}
	for i := range 600 {
		if got, want := a.Comment(i), b.Comment(i); got != want {
			t.Fatalf("Comment(%d): got %+v, then %+v", i, got, want)
		}
	}
	other := a
	other.Seed = 2
	same := 0
	for i := range 200 {
		if other.Post(i).Title == a.Post(i).Title {
			same++
		}
	}
	if same > 2 {
		t.Errorf("another seed gave %d of 200 titles again", same)
	}
}

func TestPosts(t *testing.T) {
	const n = 20000
	p := plan(500, 200, n, 0)
	slugs := make(map[string]bool, n)
	var published, search, tagged, bodyBytes int
	var prev time.Time
	authors := make([]int, p.Users)
	tagUse := make([]int, p.Tags)
	for i := range n {
		post := p.Post(i)
		if slugs[post.Slug] {
			t.Fatalf("post %d: slug %q taken", i, post.Slug)
		}
		slugs[post.Slug] = true
		if want := domain.Slugify(post.Title); !strings.HasPrefix(post.Slug, want+"-") {
			t.Fatalf("post %d: slug %q does not start with %q", i, post.Slug, want)
		}
		if post.Excerpt != domain.Excerpt(post.Body) {
			t.Fatalf("post %d: excerpt %q is not domain.Excerpt of the body", i, post.Excerpt)
		}
		if words := len(strings.Fields(post.Title)); words < 4 || words > 9 {
			t.Fatalf("post %d: title %q has %d words, want 4-9", i, post.Title, words)
		}
		if strings.Contains(strings.ToLower(post.Title), SearchWord) {
			search++
		}
		if !post.CreatedAt.After(prev) || post.CreatedAt.Before(until.Add(-Span)) || !post.CreatedAt.Before(until) {
			t.Fatalf("post %d: created_at %v after %v, want increasing within the year before %v", i, post.CreatedAt, prev, until)
		}
		prev = post.CreatedAt
		if post.CreatedAt.Nanosecond()%1000 != 0 {
			t.Fatalf("post %d: created_at %v is not whole microseconds", i, post.CreatedAt)
		}
		switch post.Status {
		case domain.StatusPublished:
			published++
			if post.PublishedAt == nil || post.PublishedAt.Before(post.CreatedAt) || post.PublishedAt.After(until) || !post.UpdatedAt.Equal(*post.PublishedAt) {
				t.Fatalf("post %d: published at %v, created %v, updated %v", i, post.PublishedAt, post.CreatedAt, post.UpdatedAt)
			}
		case domain.StatusDraft:
			if post.PublishedAt != nil || post.UpdatedAt.Before(post.CreatedAt) || post.UpdatedAt.After(until) {
				t.Fatalf("draft %d: published at %v, created %v, updated %v", i, post.PublishedAt, post.CreatedAt, post.UpdatedAt)
			}
		default:
			t.Fatalf("post %d: status %q", i, post.Status)
		}
		if len(post.Tags) > MaxTagsPerPost {
			t.Fatalf("post %d: %d tags", i, len(post.Tags))
		}
		for k, tag := range post.Tags {
			if tag < 0 || tag >= p.Tags || (k > 0 && tag <= post.Tags[k-1]) {
				t.Fatalf("post %d: tags %v, want distinct ascending tag numbers", i, post.Tags)
			}
			tagUse[tag]++
		}
		tagged += len(post.Tags)
		bodyBytes += len(post.Body)
		authors[post.Author]++
	}
	near := func(what string, got, want, tolerance float64) {
		t.Helper()
		if math.Abs(got-want) > tolerance {
			t.Errorf("%s: got %.4f, want %.4f ± %.4f", what, got, want, tolerance)
		}
	}
	near("published share", float64(published)/n, PublishedShare, 0.01)
	near("share of titles with the search word", float64(search)/n, SearchWordShare, 0.002)
	near("tags per post", float64(tagged)/n, 2.05, 0.05)
	if avg := bodyBytes / n; avg < 200 || avg > 800 {
		t.Errorf("average body: got %d bytes, want a few hundred", avg)
	}
	if tagged != p.Links() {
		t.Errorf("Links: got %d, want %d", p.Links(), tagged)
	}
	if got, want := p.Rows(), p.Users+p.Tags+n+tagged; got != want {
		t.Errorf("Rows: got %d, want %d", got, want)
	}
	// Popular authors and tags exist, and so does a long tail.
	if authors[0] < 5*n/p.Users || tagUse[0] < 5*tagged/p.Tags {
		t.Errorf("first author wrote %d posts, first tag is on %d: want a skew", authors[0], tagUse[0])
	}
	if tagUse[p.Tags-1] == 0 {
		t.Error("the last tag is never used")
	}
}

func TestUsersAndTags(t *testing.T) {
	p := plan(3000, 500, 0, 0)
	emails := map[string]bool{}
	var prev time.Time
	for i := range p.Users {
		u := p.User(i)
		key := domain.EmailKey(u.Email)
		if emails[key] || !strings.HasSuffix(key, "@example.com") {
			t.Fatalf("user %d: e-mail %q repeated or not at example.com", i, u.Email)
		}
		emails[key] = true
		if u.Name == "" || u.PasswordHash != p.PasswordHash || !u.CreatedAt.After(prev) || !u.CreatedAt.Before(until.Add(-Span)) {
			t.Fatalf("user %d: %+v", i, u)
		}
		prev = u.CreatedAt
	}
	if got := p.User(122).Email; got != "user123@example.com" {
		t.Errorf("User(122).Email: got %q, want user123@example.com", got)
	}
	names, slugs := map[string]bool{}, map[string]bool{}
	for i := range p.Tags {
		tag := p.Tag(i)
		if names[strings.ToLower(tag.Name)] || slugs[tag.Slug] || tag.Slug != domain.Slugify(tag.Name) {
			t.Fatalf("tag %d: %+v repeats a name or slug", i, tag)
		}
		names[strings.ToLower(tag.Name)], slugs[tag.Slug] = true, true
		if !tag.CreatedAt.Before(until.Add(-Span)) {
			t.Fatalf("tag %d: created %v, after the first posts", i, tag.CreatedAt)
		}
	}
}

func TestComments(t *testing.T) {
	p := plan(100, 10, 1000, 3000)
	onDrafts, perPost := 0, map[int]int{}
	users := map[int]bool{}
	for i := range p.Comments {
		c := p.Comment(i)
		post := p.Post(c.Post)
		if post.Status != domain.StatusPublished {
			onDrafts++
			continue
		}
		if c.CreatedAt.Before(*post.PublishedAt) || c.CreatedAt.After(until) || c.Body == "" || c.UpdatedAt != c.CreatedAt {
			t.Fatalf("comment %d: %+v on a post published %v", i, c, post.PublishedAt)
		}
		perPost[c.Post]++
		users[c.User] = true
	}
	if onDrafts > 0 {
		t.Errorf("%d comments on drafts, want none while published posts exist", onDrafts)
	}
	if len(perPost) < 700 || len(users) < 90 {
		t.Errorf("comments spread over %d posts by %d users, want most published posts and most users", len(perPost), len(users))
	}

	// With drafts only, the authors comment on their own drafts.
	drafts := plan(3, 0, 2, 20)
	drafts.Seed = seedWithDraftsOnly(t, drafts)
	for i := range drafts.Comments {
		c := drafts.Comment(i)
		if post := drafts.Post(c.Post); c.User != post.Author || c.CreatedAt.Before(post.CreatedAt) {
			t.Fatalf("comment %d on draft %+v: %+v", i, post, c)
		}
	}
}

// seedWithDraftsOnly finds a seed whose posts are all drafts.
func seedWithDraftsOnly(t *testing.T, p Plan) uint64 {
	for seed := range uint64(10000) {
		p.Seed = seed
		all := true
		for i := range p.Posts {
			all = all && p.Post(i).Status == domain.StatusDraft
		}
		if all {
			return seed
		}
	}
	t.Fatal("no seed gives drafts only")
	return 0
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		plan Plan
		ok   bool
	}{
		{"defaults", plan(10, 20, 50, 150), true},
		{"nothing", plan(0, 0, 0, 0), true},
		{"tags only", plan(0, 5, 0, 0), true},
		{"negative", plan(-1, 0, 0, 0), false},
		{"posts without users", plan(0, 5, 5, 0), false},
		{"comments without posts", plan(5, 5, 0, 5), false},
		{"no hash", Plan{Users: 1, Until: until}, false},
		{"no time", Plan{Tags: 1}, false},
	} {
		if err := tc.plan.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: got %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func BenchmarkPost(b *testing.B) {
	p := plan(10000, 200, 1000000, 3000000)
	for i := 0; b.Loop(); i++ {
		_ = p.Post(i % p.Posts)
	}
}

func BenchmarkComment(b *testing.B) {
	p := plan(10000, 200, 1000000, 3000000)
	for i := 0; b.Loop(); i++ {
		_ = p.Comment(i % p.Comments)
	}
}

func TestStream(t *testing.T) {
	for _, n := range []int{0, 1, streamChunk, 3*streamChunk + 17} {
		s := NewStream(n, func(i int) int { return i * i })
		for i := range n {
			got, ok := s.Next()
			if !ok || got != i*i {
				t.Fatalf("n=%d: row %d: got %d, %v; want %d", n, i, got, ok, i*i)
			}
		}
		if _, ok := s.Next(); ok {
			t.Fatalf("n=%d: a row after the last", n)
		}
		s.Close()
	}
	// A reader that stops early closes the stream without waiting for the
	// rest to be generated.
	s := NewStream(1<<30, func(i int) int { return i })
	if got, _ := s.Next(); got != 0 {
		t.Fatalf("first row: got %d", got)
	}
	s.Close()
}
