"""Game rooms of the browser game: the room, its registry, the play WebSocket, REST routes,
chat, presence, votes, hints and post-game analysis jobs."""
