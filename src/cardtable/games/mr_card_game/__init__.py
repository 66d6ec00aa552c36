"""Mr. Card Game (the Kingdom of Loathing card game): see game.py for where each rule lives."""
