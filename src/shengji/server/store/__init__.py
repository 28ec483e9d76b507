"""Storage, I/O: the database (SQLAlchemy models, the repository, migrations), group commit,
the SQLite log writer, write faults, leases' SQL and the data-dir lock."""
