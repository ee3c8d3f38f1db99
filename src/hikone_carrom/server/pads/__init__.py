"""The table referees' scoring pads (docs/scoring.md): boards, their routes and views."""
