package domain

// Right is what entitles an actor to change a record: the actor's own,
// which reaches only what the actor owns, or admin rights, which reach
// everybody's. The zero value is the actor's own right, so an actor whose
// right nobody set grants no more than its owner's.
type Right uint8

// The rights.
const (
	// OwnRight reaches the actor's own records only.
	OwnRight Right = iota
	// AdminRight reaches every record. Only a transport for operators
	// (the admin console) claims it, and a use case trusts the claim only
	// after reading the account again and finding it an admin acting
	// through a browser session (Actor.CheckAdmin).
	AdminRight
)

// Acting is an actor about to change a record that may be somebody
// else's, with the right it acts by and, for the audit log, the client
// address it acts from. A use case given AdminRight writes an audit row in
// the transaction of the change; one given OwnRight writes none.
type Acting struct {
	Actor
	Right Right
	// Address is the client address an audit row records.
	Address string
}

// ByOwnRight is actor acting on its own records, as every transport for
// users does.
func ByOwnRight(actor Actor) Acting {
	return Acting{Actor: actor}
}

// ByAdminRight is actor claiming admin rights, from address.
func ByAdminRight(actor Actor, address string) Acting {
	return Acting{Actor: actor, Right: AdminRight, Address: address}
}

// ByAdmin reports whether the actor claims admin rights.
func (a Acting) ByAdmin() bool {
	return a.Right == AdminRight
}

// MayChange is the ownership policy every change of a record shares: the
// record's owner may change it, and so may an actor by admin right;
// nobody (user 0) may change anything.
func (a Acting) MayChange(owner int64) bool {
	if a.User.ID == 0 {
		return false
	}
	return a.User.ID == owner || a.ByAdmin()
}

// Sees reports whether the actor may see post: as its viewer does
// (Post.VisibleTo), or every post by admin right.
func (a Acting) Sees(post Post) bool {
	return a.ByAdmin() || post.VisibleTo(a.User.ID)
}

// CheckWrite is Actor.CheckWrite for the actor's own records. By admin
// right an operator moderates others' records, which a proven address of
// the operator's own does not bear on: the rights are what the use case
// checks.
func (a Acting) CheckWrite() error {
	if a.ByAdmin() {
		return nil
	}
	return a.Actor.CheckWrite()
}
