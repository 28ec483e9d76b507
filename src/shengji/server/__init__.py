"""The multiplayer server: ``create_app(settings)`` (FastAPI + WebSockets), rooms owned by
one asyncio task each, every action logged to the database before it is broadcast."""
