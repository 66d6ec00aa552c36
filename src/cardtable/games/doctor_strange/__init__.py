"""Doctor Strange card game (see game.py and docs/rules/doctor-strange.md)."""
