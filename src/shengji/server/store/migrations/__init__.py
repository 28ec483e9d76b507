"""Alembic migrations of the server's database (server/store/schema.py runs them).

``versions/`` holds one file per schema change, oldest first: ``r0001_first_schema`` is the
schema as ``create_all`` made it up to shengji 0.1.0. A new change: edit the models in
server/store/storage.py, then ``python scripts/new_migration.py "what changed"`` writes the next
revision (compared against a database at the current head); read it, fix it by hand if
needed, and ``tests/server/test_migrations.py`` checks that head equals the models.
"""
