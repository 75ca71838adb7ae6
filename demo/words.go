package demo

// The word lists are lower-case ASCII letters only (names aside): slugs made
// of them hold no digits, which keeps the numbered slugs unique, and none
// contains SearchWord, which keeps the search word's share of titles exact.

var firstNames = []string{
	"Ada", "Alan", "Alice", "Amara", "Ana", "Arjun", "Ben", "Bruno", "Carla", "Chen",
	"Chloe", "Daniel", "Dara", "Diego", "Elena", "Emil", "Farah", "Femi", "Grace", "Hana",
	"Hugo", "Ines", "Ivan", "Jade", "Jonas", "Kai", "Kemal", "Lara", "Leo", "Lina",
	"Luca", "Maya", "Mateo", "Mei", "Nadia", "Nico", "Nora", "Omar", "Oskar", "Priya",
	"Rafael", "Rosa", "Sami", "Sara", "Tariq", "Theo", "Uma", "Vera", "Yuki", "Zoe",
}

var lastNames = []string{
	"Abbott", "Adeyemi", "Alvarez", "Bauer", "Bianchi", "Brennan", "Castro", "Chowdhury", "Costa", "Dubois",
	"Eriksen", "Fischer", "Fontaine", "Garcia", "Haddad", "Hansen", "Ito", "Jensen", "Kapoor", "Kim",
	"Kowalski", "Larsen", "Lopez", "Marsh", "Meyer", "Moreau", "Nakamura", "Novak", "Okafor", "Olsen",
	"Park", "Petrov", "Quinn", "Rahman", "Rossi", "Sato", "Schmidt", "Silva", "Singh", "Sorensen",
	"Tanaka", "Torres", "Varga", "Vogel", "Wagner", "Walsh", "Weber", "Yilmaz", "Young", "Zhang",
}

// topics name the tags; their slugs are distinct.
var topics = []string{
	"Go", "PostgreSQL", "SQLite", "Databases", "Testing", "Performance", "Security", "APIs", "Web", "Design",
	"Architecture", "DevOps", "Kubernetes", "Docker", "Linux", "Networking", "Observability", "Logging", "Caching", "Concurrency",
	"Rust", "Python", "JavaScript", "TypeScript", "Frontend", "Backend", "Cloud", "Serverless", "Mobile", "Accessibility",
	"Career", "Teams", "Open Source", "Tutorials", "Releases", "Tooling", "Editors", "Compilers", "Algorithms", "Data",
	"Machine Learning", "Analytics", "Search", "Queues", "Streaming", "Storage", "Backups", "Migrations", "Monitoring", "Incidents",
}

// vocabulary makes titles, bodies and comments.
var vocabulary = []string{
	"a", "about", "after", "again", "all", "always", "an", "and", "api", "async",
	"backend", "before", "benchmark", "better", "big", "blog", "bug", "build", "cache", "careful",
	"change", "clean", "client", "cloud", "code", "column", "command", "config", "container", "context",
	"cursor", "data", "database", "debug", "deploy", "design", "developer", "different", "domain", "easy",
	"error", "every", "fast", "feature", "field", "file", "first", "fix", "from", "future",
	"good", "graceful", "guide", "handler", "hard", "how", "idea", "in", "index", "inside",
	"interface", "is", "journey", "json", "key", "lazy", "lesson", "library", "list", "lock",
	"log", "make", "many", "memory", "method", "metric", "migration", "model", "modern", "more",
	"network", "new", "notes", "of", "old", "on", "one", "page", "pattern", "plan",
	"pool", "port", "practical", "query", "queue", "quick", "read", "real", "record", "release",
	"request", "response", "retry", "review", "route", "safe", "schema", "server", "service", "session",
	"simple", "slow", "small", "snapshot", "state", "store", "stream", "system", "table", "test",
	"the", "thing", "time", "tiny", "to", "token", "trace", "transaction", "type", "understanding",
	"update", "user", "using", "value", "version", "way", "what", "when", "why", "with",
	"worker", "write", "writing", "year", "your", "zero",
}
