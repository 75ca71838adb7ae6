package ports

// UseCases is every driving port a transport may call: what the HTTP
// adapter and the admin console call today, and a gRPC or JSON-RPC transport
// tomorrow. Every method that acts for somebody takes the actor and
// checks its rights; the operator's powers, which take none, are not here
// (Operator). The root package builds it once, on the configured store,
// for the service and for the tests alike.
type UseCases struct {
	Accounts Accounts
	Tokens   Tokens
	People   People
	Products Products
	Posts    Posts
	Comments Comments
	Tags     Tags
	Profile  Profile
	Sessions Sessions
	// Verification mails and checks e-mail verification links.
	Verification Verification
	// RequestLimit is the per-caller request rate limit; nil when it is
	// off (RATE_LIMIT_PER_MINUTE=0).
	RequestLimit RequestLimit
	// Idempotency keeps the answers of requests sent with an
	// Idempotency-Key.
	Idempotency Idempotency
	Events      Events
	Webhooks    Webhooks
	// PasswordResets is the forgotten-password flow.
	PasswordResets PasswordResets
	// Admin is the admin console's use cases; each checks admin rights.
	Admin Admin
	// AdminSetup makes the first admin through a signed link.
	AdminSetup AdminSetup
}
