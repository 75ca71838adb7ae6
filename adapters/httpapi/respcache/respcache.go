// Package respcache keeps the answers of anonymous reads in the replica's
// memory, bounded by bytes, each filed under the tags of what it shows, so
// that the outbox's reader (ports.CacheEvictor) evicts exactly what an
// event changed. The routes say what their answers show (Tag) and which
// they must not keep (NoStore); the handler (Cache.Handler) keeps only
// whole 200 answers to a GET that carries no credential, and never serves
// a request that carries one.
package respcache

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/maypok86/otter/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/ports"
)

// The headers of cached routes.
const (
	HeaderXCache       = "X-Cache"
	HeaderSurrogateKey = "Surrogate-Key"
	Hit                = "HIT"
	Miss               = "MISS"
)

// Config holds the cache's settings.
type Config struct {
	// MaxBytes bounds the bytes the entries take (HTTP_CACHE_MAX_BYTES);
	// zero or less turns the cache off (New returns nil).
	MaxBytes int64
	// TTL is how long an entry lives at most (HTTP_CACHE_TTL), a backstop
	// for an eviction missed; a minute when zero. A shared cache in front
	// is told the same (s-maxage).
	TTL time.Duration
	// CredentialCookies are the cookies that make a request a credentialed
	// one, as the Authorization header does: such a request is neither
	// served from the cache nor kept in it.
	CredentialCookies []string
}

// Cache is the replica's cache of anonymous answers. It implements
// ports.CacheEvictor. A nil *Cache is an off one: its handler passes every
// request through untouched.
type Cache struct {
	cfg          Config
	entries      *otter.Cache[string, *entry]
	cacheControl string

	// mu guards the index of tags and the record of evictions. seq counts
	// evictions; evicted holds the seq of each tag's last one, and floor
	// the seq before which nothing is known (evicted was cleared): an
	// answer begun before an eviction of one of its tags is not kept, as
	// it may have read what the eviction was for before it committed.
	mu      sync.Mutex
	index   map[string]map[string]*entry
	seq     atomic.Uint64
	evicted map[string]uint64
	floor   uint64

	// The counts of Stats.
	hits, misses, bypasses, tagsEvicted atomic.Int64
}

// Stats are the cache's counts since it started, for /metrics.
type Stats struct {
	// Hits, Misses and Bypasses count the GETs of cached routes answered
	// from the cache, by the route for want of a kept answer, and by the
	// route because they carried a credential.
	Hits, Misses, Bypasses int64
	// TagsEvicted counts the tags evicted.
	TagsEvicted int64
	// Bytes and Entries are what the cache holds now.
	Bytes   uint64
	Entries int
}

// Stats returns the counts of rc; zero for an off cache.
func (rc *Cache) Stats() Stats {
	if rc == nil {
		return Stats{}
	}
	return Stats{
		Hits: rc.hits.Load(), Misses: rc.misses.Load(), Bypasses: rc.bypasses.Load(),
		TagsEvicted: rc.tagsEvicted.Load(), Bytes: rc.entries.WeightedSize(), Entries: rc.entries.EstimatedSize(),
	}
}

var _ ports.CacheEvictor = (*Cache)(nil)

// entry is one kept answer.
type entry struct {
	key         string
	body        []byte
	contentType string
	header      [][2]string
	etag        string
	tags        []string
	surrogate   string
}

// weight is what e costs in bytes, roughly: its content and the index's
// share of it.
func (e *entry) weight() uint32 {
	n := 256 + len(e.key) + len(e.body) + len(e.contentType) + len(e.etag) + 2*len(e.surrogate) + 64*len(e.tags)
	for _, h := range e.header {
		n += len(h[0]) + len(h[1]) + 32
	}
	return uint32(min(n, 1<<31))
}

// maxEvicted bounds the record of evictions; past it the record starts
// again from a floor.
const maxEvicted = 1 << 16

// New returns the cache cfg describes, nil when it is off.
func New(cfg Config) *Cache {
	if cfg.MaxBytes <= 0 {
		return nil
	}
	if cfg.TTL <= 0 {
		cfg.TTL = time.Minute
	}
	rc := &Cache{
		cfg:          cfg,
		index:        map[string]map[string]*entry{},
		evicted:      map[string]uint64{},
		cacheControl: "public, s-maxage=" + strconv.FormatInt(int64(max(cfg.TTL/time.Second, 1)), 10),
	}
	rc.entries = otter.Must(&otter.Options[string, *entry]{
		MaximumWeight:    uint64(cfg.MaxBytes),
		Weigher:          func(_ string, e *entry) uint32 { return e.weight() },
		ExpiryCalculator: otter.ExpiryWriting[string, *entry](cfg.TTL),
		OnDeletion:       func(d otter.DeletionEvent[string, *entry]) { rc.unindex(d.Value) },
	})
	return rc
}

// Enabled says whether rc keeps anything.
func (rc *Cache) Enabled() bool { return rc != nil }

// WeightedSize is the bytes the entries take now, as weighed.
func (rc *Cache) WeightedSize() uint64 {
	if rc == nil {
		return 0
	}
	return rc.entries.WeightedSize()
}

// CleanUp runs the cache's pending upkeep (evictions past the bound,
// expiries) now rather than at its next read or write.
func (rc *Cache) CleanUp() {
	if rc != nil {
		rc.entries.CleanUp()
	}
}

// Len is how many entries rc holds now.
func (rc *Cache) Len() int {
	if rc == nil {
		return 0
	}
	return rc.entries.EstimatedSize()
}

// Evict implements ports.CacheEvictor.
func (rc *Cache) Evict(tags []string) {
	if rc == nil || len(tags) == 0 {
		return
	}
	rc.tagsEvicted.Add(int64(len(tags)))
	var keys []string
	rc.mu.Lock()
	s := rc.seq.Add(1)
	for _, t := range tags {
		rc.evicted[t] = s
		for k := range rc.index[t] {
			keys = append(keys, k)
		}
		delete(rc.index, t)
	}
	if len(rc.evicted) > maxEvicted {
		clear(rc.evicted)
		rc.floor = s
	}
	rc.mu.Unlock()
	for _, k := range keys {
		rc.entries.Invalidate(k)
	}
}

// EvictAll implements ports.CacheEvictor.
func (rc *Cache) EvictAll() {
	if rc == nil {
		return
	}
	rc.mu.Lock()
	rc.floor = rc.seq.Add(1)
	clear(rc.evicted)
	clear(rc.index)
	rc.mu.Unlock()
	rc.entries.InvalidateAll()
}

// staleSince reports whether an answer begun at seq start and showing tags
// may hold what an eviction since was for. rc.mu is held.
func (rc *Cache) staleSince(tags []string, start uint64) bool {
	if start < rc.floor {
		return true
	}
	for _, t := range tags {
		if rc.evicted[t] > start {
			return true
		}
	}
	return false
}

// keep files e under its tags and keeps it, unless an eviction of one of
// its tags came after start, before or while it is kept.
func (rc *Cache) keep(e *entry, start uint64) {
	rc.mu.Lock()
	if rc.staleSince(e.tags, start) {
		rc.mu.Unlock()
		return
	}
	for _, t := range e.tags {
		m := rc.index[t]
		if m == nil {
			m = map[string]*entry{}
			rc.index[t] = m
		}
		m[e.key] = e
	}
	rc.mu.Unlock()
	rc.entries.Set(e.key, e)
	// An eviction between the filing and the Set found the key filed but
	// not yet kept; it is recorded, so the entry goes now.
	rc.mu.Lock()
	stale := rc.staleSince(e.tags, start)
	rc.mu.Unlock()
	if stale {
		rc.entries.ComputeIfPresent(e.key, func(old *entry) (*entry, otter.ComputeOp) {
			if old == e {
				return nil, otter.InvalidateOp
			}
			return old, otter.CancelOp
		})
	}
}

// unindex removes a deleted entry from the index, where it was not
// replaced by a newer entry of its key.
func (rc *Cache) unindex(e *entry) {
	if e == nil {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, t := range e.tags {
		if m := rc.index[t]; m != nil && m[e.key] == e {
			delete(m, e.key)
			if len(m) == 0 {
				delete(rc.index, t)
			}
		}
	}
}

// localTags and localNoStore key what a route records of its answer.
const (
	localTags    = "inkwell.respcache.tags"
	localNoStore = "inkwell.respcache.nostore"
)

// Tag records that the answer being built shows what tags name.
func Tag(c *fiber.Ctx, tags ...string) {
	have, _ := c.Locals(localTags).([]string)
	c.Locals(localTags, append(have, tags...))
}

// NoStore records that the answer being built must not be kept (it shows
// a draft).
func NoStore(c *fiber.Ctx) { c.Locals(localNoStore, true) }

// credentialed reports whether the request carries a credential: any
// Authorization header, or one of the credential cookies.
func (rc *Cache) credentialed(c *fiber.Ctx) bool {
	h := &c.Request().Header
	if len(h.Peek(fiber.HeaderAuthorization)) > 0 {
		return true
	}
	for _, name := range rc.cfg.CredentialCookies {
		if len(h.Cookie(name)) > 0 {
			return true
		}
	}
	return false
}

// varyOn are the request headers every answer of a cached route depends
// on besides Origin, which CORS names: a shared cache must not hand an
// anonymous answer to a request with a credential.
var varyOn = []string{fiber.HeaderAuthorization, fiber.HeaderCookie}

// Handler serves a cached route: base gives the scheme and host the
// answer's links start from, which the key includes with the path and the
// query in a normal order. A GET without credentials is answered from the
// cache when it holds the answer (X-Cache: HIT), else by the route, whose
// 200 answer is kept unless the route called NoStore (X-Cache: MISS). Kept
// answers carry Cache-Control: public, s-maxage and Surrogate-Key, their
// tags, for a shared cache in front. A request with a credential runs the
// route alone, and its answer says Cache-Control: private, no-store.
// If-None-Match is answered from the kept answer's ETag.
func (rc *Cache) Handler(base func(*fiber.Ctx) string) fiber.Handler {
	if rc == nil {
		return func(c *fiber.Ctx) error { return c.Next() }
	}
	return func(c *fiber.Ctx) error {
		if c.Method() != fiber.MethodGet {
			return c.Next()
		}
		c.Vary(varyOn...)
		if rc.credentialed(c) {
			rc.bypasses.Add(1)
			c.Set(fiber.HeaderCacheControl, "private, no-store")
			c.Set(HeaderXCache, Miss)
			return c.Next()
		}
		key := keyOf(c, base(c))
		if e, ok := rc.entries.GetIfPresent(key); ok {
			rc.hits.Add(1)
			rc.serve(c, e, Hit)
			return nil
		}
		rc.misses.Add(1)
		start := rc.seq.Load()
		before := map[string]bool{}
		c.Response().Header.VisitAll(func(k, _ []byte) { before[strings.ToLower(string(k))] = true })
		noneMatch := c.Get(fiber.HeaderIfNoneMatch)
		if noneMatch != "" {
			c.Request().Header.Del(fiber.HeaderIfNoneMatch)
		}
		c.SetUserContext(ports.RequireFreshReads(c.UserContext()))
		c.Set(HeaderXCache, Miss)
		if err := c.Next(); err != nil {
			return err
		}
		e, ok := rc.entryOf(c, key, before)
		if !ok {
			return nil
		}
		rc.keep(e, start)
		rc.serve(c, e, Miss)
		if noneMatch != "" && e.etag != "" && conditional.NoneMatch(noneMatch, e.etag) {
			notModified(c)
		}
		return nil
	}
}

// entryOf makes an entry of the answer the route gave, when it may be
// kept: a 200 that sets no cookie and was not marked NoStore. before are
// the headers set before the route ran (CORS, the request id, the rate
// limit), which belong to the request rather than to the answer.
func (rc *Cache) entryOf(c *fiber.Ctx, key string, before map[string]bool) (*entry, bool) {
	resp := c.Response()
	if resp.StatusCode() != http.StatusOK || c.Locals(localNoStore) != nil || resp.IsBodyStream() {
		return nil, false
	}
	e := &entry{key: key, contentType: string(resp.Header.ContentType()), body: slices.Clone(resp.Body())}
	cookies := false
	resp.Header.VisitAll(func(k, v []byte) {
		name := strings.ToLower(string(k))
		switch {
		case name == "set-cookie":
			cookies = true
		case before[name], skipped[name]:
		case name == "etag":
			e.etag = string(v)
		default:
			e.header = append(e.header, [2]string{string(k), string(v)})
		}
	})
	if cookies {
		return nil, false
	}
	tags, _ := c.Locals(localTags).([]string)
	slices.Sort(tags)
	e.tags = slices.Compact(tags)
	e.surrogate = strings.Join(e.tags, " ")
	return e, true
}

// skipped are the headers an entry never keeps: the transport's own, and
// those the handler sets itself.
var skipped = map[string]bool{
	"content-length": true, "content-type": true, "date": true, "server": true, "connection": true,
	"transfer-encoding": true, "vary": true, "cache-control": true, "x-cache": true, "surrogate-key": true,
}

// serve answers e, or 304 when the request's If-None-Match names its tag.
func (rc *Cache) serve(c *fiber.Ctx, e *entry, state string) {
	resp := c.Response()
	for _, h := range e.header {
		resp.Header.Set(h[0], h[1])
	}
	c.Set(HeaderXCache, state)
	c.Set(fiber.HeaderCacheControl, rc.cacheControl)
	if e.surrogate != "" {
		c.Set(HeaderSurrogateKey, e.surrogate)
	}
	if e.etag != "" {
		c.Set(fiber.HeaderETag, e.etag)
		if state == Hit && conditional.NoneMatch(c.Get(fiber.HeaderIfNoneMatch), e.etag) {
			notModified(c)
			return
		}
	}
	c.Status(http.StatusOK)
	resp.Header.SetContentType(e.contentType)
	// The bytes are shared by every answer served from e, which only read
	// them.
	resp.SetBodyRaw(e.body)
}

func notModified(c *fiber.Ctx) {
	c.Response().ResetBody()
	c.Response().Header.Del(fiber.HeaderContentType)
	c.Status(http.StatusNotModified)
}

// keyOf is the key of a request: the base its links start from, its path,
// and its query with the parameters in the order of their names (the
// values of one name keep theirs, as the first one counts).
func keyOf(c *fiber.Ctx, base string) string {
	var b strings.Builder
	b.WriteString(base)
	b.WriteByte(0)
	b.WriteString(c.Path())
	args := c.Request().URI().QueryArgs()
	if args.Len() == 0 {
		return b.String()
	}
	type pair struct{ k, v string }
	pairs := make([]pair, 0, args.Len())
	args.VisitAll(func(k, v []byte) { pairs = append(pairs, pair{string(k), string(v)}) })
	slices.SortStableFunc(pairs, func(a, b pair) int { return strings.Compare(a.k, b.k) })
	for i, p := range pairs {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.k))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(p.v))
	}
	return b.String()
}
