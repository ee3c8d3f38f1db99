"""Thinking off the server's process: the pool of workers (local or Ray) and the computer
players' levels."""
