"""What the game server itself needs: the app and its routers' dependencies, settings, errors,
the wire format, limits, the store's runner, start-up and launch."""
