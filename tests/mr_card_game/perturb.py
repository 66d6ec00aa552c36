"""A perturbation check for hidden information by timing (DESIGN.md, "Who decides").

From a state, determinize for seat ``s`` (everything ``s`` cannot see resampled), give the copy the
same generator (public chance identical), and continue the true game and the copy with the same
actions: ``s``'s own (legal in both, since ``s`` knows its hand) and the other seats' (chosen among
the actions legal in both). ``s``'s view, the events it reads, the error message it gets for a bad
action and who decides must stay identical. In this game no seat ever learns a hidden card from
chance alone (face-down piles are unordered and kept sorted, so the same random number reveals the
same card in both), so the comparison runs for the whole continuation.
"""

from __future__ import annotations

from cardtable.engine import IllegalAction, Rng
from cardtable.games.mr_card_game.state import McgState


class PerturbationError(AssertionError):
    pass


def check_perturbation(state: McgState, seat: int, seed: int, steps: int = 80) -> int:
    """Run the check from ``state`` for ``seat``; returns how many steps were compared."""
    true = state.clone()
    true.start_log()
    other = state.determinize(seat, Rng(seed))
    assert isinstance(other, McgState)
    other.rng = state.rng.copy()
    other.start_log()
    r = Rng(seed * 31 + 7)
    items = state.game.actions.items
    for step in range(steps):
        where = f"seat P{seat + 1}, step {step}"
        if true.current_player != other.current_player or true.is_over != other.is_over:
            raise PerturbationError(f"{where}: who decides differs ({true.current_player} / {other.current_player})")
        if true.view(seat) != other.view(seat):
            raise PerturbationError(f"{where}: the view differs")
        if true.events(seat) != other.events(seat):
            raise PerturbationError(f"{where}: the events differ: {true.events(seat)[-3:]} / {other.events(seat)[-3:]}")
        if true.is_over:
            return step
        lt, lo = true.legal_actions(), other.legal_actions()
        bad = items[r.below(len(items))]
        if bad not in lt and bad not in lo:
            messages = []
            for st in (true, other):
                try:
                    st.apply(bad, seat=seat)
                except IllegalAction as exc:
                    messages.append(str(exc))
            if len(messages) != 2 or messages[0] != messages[1]:
                raise PerturbationError(f"{where}: the error message for {bad.text!r} differs: {messages}")
        if true.current_player == seat:
            if [a.index for a in lt] != [a.index for a in lo]:
                raise PerturbationError(f"{where}: the seat's own legal actions differ")
            action = lt[r.below(len(lt))]
        else:
            common = [a for a in lt if a in lo]
            if not common:
                raise PerturbationError(f"{where}: no action of P{true.current_player} is legal in both games")
            action = common[r.below(len(common))]
        true.apply(action)
        other.apply(action)
    return steps
