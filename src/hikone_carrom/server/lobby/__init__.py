"""The lobby: "play someone now" seeks, open challenges and the live games to watch
(``docs/server.md``, "Lobby"); its pairing rules are :mod:`hikone_carrom.lobby`."""
