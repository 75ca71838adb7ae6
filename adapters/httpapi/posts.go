package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// apiV1 is the path prefix of version 1, which post links point into.
const apiV1 = "/api/v1"

// maxPostTags bounds the tags of one post, so that a request can't make
// the store look up an unbounded list of ids; the use case checks it again.
const maxPostTags = domain.MaxPostTags

func (s *Server) listPosts(c *fiber.Ctx) error {
	f, filterErr := postFilter(c)
	page, perPage, pageErr := pageParams(c)
	trashed, trashedErr := trashedParam(c)
	if err := joinInvalid(joinInvalid(filterErr, pageErr), trashedErr); err != nil {
		return err
	}
	var views []ports.PostView
	var total int
	var err error
	switch trashed {
	case trashedOnly:
		views, total, err = s.posts.Trashed(c.UserContext(), openReader(c), offsetPage(page, perPage))
	case trashedWith:
		views, total, err = s.posts.ListWithTrashed(c.UserContext(), openReader(c), f, offsetPage(page, perPage))
	default:
		views, total, err = s.posts.List(c.UserContext(), openReader(c), f, offsetPage(page, perPage))
	}
	if err != nil {
		return err
	}
	respcache.Tag(c, domain.TagPosts)
	tagPosts(c, views...)
	data := make([]postJSON, len(views))
	for i, v := range views {
		data[i] = s.presentPost(c, apiV1, v, postInList)
	}
	return sendJSON(c, http.StatusOK, s.paginate(c, data, len(views), total, page, perPage, "v1"))
}

func (s *Server) showPost(c *fiber.Ctx) error {
	id, err := pathID(c, "post")
	if err != nil {
		return err
	}
	view, err := s.posts.Show(c.UserContext(), openReader(c), id, true)
	if err != nil {
		return err
	}
	tagPosts(c, view)
	return s.sendPost(c, apiV1, view, postWithComments)
}

// createPost refuses a token not allowed domain.WritePosts before reading
// the body, as allow does; the use case checks the ability again. Both
// refusals are the one domain.ErrInvalidAbility, which this route, and it
// alone, words as the specification does (cannotCreatePosts).
func (s *Server) createPost(c *fiber.Ctx) error {
	actor, _ := actorOf(c)
	if err := actor.CheckAbility(domain.WritePosts); err != nil {
		return cannotCreatePosts(err)
	}
	in, err := postInput(c)
	if err != nil {
		return err
	}
	view, err := s.posts.Create(c.UserContext(), actor, in)
	if err != nil {
		return cannotCreatePosts(err)
	}
	return sendJSON(c, http.StatusCreated, fiber.Map{"data": s.presentPost(c, apiV1, view, postSingle)})
}

func (s *Server) updatePost(c *fiber.Ctx) error {
	return s.updatePostAs(c, apiV1, postPatchV1)
}

// updatePostAs changes the caller's post as the patch that patchOf reads
// from the request asks, and answers it as the version's single read
// does.
func (s *Server) updatePostAs(c *fiber.Ctx, prefix string, patchOf func(*fiber.Ctx) (ports.PostPatch, error)) error {
	id, err := pathID(c, "post")
	if err != nil {
		return err
	}
	patch, err := patchOf(c)
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.posts.Update(c.UserContext(), domain.ByOwnRight(actor), id, patch, conditional.IfMatch(c))
	if err != nil {
		return err
	}
	return s.sendPost(c, prefix, view, postSingle)
}

// deletePost moves the post to the trash, or purges it with force=true.
func (s *Server) deletePost(c *fiber.Ctx) error {
	if err := s.removePost(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Post deleted successfully."})
}

// postFilter reads the list's search and status parameters; an empty
// parameter is an absent one. The caller's own drafts are listed too.
func postFilter(c *fiber.Ctx) (ports.PostFilter, error) {
	query := map[string]any{}
	for _, k := range []string{"search", "status"} {
		if v := c.Query(k); v != "" {
			query[k] = v
		}
	}
	v := validate.New(query)
	f := ports.PostFilter{
		Search: v.String("search", validate.Check(domain.CheckSearch)),
		Status: domain.PostStatus(v.String("status", validate.Check(domain.CheckStatus))),
	}
	return f, v.Err()
}

// postInput reads and validates a new post, sent as JSON or as a
// multipart form. Whether the tags exist is the use case's check.
func postInput(c *fiber.Ctx) (ports.PostInput, error) {
	body, err := formBody(c)
	if err != nil {
		return ports.PostInput{}, err
	}
	v := validate.New(body)
	in := ports.PostInput{
		Title:  v.String("title", validate.Required, validate.Check(domain.CheckTitle)),
		Body:   v.String("body", validate.Required, validate.Check(domain.CheckBody)),
		Status: domain.PostStatus(v.String("status", validate.Required, validate.Check(domain.CheckStatus))),
		TagIDs: v.Ints("tags", validate.Nullable, validate.MaxItems(maxPostTags)),
	}
	img, err := imageField(v, body, postImage)
	if err != nil {
		return ports.PostInput{}, err
	}
	in.Image = img
	return in, v.Err()
}

// postPatchV1 reads an update of version 1 from the request (postPatch).
func postPatchV1(c *fiber.Ctx) (ports.PostPatch, error) {
	body, err := formBody(c)
	if err != nil {
		return ports.PostPatch{}, err
	}
	return postPatch(body)
}

// postPatch validates an update of version 1: title, body and status are
// checked and changed only when present, and then may not be blank; tags
// are not this route's business and are ignored. An image replaces the
// stored one; otherwise remove_image=true clears it.
func postPatch(body map[string]any) (ports.PostPatch, error) {
	v := validate.New(body)
	var p ports.PostPatch
	if v.Has("title") {
		p.Title = ports.Some(v.String("title", validate.Required, validate.Check(domain.CheckTitle)))
	}
	if v.Has("body") {
		p.Body = ports.Some(v.String("body", validate.Required, validate.Check(domain.CheckBody)))
	}
	if v.Has("status") {
		p.Status = ports.Some(domain.PostStatus(v.String("status", validate.Required, validate.Check(domain.CheckStatus))))
	}
	remove := v.Bool("remove_image", validate.Nullable)
	img, err := imageField(v, body, postImage)
	if err != nil {
		return ports.PostPatch{}, err
	}
	switch {
	case img != nil:
		p.Image = ports.Some(img)
	case remove != nil && *remove:
		p.Image = ports.Some[*ports.Image](nil)
	}
	return p, v.Err()
}

// joinInvalid merges the validation errors of separately checked parts of
// one request, so that every failure is reported at once. Any other error
// is returned as it is.
func joinInvalid(errs ...error) error {
	var all []domain.Violation
	for _, err := range errs {
		if err == nil {
			continue
		}
		de, ok := domain.AsError(err)
		if !ok || de.Kind != domain.Invalid {
			return err
		}
		all = append(all, de.Fields...)
	}
	if all == nil {
		return nil
	}
	return domain.InvalidFields(all...)
}
