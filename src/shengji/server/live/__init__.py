"""The live server, I/O: rooms' asyncio shells, the lobby, sockets and connections, timers,
the bot pool, idle rooms and expiry."""
