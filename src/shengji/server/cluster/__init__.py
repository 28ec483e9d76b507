"""Between server processes, I/O: room leases, the Redis bus and the routing of clients to
the process that owns their room."""
