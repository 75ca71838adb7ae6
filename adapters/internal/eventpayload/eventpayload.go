// Package eventpayload is the stored form of an event's payload: the JSON
// that every store keeps in its outbox. The format is the stores' concern,
// so the domain's types carry no tags for it; the snapshots inside
// (a post's state, a comment, a tag, an area B record) are written with
// their Go field names, as they always were, so that stored events stay
// readable.
package eventpayload

import (
	"encoding/json"

	"github.com/inkwell/inkwell/domain"
)

// stored is domain.EventPayload as the outbox holds it.
type stored struct {
	Post    *domain.PostState `json:"post,omitempty"`
	Tags    []domain.Tag      `json:"tags"`
	Comment *domain.Comment   `json:"comment,omitempty"`
	Author  *author           `json:"author,omitempty"`
	Person  *domain.Person    `json:"person,omitempty"`
	Product *domain.Product   `json:"product,omitempty"`
	// Revocation is the one internal record's payload.
	Revocation *revocation `json:"revocation,omitempty"`
}

// revocation is domain.Revocation as the outbox holds it.
type revocation struct {
	UserID      int64  `json:"user_id"`
	TokenID     int64  `json:"token_id,omitempty"`
	TokenName   string `json:"token_name,omitempty"`
	AllTokens   bool   `json:"all_tokens,omitempty"`
	SessionHash string `json:"session_hash,omitempty"`
	AllSessions bool   `json:"all_sessions,omitempty"`
}

// author is domain.Author as the outbox holds it.
type author struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	AvatarPath string `json:"avatar_path,omitempty"`
}

// Marshal writes p in its stored form.
func Marshal(p domain.EventPayload) ([]byte, error) {
	s := stored{Post: p.Post, Tags: p.Tags, Comment: p.Comment, Person: p.Person, Product: p.Product}
	if a := p.Author; a != nil {
		s.Author = &author{ID: a.ID, Name: a.Name, AvatarPath: a.AvatarPath}
	}
	if r := p.Revocation; r != nil {
		s.Revocation = &revocation{UserID: r.UserID, TokenID: r.TokenID, TokenName: r.TokenName, AllTokens: r.AllTokens, SessionHash: r.SessionHash, AllSessions: r.AllSessions}
	}
	return json.Marshal(s)
}

// Unmarshal reads a payload that Marshal wrote.
func Unmarshal(data []byte) (domain.EventPayload, error) {
	var s stored
	if err := json.Unmarshal(data, &s); err != nil {
		return domain.EventPayload{}, err
	}
	p := domain.EventPayload{Post: s.Post, Tags: s.Tags, Comment: s.Comment, Person: s.Person, Product: s.Product}
	if a := s.Author; a != nil {
		p.Author = &domain.Author{ID: a.ID, Name: a.Name, AvatarPath: a.AvatarPath}
	}
	if r := s.Revocation; r != nil {
		p.Revocation = &domain.Revocation{UserID: r.UserID, TokenID: r.TokenID, TokenName: r.TokenName, AllTokens: r.AllTokens, SessionHash: r.SessionHash, AllSessions: r.AllSessions}
	}
	return p, nil
}
