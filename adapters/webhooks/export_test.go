package webhooks

// DialGuard is the check every connection of a sender that refuses
// private addresses runs on the address it dials.
var DialGuard = refusePrivate

// Failure words a failed request as a webhook's last_error.
var Failure = failure
