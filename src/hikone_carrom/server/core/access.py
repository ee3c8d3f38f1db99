"""Who may use each route and each WebSocket message (docs/security.md): one table.

Roles, from least to most: ``stranger`` (anyone: no token), ``account`` (a signed-in
player's session cookie, with its CSRF token on every change), ``player`` (a room's seat token
or a championship player's personal link), ``referee`` (a pad's board token), ``director`` (the
event's director token), ``organiser`` (the organiser's key). A route or message of a role needs
that role's token or key; every other caller is refused (401, 403 or 404 as the route documents;
an error message on a socket) and nothing changes. ``tests/server/core/test_access.py`` fails
when a route has no entry here and checks that a stranger is refused by every other route.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["ROUTE_ACCESS", "SOCKET_MESSAGES", "Role"]

Role = Literal["stranger", "account", "player", "referee", "director", "organiser"]

ROUTE_ACCESS: dict[str, Role] = {
    # pages and files of the browser client
    "GET /": "stranger",
    "GET /games": "stranger",
    "GET /howto": "stranger",
    "GET /room/{room_id}": "stranger",
    "GET /replay/{room_id}": "stranger",
    "GET /pad": "stranger",
    "GET /pad/": "stranger",
    "GET /pad/sw.js": "stranger",
    "GET /pad/{board_id}": "stranger",
    "GET /boards/{board_id}": "stranger",
    "GET /t/{tournament_id}": "stranger",
    "GET /t/{tournament_id}/play/{player}": "stranger",
    "GET /t/{tournament_id}/director": "stranger",
    "GET /director": "stranger",
    "GET /puzzles": "stranger",
    "GET /puzzles/{puzzle_id}": "stranger",
    "GET /puzzles/drills/{drill_id}": "stranger",
    "MOUNT /static": "stranger",
    "GET /sw.js": "stranger",
    "GET /offline": "stranger",
    "GET /api/health": "stranger",
    # puzzles: open to all, attempts and give-ups limited per address
    "GET /api/puzzles": "stranger",
    "GET /api/puzzles/daily": "stranger",
    "GET /api/puzzles/{puzzle_id}": "stranger",
    "POST /api/puzzles/{puzzle_id}/attempts": "stranger",
    "POST /api/puzzles/{puzzle_id}/give-up": "stranger",
    "GET /api/drills": "stranger",
    "GET /api/drills/{drill_id}": "stranger",
    "POST /api/drills/{drill_id}/attempts": "stranger",
    "GET /openapi.json": "stranger",
    "GET /docs": "stranger",
    "GET /docs/oauth2-redirect": "stranger",
    "GET /redoc": "stranger",
    # rooms and games: casual play is open; a seat's actions need its token (socket messages)
    "GET /api/levels": "stranger",
    "GET /api/board": "stranger",
    "POST /api/rooms": "stranger",
    "GET /api/rooms/{room_id}": "stranger",
    "GET /api/rooms/{room_id}/invite.svg": "stranger",
    "POST /api/my-rooms": "stranger",  # answers only for the seat tokens it is given
    "POST /api/rooms/{room_id}/seats/{seat}": "stranger",  # open seats; reserved ones: 403
    "GET /api/games": "stranger",
    "GET /api/games/{game_id}": "stranger",
    "GET /api/games/{game_id}/record": "stranger",
    "GET /api/games/{game_id}/replay": "stranger",
    "GET /api/games/{game_id}/analysis": "stranger",
    "POST /api/games/{game_id}/analysis": "stranger",
    "WS /ws/rooms/{room_id}": "stranger",  # see SOCKET_MESSAGES["room"]
    # the lobby: anyone may seek; a seek is read and withdrawn with its own token only
    "POST /api/seeks": "stranger",
    "GET /api/seeks/{seek_id}": "player",  # the seek's token
    "DELETE /api/seeks/{seek_id}": "player",  # the seek's token
    "POST /api/challenges": "stranger",
    "GET /api/challenges": "stranger",
    "POST /api/challenges/{seek_id}/accept": "stranger",
    "GET /api/live": "stranger",
    # scoring pads
    "POST /api/boards": "organiser",
    "GET /api/boards/{board_id}": "stranger",
    "GET /api/boards/{board_id}/qr.svg": "referee",
    "POST /api/boards/{board_id}/claim": "referee",
    "POST /api/boards/{board_id}/takeover": "referee",
    "POST /api/boards/{board_id}/ops": "referee",
    "POST /api/boards/{board_id}/matches": "referee",
    "GET /api/boards/{board_id}/matches/{number}/record": "stranger",
    "GET /api/boards/{board_id}/matches/{number}/sheet.csv": "stranger",
    "GET /api/boards/{board_id}/matches/{number}/sheet.pdf": "stranger",
    "WS /ws/boards/{board_id}": "stranger",
    # tournaments
    "POST /api/tournaments": "organiser",
    "GET /api/tournaments/{tournament_id}": "stranger",
    "GET /api/tournaments/{tournament_id}/search": "stranger",
    "GET /api/tournaments/{tournament_id}/results.csv": "stranger",
    "GET /api/tournaments/{tournament_id}/print/{kind}.pdf": "stranger",
    "GET /api/tournaments/{tournament_id}/director": "director",
    "POST /api/tournaments/{tournament_id}/entries/import": "director",
    "POST /api/tournaments/{tournament_id}/entries": "director",
    "GET /api/tournaments/{tournament_id}/entries/{entry_id}": "director",
    "PUT /api/tournaments/{tournament_id}/entries/{entry_id}": "director",
    "PUT /api/tournaments/{tournament_id}/rules": "director",
    "POST /api/tournaments/{tournament_id}/entries/{entry_id}/status": "director",
    "POST /api/tournaments/{tournament_id}/divisions/{division}/draw": "director",
    "POST /api/tournaments/{tournament_id}/plan": "director",
    "POST /api/tournaments/{tournament_id}/replan": "director",
    "GET /api/tournaments/{tournament_id}/schedule": "stranger",
    "PUT /api/tournaments/{tournament_id}/schedule": "director",
    "GET /api/tournaments/{tournament_id}/divisions/{division}/knockout": "stranger",
    "PUT /api/tournaments/{tournament_id}/divisions/{division}/knockout": "director",
    "GET /api/tournaments/{tournament_id}/auto": "director",
    "PUT /api/tournaments/{tournament_id}/auto": "director",
    "PUT /api/tournaments/{tournament_id}/auto/holds/{division}/{number}": "director",
    "POST /api/tournaments/{tournament_id}/matches/{match_id}/call": "director",
    "POST /api/tournaments/{tournament_id}/boards/{board}/call": "director",
    "POST /api/tournaments/{tournament_id}/matches/{match_id}/start": "director",
    "PUT /api/tournaments/{tournament_id}/matches/{match_id}/result": "director",
    "DELETE /api/tournaments/{tournament_id}/matches/{match_id}/result": "director",
    "POST /api/tournaments/{tournament_id}/pools/{division}/{number}/{action}": "director",
    "POST /api/tournaments/{tournament_id}/pads": "organiser",  # it makes boards
    "GET /api/tournaments/{tournament_id}/pads": "director",
    "GET /api/tournaments/{tournament_id}/players": "director",
    "POST /api/tournaments/{tournament_id}/play/{player}": "player",
    "WS /ws/tournaments/{tournament_id}": "stranger",  # ?full=1: SOCKET_MESSAGES["director"]
    # accounts and profiles
    "POST /api/account/signup": "stranger",
    "POST /api/account/signin": "stranger",
    "POST /api/account/signout": "account",
    "POST /api/account/signout-everywhere": "account",
    "GET /api/account": "stranger",  # answers only for the session cookie it is given
    "GET /api/players/{name}": "stranger",
}
"""Every route, as ``"METHOD path"`` (``WS`` for a WebSocket, ``MOUNT`` for static files), and
the least role that may use it."""

SOCKET_MESSAGES: dict[str, dict[str, Role]] = {
    "room": {
        "hello": "stranger",  # with a seat token: that seat's player
        "resync": "stranger",
        "ping": "stranger",
        "analyse": "stranger",  # finished games only
        "chat": "stranger",  # set phrases; free text: player
        "shot": "player",
        "hint": "player",
        "rematch": "player",
        "draw": "player",
        "resign": "player",
    },
    "board": {"hello": "stranger", "resync": "stranger", "ping": "stranger"},
    "tournament": {
        "division": "stranger",
        "entry": "stranger",
        "search": "stranger",
        "watch": "stranger",
        "resync": "stranger",
        "ping": "stranger",
    },
    "director": {"hello": "director"},  # ?full=1: the first message carries the token
}
"""Message types a client may send on each socket kind, and the least role for each; any other
type is refused (``bad_message``). Each kind's models (``core/client_messages.py``
``SocketMessages``) take exactly these types."""
