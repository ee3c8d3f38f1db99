"""The browser game's server: FastAPI + uvicorn, rooms, WebSocket play, SQL storage.

Authoritative: the server simulates every shot with the library (``Match.play``) off the event
loop; browsers only animate the tracks it sends. ``hikone-carrom play`` calls :func:`main`.

One sub-package per service:

- ``core``: the app (``create_app``) and the dependencies that hand the services to the routes,
  settings, errors, the wire format, limits, the store's runner, start-up and launch;
- ``rooms``: game rooms, their registry, REST routes and the play WebSocket, chat, presence,
  votes, hints, post-game analysis jobs;
- ``thinking``: computer players and hints on a pool of worker processes (local or Ray);
- ``cluster``: several server processes on one store and one Redis;
- ``pads``: the table referees' scoring pads;
- ``tournaments``: championships live, their routes, views and printouts;
- ``storage``: the SQL store and its migrations.

Benchmarks and the throwaway PostgreSQL/Redis servers of the tests are in
:mod:`hikone_carrom.bench`.
"""

from hikone_carrom.server.core.launch import main

__all__ = ["main"]
