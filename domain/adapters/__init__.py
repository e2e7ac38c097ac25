"""The store adapters: the event store (eventsourcing on SQLite or PostgreSQL), the repository
of games over it, its cache, snapshots and write locks. Not pure: I/O, threads, psycopg."""
