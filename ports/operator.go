package ports

import "context"

// Operator is what the service's operator does from the command line
// (inkwell admin, inkwell tokens): powers that name their subject by
// e-mail, take no actor and check no right, since whoever runs the command
// holds the service's configuration, and so its store, already. The root
// builds it beside UseCases and hands it to cmd/inkwell alone: no driving
// adapter receives it, and scripts/archcheck.sh fails one that names it.
type Operator struct {
	// Admins makes, unmakes and lists admins.
	Admins AdminRights
	// Tokens revokes a user's tokens and deletes the expired ones.
	Tokens OperatorTokens
}

// OperatorTokens is the operator's side of personal tokens; a user's side,
// with an actor, is Tokens.
type OperatorTokens interface {
	// RevokeByName revokes the tokens named name of the user with email.
	// domain.ErrNotFound for an unknown e-mail.
	RevokeByName(ctx context.Context, email, name string) (int64, error)
	// RevokeAll revokes every token of the user with email.
	// domain.ErrNotFound for an unknown e-mail.
	RevokeAll(ctx context.Context, email string) (int64, error)
	// Prune deletes every expired token.
	Prune(ctx context.Context) (int64, error)
}
