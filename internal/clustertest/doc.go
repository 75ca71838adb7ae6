// Package clustertest holds the test that runs the built inkwell binary as
// several replicas on one database, through PgBouncer, on an S3 bucket,
// mailing one Mailpit, behind HAProxy, and proves that what one replica
// does holds on every other. It has no code of its own outside the test.
package clustertest
