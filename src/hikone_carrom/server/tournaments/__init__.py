"""Tournaments on the server: events live in memory, their routes, views, printouts, and the
bridges to scoring pads and online rooms."""
