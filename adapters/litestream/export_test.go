package litestream

import ls "github.com/benbjohnson/litestream"

// ReplicaClientOf is the replica client of b, for tests.
func ReplicaClientOf(b *Backup) ls.ReplicaClient { return b.client }
