package console

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// postForm is the data of post.html: the post as stored, the edit form's
// values (the post's own, or what a refused form sent, with the refusal's
// sentences) and the tags the form offers.
type postForm struct {
	View   ports.AdminPost
	Title  string
	Body   string
	Status domain.PostStatus
	// Version is the post's version the form was filled in from
	// (versionOf), which saving it expects.
	Version string
	// Statuses are the statuses the form offers.
	Statuses []string
	Tags     []tagOption
	Errors   []string
}

// tagOption is one tag's checkbox in the edit form.
type tagOption struct {
	ID      int64
	Name    string
	Checked bool
}

// postPage is where a post's page lives.
func postPage(id int64) string { return prefix + "/posts/" + strconv.FormatInt(id, 10) }

// post shows one post, a draft included, with its edit form and its
// publish or unpublish button.
func (k *Console) post(c *fiber.Ctx) error {
	id, err := idOf(c)
	if err != nil {
		return err
	}
	view, err := k.admin.Post(c.UserContext(), caller(c), id)
	if err != nil {
		return err
	}
	chosen := make([]int64, len(view.Tags))
	for i, t := range view.Tags {
		chosen[i] = t.ID
	}
	form := postForm{View: view, Title: view.Post.Title(), Body: view.Post.Body(), Status: view.Post.Status(),
		Version: formatVersion(view.Post.UpdatedAt())}
	if err := k.offer(c, &form, chosen); err != nil {
		return err
	}
	return k.show(c, "post", view.Post.Title(), form)
}

// editPost saves the edit form through Posts.Update by admin right, which
// audits it as post.update, and goes back to the post's page; a form the
// use case refuses is shown again with its values and why, with 422, and
// one filled in from a version since replaced changes nothing (412).
func (k *Console) editPost(c *fiber.Ctx) error {
	id, pre, err := editOf(c)
	if err != nil {
		return err
	}
	var tags []int64
	for _, raw := range formValues(c, "tags") {
		tag, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || tag < 1 {
			return fiber.ErrBadRequest
		}
		tags = append(tags, tag)
	}
	form := postForm{Title: formValue(c, "title"), Body: formValue(c, "body"), Status: domain.PostStatus(formValue(c, "status")),
		Version: formValue(c, "version")}
	patch := ports.PostPatch{
		Title: ports.Some(form.Title), Body: ports.Some(form.Body), Status: ports.Some(form.Status),
		TagIDs: ports.Some(append([]int64{}, tags...)),
	}
	ac := caller(c)
	_, err = k.owners.posts.Update(c.UserContext(), byAdminRight(ac), id, patch, pre)
	if err == nil {
		return k.done(c, "post.update", postPage(id))
	}
	var refused bool
	if form.Errors, refused = formErrors(err); !refused {
		return err
	}
	if form.View, err = k.admin.Post(c.UserContext(), ac, id); err != nil {
		return err
	}
	if err := k.offer(c, &form, tags); err != nil {
		return err
	}
	return k.render(c, http.StatusUnprocessableEntity, "post", page{
		Title: form.View.Post.Title(), CSRF: csrfToken(c), Admin: ac.Actor.User.Email, Data: form,
	})
}

// offer fills in the statuses and the tags form offers, every tag there
// is, with those of chosen checked.
func (k *Console) offer(c *fiber.Ctx, form *postForm, chosen []int64) error {
	tags, err := k.owners.tags.List(c.UserContext(), caller(c).Actor)
	if err != nil {
		return err
	}
	form.Statuses = domain.Statuses
	form.Tags = make([]tagOption, len(tags))
	for i, t := range tags {
		form.Tags[i] = tagOption{ID: t.ID, Name: t.Name, Checked: slices.Contains(chosen, t.ID)}
	}
	return nil
}
