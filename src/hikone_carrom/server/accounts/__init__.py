"""Players' accounts: sign-up, sign-in and sessions, their ratings and public profiles."""
