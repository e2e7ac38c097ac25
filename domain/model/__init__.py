"""The pure model: events, commands, the decider kit, redaction, the log and its chain. No I/O,
no threads of its own, no settings: the application layer (domain/application) and the store
adapters (domain/adapters) build on it, never the other way."""
