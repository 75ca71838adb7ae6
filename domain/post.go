package domain

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// PostStatus is where a post stands in its lifecycle.
type PostStatus string

// The statuses a post can have.
const (
	StatusDraft     PostStatus = "draft"
	StatusPublished PostStatus = "published"
)

// Statuses lists every status, in the order the in rule names them.
var Statuses = []string{string(StatusDraft), string(StatusPublished)}

// transitions is the table of allowed status changes. Staying put is always
// allowed; today every other move is allowed too, and the table is where a
// new status (say "archived") would say which moves it permits.
var transitions = map[PostStatus][]PostStatus{
	StatusDraft:     {StatusPublished},
	StatusPublished: {StatusDraft},
}

// ErrInvalidTransition is returned when a post can't move to a status: the
// status is not among those the post may take.
var ErrInvalidTransition = &Error{Kind: Invalid, Code: "invalid_transition",
	Fields: []Violation{{"status", RuleOf(RuleIn, Statuses...)}}}

// ErrSlugTaken is the conflict of two posts with one slug; the use case
// picks another and tries again.
var ErrSlugTaken = &Error{Kind: Conflict, Code: "slug_taken"}

// Bounds of a post's text, in characters.
const MaxTitleLength = 255

// ExcerptLength is how many characters of the body an excerpt keeps.
const ExcerptLength = 150

// Post is an article by one author. Its fields carry invariants (slug,
// excerpt and published_at follow from title, body and status), so they
// change only through methods.
type Post struct {
	id          int64
	authorID    int64
	title       string
	slug        string
	excerpt     string
	body        string
	status      PostStatus
	imagePath   string
	publishedAt *time.Time
	createdAt   time.Time
	updatedAt   time.Time
}

// NewPost starts a post by authorID at now. The slug is the title's; the
// store's uniqueness check may make the use case ask for WithSlugSuffix.
// Every field that breaks a rule is reported at once: the title is required
// and at most MaxTitleLength characters, the body required, the status one
// of Statuses.
func NewPost(authorID int64, title, body string, status PostStatus, now time.Time) (Post, error) {
	var vs Violations
	vs.Add("title", CheckTitle(title))
	vs.Add("body", CheckBody(body))
	vs.Add("status", CheckStatus(status))
	if err := vs.Err(); err != nil {
		return Post{}, err
	}
	p := Post{authorID: authorID, title: title, slug: Slugify(title), status: StatusDraft, createdAt: now, updatedAt: now}
	p.setBody(body)
	if err := p.SetStatus(status, now); err != nil {
		return Post{}, err
	}
	return p, nil
}

// CheckTitle returns the rules a post title breaks: required, and at most
// MaxTitleLength characters.
func CheckTitle(title string) []Rule {
	return checkText(title, MaxTitleLength)
}

// CheckBody returns the rules a post body breaks: it is required.
func CheckBody(body string) []Rule {
	if strings.TrimSpace(body) == "" {
		return []Rule{RuleRequired}
	}
	return nil
}

// CheckStatus returns the rules a post status breaks: required, and one of
// Statuses.
func CheckStatus(status PostStatus) []Rule {
	switch {
	case strings.TrimSpace(string(status)) == "":
		return []Rule{RuleRequired}
	case !slices.Contains(Statuses, string(status)):
		return []Rule{RuleOf(RuleIn, Statuses...)}
	}
	return nil
}

// PostState is every stored field of a post, for adapters that persist one.
type PostState struct {
	ID          int64
	AuthorID    int64
	Title       string
	Slug        string
	Excerpt     string
	Body        string
	Status      PostStatus
	ImagePath   string
	PublishedAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// RestorePost rebuilds a post from its stored state. It is for store
// adapters only: it checks nothing, because the state was valid when saved.
func RestorePost(s PostState) Post {
	return Post{
		id: s.ID, authorID: s.AuthorID, title: s.Title, slug: s.Slug, excerpt: s.Excerpt, body: s.Body,
		status: s.Status, imagePath: s.ImagePath, publishedAt: s.PublishedAt, createdAt: s.CreatedAt, updatedAt: s.UpdatedAt,
	}
}

// State returns the post's fields for storing.
func (p Post) State() PostState {
	return PostState{
		ID: p.id, AuthorID: p.authorID, Title: p.title, Slug: p.slug, Excerpt: p.excerpt, Body: p.body,
		Status: p.status, ImagePath: p.imagePath, PublishedAt: p.publishedAt, CreatedAt: p.createdAt, UpdatedAt: p.updatedAt,
	}
}

func (p Post) ID() int64               { return p.id }
func (p Post) AuthorID() int64         { return p.authorID }
func (p Post) Title() string           { return p.title }
func (p Post) Slug() string            { return p.slug }
func (p Post) Excerpt() string         { return p.excerpt }
func (p Post) Body() string            { return p.body }
func (p Post) Status() PostStatus      { return p.status }
func (p Post) ImagePath() string       { return p.imagePath }
func (p Post) PublishedAt() *time.Time { return p.publishedAt }
func (p Post) CreatedAt() time.Time    { return p.createdAt }
func (p Post) UpdatedAt() time.Time    { return p.updatedAt }
func (p Post) IsPublished() bool       { return p.status == StatusPublished }
func (p *Post) SetID(id int64)         { p.id = id }

// WithSlugSuffix returns the post with slug "<base>-n", for the n-th post
// of the same title (n ≥ 2).
func (p Post) WithSlugSuffix(n int) Post {
	p.slug = fmt.Sprintf("%s-%d", Slugify(p.title), n)
	return p
}

// Retitle changes the title. The slug is kept, so links stay valid. A
// title that breaks CheckTitle's rules changes nothing.
func (p *Post) Retitle(title string, now time.Time) error {
	if rules := CheckTitle(title); rules != nil {
		return InvalidField("title", rules...)
	}
	p.title = title
	p.updatedAt = now
	return nil
}

// Rewrite changes the body and recomputes the excerpt. A blank body
// changes nothing.
func (p *Post) Rewrite(body string, now time.Time) error {
	if rules := CheckBody(body); rules != nil {
		return InvalidField("body", rules...)
	}
	p.setBody(body)
	p.updatedAt = now
	return nil
}

func (p *Post) setBody(body string) {
	p.body = body
	p.excerpt = Excerpt(body)
}

// SetStatus moves the post to status at now. Publishing stamps
// published_at; going back to draft clears it, since a draft is not
// published.
func (p *Post) SetStatus(status PostStatus, now time.Time) error {
	if status == p.status {
		return nil
	}
	allowed := false
	for _, s := range transitions[p.status] {
		allowed = allowed || s == status
	}
	if !allowed {
		return ErrInvalidTransition
	}
	p.status = status
	p.updatedAt = now
	if status == StatusPublished {
		at := now
		p.publishedAt = &at
	} else {
		p.publishedAt = nil
	}
	return nil
}

// SetImage sets (or, with "", clears) the stored image's path.
func (p *Post) SetImage(path string, now time.Time) {
	p.imagePath = path
	p.updatedAt = now
}

// VisibleTo reports whether viewer (0 for an anonymous caller) may see the
// post: published posts are public, drafts only their author's.
func (p Post) VisibleTo(viewer int64) bool {
	return p.status == StatusPublished || (viewer != 0 && viewer == p.authorID)
}

// CanEdit is the update, publish and delete policy: the author may, and
// an admin acting by admin right.
func (p Post) CanEdit(actor Acting) bool {
	return actor.MayChange(p.authorID)
}

// Excerpt is the body without HTML tags, whitespace collapsed, cut to
// ExcerptLength characters with "..." when cut.
func Excerpt(body string) string {
	var b strings.Builder
	inTag, space := false, false
	for _, r := range body {
		switch {
		case r == '<':
			inTag = true
		case r == '>' && inTag:
			inTag = false
		case inTag:
		case unicode.IsSpace(r):
			space = true
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
	}
	text := b.String()
	if utf8.RuneCountInString(text) <= ExcerptLength {
		return text
	}
	runes := []rune(text)
	return strings.TrimRight(string(runes[:ExcerptLength]), " ") + "..."
}

// Slugify makes a URL slug from a title as Laravel's Str::slug does: letters
// folded to lower-case ASCII, everything else turned into single dashes. A
// title with nothing left gives "post".
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		for _, f := range fold(r) {
			switch {
			case f >= 'a' && f <= 'z', f >= '0' && f <= '9':
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				dash = false
				b.WriteRune(f)
			default:
				dash = true
			}
		}
	}
	if b.Len() == 0 {
		return "post"
	}
	s := b.String()
	if len(s) > 200 {
		s = strings.TrimRight(s[:200], "-")
	}
	return s
}

// fold lower-cases r and spells common Latin letters with diacritics in
// ASCII; other runes come back lower-cased and are dropped by Slugify.
func fold(r rune) string {
	if r < utf8.RuneSelf {
		return string(unicode.ToLower(r))
	}
	if s, ok := asciiFold[unicode.ToLower(r)]; ok {
		return s
	}
	return string(unicode.ToLower(r))
}

var asciiFold = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ð': "d", 'þ': "th", 'ł': "l", 'ı': "i"}
	groups := map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ď", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįǐ", "j": "ĵ", "k": "ķ", "l": "ĺļľŀ", "n": "ñńņňŉ", "o": "òóôõöōŏőǒ",
		"r": "ŕŗř", "s": "śŝşšș", "t": "ţťŧț", "u": "ùúûüũūŭůűųǔ", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	}
	for ascii, letters := range groups {
		for _, r := range letters {
			m[r] = ascii
		}
	}
	return m
}()

// MaxPostTags bounds the tags of one post, so that one request cannot make
// a post carry a whole taxonomy.
const MaxPostTags = 100

// CheckPostTags returns the rules a post's list of tag ids breaks: at most
// MaxPostTags. Whether each names a tag is the store's to say.
func CheckPostTags(ids []int64) []Rule {
	if len(ids) > MaxPostTags {
		return []Rule{RuleN(RuleMaxItems, MaxPostTags)}
	}
	return nil
}
