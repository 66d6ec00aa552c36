"""Mr. Card Game (the Kingdom of Loathing card game): see game.py for where each rule lives.

The rules modules call each other (the flow runs the end of a turn, the end of a turn runs the flow),
and they bind each other at import time rather than inside hot functions (an import statement in a
function costs a lookup on every call). That needs one import order: :mod:`.state` imports every
rules module, so importing it first, here, loads them in that order whichever module is asked for.
"""

from cardtable.games.mr_card_game import state as state
