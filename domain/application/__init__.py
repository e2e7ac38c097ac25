"""The application layer: the service that says what each command decides, the one writer
that decides, seals, checks, appends and announces, the settings, and the bootstrap that wires
them over the store adapters (domain/adapters). Not pure: threads, the environment."""
