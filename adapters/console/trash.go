package console

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// trash lists every account's trashed posts and comments, most recently
// trashed first, a page of each at a time; each row restores or purges,
// and comes back here.
func (k *Console) trash(c *fiber.Ctx) error {
	n, pg, err := pageOf(c)
	if err != nil {
		return err
	}
	posts, err := k.admin.TrashedPosts(c.UserContext(), caller(c), pg)
	if err != nil {
		return err
	}
	comments, err := k.admin.TrashedComments(c.UserContext(), caller(c), pg)
	if err != nil {
		return err
	}
	query := url.Values{}
	back := prefix + "/trash"
	if n > 1 {
		query.Set("page", strconv.Itoa(n))
		back += "?" + query.Encode()
	}
	return k.show(c, "trash", "Trash", struct {
		Posts    []ports.AdminPost
		Comments []ports.AdminTrashedComment
		Back     string
		Pager    pager
	}{posts.Rows, comments.Rows, back, newPager(prefix+"/trash", query, n, max(posts.Total, comments.Total), false)})
}

func (k *Console) restorePost(c *fiber.Ctx) error {
	return k.action(c, "post.restore", prefix+"/trash", func(ac ports.AdminCaller, id int64) error {
		return k.admin.RestorePost(c.UserContext(), ac, id)
	})
}

func (k *Console) purgePost(c *fiber.Ctx) error {
	return k.action(c, "post.purge", prefix+"/trash", func(ac ports.AdminCaller, id int64) error {
		return k.admin.PurgePost(c.UserContext(), ac, id)
	})
}

func (k *Console) restoreComment(c *fiber.Ctx) error {
	return k.action(c, "comment.restore", prefix+"/trash", func(ac ports.AdminCaller, id int64) error {
		return k.admin.RestoreComment(c.UserContext(), ac, id)
	})
}

func (k *Console) purgeComment(c *fiber.Ctx) error {
	return k.action(c, "comment.purge", prefix+"/trash", func(ac ports.AdminCaller, id int64) error {
		return k.admin.PurgeComment(c.UserContext(), ac, id)
	})
}
