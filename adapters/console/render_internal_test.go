package console

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// BenchmarkRenderPosts renders a full page of the posts list, the
// console's heaviest template: go test -bench RenderPosts ./adapters/console
func BenchmarkRenderPosts(b *testing.B) {
	p := mustParsePages()
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	views := make([]ports.PostView, perPage)
	for i := range views {
		id := int64(1_000_000 - i)
		views[i] = ports.PostView{
			Post: domain.RestorePost(domain.PostState{ID: id, AuthorID: 42, Title: "A graceful worker's lazy snapshot", Slug: "a-graceful-worker",
				Body: strings.Repeat("body ", 200), Status: domain.StatusPublished, CreatedAt: at, UpdatedAt: at}),
			Author: domain.Author{ID: 42, Name: "Jade Vogel"},
		}
	}
	pg := newPager(prefix+"/posts", url.Values{}, 1, 1_000_000, false)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		data := page{Title: "Posts", CSRF: "token", Admin: "admin@example.com", Data: postsPage("", "", views, "token", pg)}
		buf.Reset()
		if err := p["posts"].Execute(&buf, data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPostRowsEscape: the rows written by hand escape what html/template
// would, in text and in attributes.
func TestPostRowsEscape(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	evil := "<script>alert('x')</script>\"&\x00"
	got := string(postRows([]ports.PostView{{
		Post:   domain.RestorePost(domain.PostState{ID: 7, AuthorID: 3, Title: evil, Status: domain.StatusPublished, CreatedAt: at}),
		Author: domain.Author{ID: 3, Name: evil},
	}}, `tok"en<`))
	const escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&#34;&amp;\uFFFD"
	if strings.Count(got, escaped) != 2 || strings.Contains(got, "<script") || strings.Contains(got, "\x00") {
		t.Errorf("title and name not escaped as text:\n%s", got)
	}
	if strings.Count(got, `value="tok&#34;en&lt;"`) != 2 {
		t.Errorf("the token not escaped as an attribute:\n%s", got)
	}
	for _, want := range []string{`id="post-7"`, `href="/admin/users/3"`, `action="/admin/posts/7/unpublish"`, `action="/admin/posts/7/delete"`, `2026-11-26 12:00:00`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in:\n%s", want, got)
		}
	}
}

// TestPostsPageEmpty: a page without posts says so, and one with posts
// does not.
func TestPostsPageEmpty(t *testing.T) {
	p := mustParsePages()
	pg := newPager(prefix+"/posts", url.Values{}, 1, 0, false)
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	one := []ports.PostView{{Post: domain.RestorePost(domain.PostState{ID: 1, Title: "t", Status: domain.StatusDraft, CreatedAt: at})}}
	for _, tc := range []struct {
		posts []ports.PostView
		empty bool
	}{{nil, true}, {one, false}} {
		var buf bytes.Buffer
		if err := p["posts"].Execute(&buf, page{Title: "Posts", CSRF: "token", Data: postsPage("", "", tc.posts, "token", pg)}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), "No post matches."); got != tc.empty {
			t.Errorf("%d posts: says none match %v, want %v", len(tc.posts), got, tc.empty)
		}
		if got := strings.Contains(buf.String(), `id="post-1"`); got == tc.empty {
			t.Errorf("%d posts: row shown %v", len(tc.posts), got)
		}
	}
}

// TestCountedPager: a list its use case counted exactly shows its pages;
// one counted only so far says "more than" the count it was given, with
// no page count, and links the page after the last counted row; the
// pager computes no bound of its own.
func TestCountedPager(t *testing.T) {
	p := mustParsePages()
	for _, tc := range []struct {
		name string
		list ports.Counted[ports.PostView]
		page int
		want string
		next bool
	}{
		{"empty", ports.Exact[ports.PostView](nil, 0), 1, "Page 1 of 1 (0 in all)", false},
		{"exact", ports.Exact[ports.PostView](nil, 120), 2, "Page 2 of 3 (120 in all)", true},
		{"exact, last page", ports.Exact[ports.PostView](nil, 120), 3, "Page 3 of 3 (120 in all)", false},
		{"more than", ports.Counted[ports.PostView]{Total: 200, AtLeast: true}, 1, "Page 1 (more than 200 in all)", true},
		{"more than, last counted page", ports.Counted[ports.PostView]{Total: 200, AtLeast: true}, 4, "Page 4 (more than 200 in all)", true},
		{"more than, from a bound", ports.CountedUpTo[ports.PostView](nil, 1001, 1000), 1, "Page 1 (more than 1000 in all)", true},
		{"within a bound", ports.CountedUpTo[ports.PostView](nil, 1000, 1000), 20, "Page 20 of 20 (1000 in all)", false},
	} {
		pg := countedPager(prefix+"/posts", url.Values{"q": {"note"}}, tc.page, tc.list)
		var buf bytes.Buffer
		if err := p["posts"].Execute(&buf, page{Title: "Posts", CSRF: "token", Data: postsPage("note", "", nil, "token", pg)}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, "<span>"+tc.want+"</span>") {
			t.Errorf("%s: no %q in the pager: %s", tc.name, tc.want, out[strings.Index(out, `class="pager"`):])
		}
		next := `href="/admin/posts?page=` + strconv.Itoa(tc.page+1) + `&amp;q=note" rel="next"`
		if got := strings.Contains(out, next); got != tc.next {
			t.Errorf("%s: links the next page %v, want %v", tc.name, got, tc.next)
		}
	}
}
