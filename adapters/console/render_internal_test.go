package console

import (
	"bytes"
	"net/url"
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
			Author: domain.User{ID: 42, Name: "Jade Vogel", Email: "jade@example.com"},
		}
	}
	data := page{Title: "Posts", CSRF: "token", Admin: "admin@example.com", Data: postsPage("", "", views,
		newPager(prefix+"/posts", url.Values{}, 1, 1_000_000, 0))}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := p["posts"].Execute(&buf, data); err != nil {
			b.Fatal(err)
		}
	}
}
