"""The HTTP face, I/O: the app factory, request limits and headers, quotas, health,
readiness, history routes and logging."""
