"""The puzzles' house (詰めカロム): list, position, attempts judged as a game, the daily one."""
