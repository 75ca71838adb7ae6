package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// CacheConfig holds the settings of the cache of anonymous reads.
type CacheConfig struct {
	// MaxBytes bounds its memory (HTTP_CACHE_MAX_BYTES); 0 turns it off.
	MaxBytes int64
	// TTL is how long an answer is kept at most (HTTP_CACHE_TTL).
	TTL time.Duration
}

// NewCache returns the cache of anonymous reads cfg describes, nil when it
// is off. A request with this adapter's session or remember-me cookie
// counts as credentialed, as one with an Authorization header does.
func NewCache(cfg CacheConfig) *respcache.Cache {
	return respcache.New(respcache.Config{
		MaxBytes: cfg.MaxBytes, TTL: cfg.TTL,
		CredentialCookies: []string{sessionCookie, rememberCookie},
	})
}

// catchUpTimeout bounds the read of the outbox after a write.
const catchUpTimeout = 5 * time.Second

// evictAfterWrites makes a write's own replica evict what the write
// changed before it answers: once the route ran, the replica's reader of
// the outbox reads up to the newest event, the write's among them. A write
// refused (4xx) committed nothing and reads nothing, so refusals cost no
// query; a fault may have come after a commit, so it reads. A failed read
// leaves the eviction to the reader's next pass.
func (s *Server) evictAfterWrites(c *fiber.Ctx) error {
	err := c.Next()
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return err
	}
	if refused(c, err) {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), catchUpTimeout)
	defer cancel()
	if cerr := s.fresh.CatchUp(ctx); cerr != nil {
		s.log.Warn("cache: read the outbox after a write", "err", cerr)
	}
	return err
}

// refused reports whether the answer to a write is a refusal: a 4xx, set
// or still to be rendered from err.
func refused(c *fiber.Ctx, err error) bool {
	status := c.Response().StatusCode()
	if err != nil {
		var de *domain.Error
		var fe *fiber.Error
		switch {
		case errors.As(err, &de):
			status = web.Status(de)
		case errors.As(err, &fe):
			status = fe.Code
		default:
			status = http.StatusInternalServerError
		}
	}
	return status >= 400 && status < 500
}

// evict drops this replica's answers of tags at once, for the writes that
// record no event (a new tag, an account's name or avatar): other
// replicas let theirs live out HTTP_CACHE_TTL.
func (s *Server) evict(tags ...string) {
	s.cache.Evict(tags)
}

// tagPosts records what an answer showing views shows: each post, its
// author, its tags and its comments' authors. An answer showing a draft
// is never kept.
func tagPosts(c *fiber.Ctx, views ...ports.PostView) {
	tags := make([]string, 0, 4*len(views))
	for _, v := range views {
		if !v.Post.IsPublished() {
			respcache.NoStore(c)
		}
		tags = append(tags, domain.PostTag(v.Post.ID()), domain.AccountTag(v.Author.ID))
		for _, t := range v.Tags {
			tags = append(tags, domain.TagTag(t.ID))
		}
		for _, cv := range v.Comments {
			tags = append(tags, domain.AccountTag(cv.Author.ID))
		}
	}
	respcache.Tag(c, tags...)
}
