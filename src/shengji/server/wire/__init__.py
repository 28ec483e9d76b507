"""Wire messages, pure: versioned msgspec structs clients and the server exchange, their JSON
Schema, and the rendering of core views and events into them. Imports only the core."""
