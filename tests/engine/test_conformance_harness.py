"""The conformance harness catches what it promises to catch.

Each test breaks one promise in a small variant of the toy game and checks that the harness reports
that very promise (by its check name), so no check of the harness can silently pass everything.
Variants are registered only for the duration of their test (``monkeypatch``), because ``replay``
loads games by id and other tests enumerate ``cardtable.available()``.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
import cardtable.games
from cardtable.engine import JSON, Action, ActionSpace, ReplayDivergence, Result, Rng, State
from cardtable.testing.conformance import (
    CardNames,
    ConformanceError,
    check_bad_input,
    check_game,
    check_json_ready,
    check_no_leaks,
    check_perturbation,
    check_result,
    check_tampered_records,
    config_label,
)
from tests.engine.toy import Toy, ToyState

# The reference game, as every test of the harness expects it (replay loads games by id).
cardtable.register("toy", Toy)

NAMES = ["Ace", "Bow", "Cat", "Dog", "Elf", "Fox", "Gem", "Hat", "Imp", "Jay"]


class NamedToy(Toy):
    """The toy game with card names in its views and events: what the leak check needs to work on."""

    id = "toy-named"
    # "hands", "rumour" and "note" are declared for the leaky variants below, which put secrets there.
    VIEW_KEYS = frozenset(Toy.VIEW_KEYS or ()) | {"hands", "rumour", "note"}

    def new_state(self, seed: int, log: bool) -> State:
        return NamedToyState(self, seed, log)


def card(c: int) -> dict[str, JSON]:
    """A toy card as views show cards: its id, name, type and text."""
    return {"id": c, "name": NAMES[c], "type": "number", "text": f"worth {c} points"}


class NamedToyState(ToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        out = super()._view(seat)
        if seat is not None:
            out["hand"] = [card(c) for c in sorted(self.hands[seat])]
        out["table"] = [card(c) for c in self.table]
        return out

    def _do(self, action: Action) -> None:
        seat = self.current_player
        if action.kind == "draw" and self.log is not None and seat is not None:
            # Tell the drawing seat which card it drew, privately, before the base rules run.
            self.emit("peek", "a card is drawn", f"you will draw {NAMES[self.deck[-1]]}", (seat,))
        super()._do(action)
        if action.kind == "play":
            self.emit("named", f"that was {NAMES[int(action.args[0])]}")


def variant(name: str, state_cls: type[ToyState], game_base: type[Toy] = NamedToy) -> type[Toy]:
    """A game class with id ``name`` whose states are ``state_cls``."""

    def new_state(self: Toy, seed: int, log: bool) -> State:
        return state_cls(self, seed, log)

    return type(name.replace("-", "_"), (game_base,), {"id": name, "new_state": new_state})


def check_variant(
    monkeypatch: pytest.MonkeyPatch, game: type[Toy], seeds: range = range(4), perturbations: int = 0
) -> ConformanceError:
    """Register ``game`` for this test, run the harness, and return the error it must raise.

    The perturbation check is off unless asked for: it would also catch most leaks, and each test
    here shows that one particular check catches its broken promise."""
    monkeypatch.setitem(cardtable.games._EXTRA, game.id, game)
    with pytest.raises(ConformanceError) as info:
        check_game(game.id, {"players": 2}, seeds, perturbations=perturbations)
    return info.value


# -- the reference variant passes --------------------------------------------------------------------


def test_named_toy_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(cardtable.games._EXTRA, NamedToy.id, NamedToy)
    report = check_game(NamedToy.id, {"players": 2}, range(6))
    assert all(p.over for p in report.playouts)
    assert report.steps > 0


# -- each broken promise is reported -----------------------------------------------------------------


class LeakyEvent(NamedToyState):
    __slots__ = ()

    def _do(self, action: Action) -> None:
        if action.kind == "draw" and self.current_player is not None:
            self.emit("oops", f"P{self.current_player + 1} draws {NAMES[self.deck[-1]]}")
        super()._do(action)


def test_leak_through_a_public_event(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-leaky-event", LeakyEvent))
    assert err.check == "leak"
    assert "event" in err.problem


class LeakyView(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        out = super()._view(seat)
        out["hands"] = [[card(c) for c in h] for h in self.hands]
        return out


def test_leak_through_a_card_object_in_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-leaky-view", LeakyView))
    assert err.check == "leak"
    assert "shows card" in err.problem


class LeakyName(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        out = super()._view(seat)
        out["rumour"] = "someone holds " + " and ".join(NAMES[c] for h in self.hands for c in h)
        return out


def test_leak_of_a_name_in_view_text(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-leaky-name", LeakyName))
    assert err.check == "leak"
    assert "view(" in err.problem


def test_leak_check_ignores_names_inside_longer_known_names() -> None:
    """A secret "Imp" inside a known "Imp Lord" is no leak; a bare "Imp" is."""

    class Probe(NamedToyState):
        __slots__ = ()
        text = ""

        def _view(self, seat: int | None) -> dict[str, JSON]:
            out = super()._view(seat)
            if seat == 0:
                out["note"] = Probe.text
            return out

    game = variant("toy-probe", Probe)(players=2)
    state = game.new(0)
    assert isinstance(state, ToyState)
    names = CardNames()
    other_card = state.hands[1][0]
    mine = state.hands[0][0]
    names.names = {other_card: {"Imp"}, mine: {"Imp Lord"}}
    Probe.text = "Imp Lord waits"
    check_no_leaks(state, names)
    Probe.text = "an Imp waits"
    with pytest.raises(ConformanceError, match="names 'Imp'"):
        check_no_leaks(state, names)


def test_leak_check_reads_a_rule_name_as_a_word_and_looks_for_the_full_card_name() -> None:
    """A name the rules use as a word ("needs the Imp") points at no card; "Imp (card N)" does."""

    class Probe(NamedToyState):
        __slots__ = ()
        text = ""

        def _view(self, seat: int | None) -> dict[str, JSON]:
            out = super()._view(seat)
            if seat == 0:
                out["note"] = Probe.text
            return out

    base = variant("toy-probe-words", Probe)

    def card_name(self: Toy, c: int) -> str:
        return f"{NAMES[c]} (card {c})"

    worded: type[Toy] = type("toy_probe_words", (base,), {"card_name": card_name})
    game = worded(players=2)
    state = game.new(0)
    assert isinstance(state, ToyState)
    other_card = state.hands[1][0]
    word = NAMES[other_card]
    worded.RULE_NAMES = frozenset({word})
    names = CardNames()
    names.names = {other_card: {word}}
    Probe.text = f"whoever holds the {word} wins"
    check_no_leaks(state, names)
    Probe.text = f"P2 holds {word} (card {other_card})"
    with pytest.raises(ConformanceError, match=rf"names '{word} \(card"):
        check_no_leaks(state, names)
    # Without the declaration the bare word is a leak, as before.
    worded.RULE_NAMES = frozenset()
    Probe.text = f"whoever holds the {word} wins"
    with pytest.raises(ConformanceError, match=f"names '{word}'"):
        check_no_leaks(state, names)


class NoResample(NamedToyState):
    __slots__ = ()

    def _determinize(self, seat: int, rng: Rng) -> ToyState:
        other, _ = self._reseeded_clone(rng)
        assert isinstance(other, ToyState)
        return other


def test_determinize_that_resamples_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-no-resample", NoResample))
    assert err.check == "determinize"
    assert "changed any hidden card" in err.problem


class ResampleOwnHand(NamedToyState):
    __slots__ = ()

    def _determinize(self, seat: int, rng: Rng) -> ToyState:
        other, r = self._reseeded_clone(rng)
        assert isinstance(other, ToyState)
        zones = [other.deck, other.hands[0], other.hands[1]]
        pool = sorted(c for z in zones for c in z)
        r.shuffle(pool)
        for z in zones:
            for i in range(len(z)):
                z[i] = pool.pop()
        return other


def test_determinize_that_changes_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-resample-own", ResampleOwnHand))
    assert err.check == "determinize"
    assert "view(" in err.problem


class TrueOrderShuffle(NamedToyState):
    __slots__ = ()

    def _determinize(self, seat: int, rng: Rng) -> ToyState:
        # Shuffles the hidden cards starting from their true order: the result betrays the truth.
        other, r = self._reseeded_clone(rng)
        assert isinstance(other, ToyState)
        hidden = other.deck + other.hands[1 - seat]
        r.shuffle(hidden)
        n = len(other.deck)
        other.deck[:] = hidden[:n]
        other.hands[1 - seat][:] = hidden[n:]
        return other


def test_determinize_that_depends_on_the_true_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-true-order", TrueOrderShuffle))
    assert err.check == "determinize"
    assert "cannot tell apart" in err.problem


class SharedClone(NamedToyState):
    __slots__ = ()

    def clone(self) -> ToyState:
        other = super().clone()
        other.hands = self.hands  # shares the hands with the original
        return other


def test_clone_that_shares_data(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-shared-clone", SharedClone))
    assert err.check in ("clone", "apply-legal", "determinize")


class TupleView(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        out = super()._view(seat)
        out["scores"] = tuple(self.scores)
        return out


def test_view_that_is_not_json_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-tuple-view", TupleView))
    assert err.check == "view"
    assert "tuple" in err.problem


class IntKeySnapshot(NamedToyState):
    __slots__ = ()

    def _snapshot(self) -> dict[str, JSON]:
        out = super()._snapshot()
        out["by_seat"] = {0: self.scores[0], 1: self.scores[1]}
        return out


def test_snapshot_with_integer_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-int-keys", IntKeySnapshot))
    assert err.check == "snapshot"
    assert "non-string key" in err.problem


class NoActionMidGame(NamedToyState):
    __slots__ = ()

    def _legal_actions(self) -> list[Action]:
        return [] if self.turn == 3 else super()._legal_actions()


def test_empty_legal_actions_before_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-stuck", NoActionMidGame))
    assert err.check == "legal-actions"
    assert "before the end" in err.problem


class DrawFromEmptyDeck(NamedToyState):
    __slots__ = ()

    def _legal_actions(self) -> list[Action]:
        legal = super()._legal_actions()
        draw = self.game.DRAW
        return legal if draw in legal or self.played else [*legal, draw]


def test_legal_action_that_does_not_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-empty-draw", DrawFromEmptyDeck))
    assert err.check in ("apply-legal", "crash", "rollout", "clone", "determinized-rollout")
    assert "draw" in err.problem


class ForeignAction(NamedToyState):
    __slots__ = ()

    def _legal_actions(self) -> list[Action]:
        space = ActionSpace()
        space.declare("draw")
        return [space.add("draw") if a.kind == "draw" else a for a in super()._legal_actions()]


def test_legal_action_from_another_action_space(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-foreign", ForeignAction))
    assert err.check == "legal-actions"
    assert "interned" in err.problem


class EarlyResult(NamedToyState):
    __slots__ = ()

    def result(self) -> Result:
        return Result((0.0, 0.0), (1, 1), (), "early", self.turn)


def test_result_before_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-early-result", EarlyResult))
    assert err.check == "result"
    assert "before the end" in err.problem


def _finished(seed: int = 0) -> State:
    state = Toy(players=2).new(seed)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize(
    ("broken", "words"),
    [
        (Result((1.0,), (1, 2), (0,), "x", 3), "scores"),
        (Result((1.0, 0.0), (1, 3), (0,), "x", 3), "rank 3"),
        (Result((1.0, 0.0), (1, 1), (0,), "x", 3), "exactly the seats ranked 1"),
        (Result((1.0, 0.0), (2, 2), (), "x", 3), "competition ranks"),
        (Result((1.0, 0.0), (1, 2), (1,), "x", 3), "exactly the seats ranked 1"),
        (Result((1.0, 0.0), (1, 2), (0,), "", 3), "reason"),
        (Result((float("nan"), 0.0), (1, 2), (0,), "x", 3), "finite"),
        (Result((1.0, 0.0), (1, 2), (0,), "x", 3, teams=((0,),)), "partition"),
    ],
)
def test_malformed_results(monkeypatch: pytest.MonkeyPatch, broken: Result, words: str) -> None:
    state = _finished()
    check_result(state)  # the real result is well formed
    monkeypatch.setattr(ToyState, "result", lambda self: broken)
    with pytest.raises(ConformanceError, match=words):
        check_result(state)


class Nondeterministic(NamedToyState):
    __slots__ = ()
    deals = 0

    def __init__(self, game: Toy, seed: int, log: bool) -> None:
        # Mixes a process-wide counter into the deal: the same seed gives different games.
        Nondeterministic.deals += 1
        super().__init__(game, seed + Nondeterministic.deals, log)
        self.seed = seed


def test_nondeterministic_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-nondeterministic", Nondeterministic))
    assert err.check in ("determinism", "replay", "crash")


class LogDependent(NamedToyState):
    __slots__ = ()

    def _do(self, action: Action) -> None:
        super()._do(action)
        if self.log is not None and action.kind == "play":
            self.scores[0] += 0 if len(self.log) % 2 else 1


def test_state_that_depends_on_the_event_log(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-log-dependent", LogDependent))
    assert err.check == "determinism"


class NumberEvent(NamedToyState):
    __slots__ = ()

    def _do(self, action: Action) -> None:
        super()._do(action)
        if self.log is not None:
            self.emit("num", 7)  # type: ignore[arg-type]  # deliberately not text


def test_event_text_that_is_not_a_string(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-number-event", NumberEvent))
    assert err.check in ("events", "crash", "leak")


class StillDeciding(NamedToyState):
    __slots__ = ()

    def _do(self, action: Action) -> None:
        super()._do(action)
        if self.is_over:
            self.current_player = 0


def test_current_player_after_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-still-deciding", StillDeciding))
    assert err.check == "current-player"


class MutatingRefusal(NamedToyState):
    __slots__ = ()

    def apply(self, action: object, seat: object = None) -> Any:
        self.scores[0] += 1  # changes the state before the base class refuses bad input
        return super().apply(action, seat)


def test_bad_input_that_changes_the_state() -> None:
    game = variant("toy-mutating", MutatingRefusal)(players=2)
    with pytest.raises(ConformanceError, match="changed the state") as info:
        check_bad_input(game.new(0), Rng(1))
    assert info.value.check == "bad-input"


def test_bad_input_is_refused_with_the_right_classes() -> None:
    """On the real toy, every kind of bad input passes, before and after the end."""
    state = Toy(players=2).new(3)
    check_bad_input(state, Rng(1))
    check_bad_input(_finished(3), Rng(1))


def test_tampered_record_accepted_by_a_lenient_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _finished(5)
    check_tampered_records(state, Rng(2))  # the engine's replay passes
    real = cardtable.replay
    monkeypatch.setattr(cardtable, "replay", lambda rec, **kw: real(rec, **{**kw, "verify": False}))
    with pytest.raises(ConformanceError, match="accepted the tampered record"):
        check_tampered_records(state, Rng(2))


def test_tampered_record_with_the_wrong_index(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _finished(5)

    def always_zero(rec: Any, **kw: Any) -> State:
        raise ReplayDivergence(0, "record diverges at action 0")

    monkeypatch.setattr(cardtable, "replay", always_zero)
    with pytest.raises(ConformanceError, match="names index 0, not"):
        check_tampered_records(state, Rng(2))


def test_json_ready() -> None:
    check_json_ready({"a": [1, 2.5, "x", None, True, {"b": []}]}, "v")
    for bad, words in [
        ({"a": (1, 2)}, "tuple"),
        ({1: 2}, "non-string key"),
        ({"a": float("inf")}, "JSON cannot carry"),
        ({"a": {1, 2}}, "set"),
    ]:
        with pytest.raises(ConformanceError, match=words):
            check_json_ready(bad, "v")


def test_config_labels_are_stable_file_names() -> None:
    assert config_label({}) == "default"
    assert config_label({"variant": "care bear", "players": 2}) == "players-2_variant-care-bear"
    assert config_label({"teams": True}) == "teams-true"


class TurnGoesBack(NamedToyState):
    __slots__ = ()

    def _do(self, action: Action) -> None:
        super()._do(action)
        if self.turn == 4:
            self.turn = 2


def test_turn_counter_that_goes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-turn-back", TurnGoesBack))
    assert err.check == "turn"


class LegalDependsOnHidden(NamedToyState):
    __slots__ = ()

    def _legal_actions(self) -> list[Action]:
        legal = super()._legal_actions()
        seat = self.current_player
        assert seat is not None
        if any(c < 5 for c in self.hands[1 - seat]):
            # Drawing is refused when the opponent holds a low card: the legal list betrays its hand.
            legal = [a for a in legal if a.kind != "draw"] or legal
        return legal


def test_legal_actions_that_betray_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-legal-leak", LegalDependsOnHidden))
    assert err.check == "determinize"
    assert "cannot see" in err.problem


class ForgetfulKnown(NamedToyState):
    __slots__ = ()

    def _known_cards(self, seat: int | None) -> set[int]:
        # Claims to know the top card of the deck: a determinization moves it, so the claim is false.
        known = super()._known_cards(seat)
        return known | ({self.deck[-1]} if self.deck and seat is not None else set())


def test_known_cards_that_determinize_does_not_keep(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-forgetful", ForgetfulKnown))
    assert err.check == "determinize" and "known_cards" in err.problem


# -- fairness: whether a decision appears must not reveal a hidden card -----------------------------


class WindowToy(NamedToy):
    """The toy with a response window: after a play, the opponent may ``counter`` with card 0 (the
    counter goes to the table) or ``pass``. Its states decide when the window opens."""

    id = "toy-window"
    VIEW_KEYS = frozenset(NamedToy.VIEW_KEYS or ()) | {"window"}

    def _setup(self) -> None:
        super()._setup()
        self.actions.declare("counter")
        self.COUNTER = self.actions.add("counter")


class WindowState(NamedToyState):
    """Unfair: the window opens only when the opponent really holds card 0, so everyone watching
    learns whether it does (the Doctor Strange bug of issue 8)."""

    __slots__ = ("window",)

    def __init__(self, game: Toy, seed: int, log: bool) -> None:
        super().__init__(game, seed, log)
        self.window = -1

    def opens(self, responder: int) -> bool:
        return 0 in self.hands[responder]

    def _legal_actions(self) -> list[Action]:
        g: Any = self.game
        if self.window >= 0:
            return [g.COUNTER, g.PASS] if 0 in self.hands[self.window] else [g.PASS]
        return super()._legal_actions()

    def _do(self, action: Action) -> None:
        if self.window >= 0:
            responder, self.window = self.window, -1
            if action.kind == "counter":
                self.hands[responder].remove(0)
                self.table.append(0)
                self.emit("counter", f"P{responder + 1} counters with {NAMES[0]}")
            else:
                self.emit("let", f"P{responder + 1} lets it be")
            self.current_player = 1 - responder
            return
        seat = self.current_player
        assert seat is not None
        super()._do(action)
        if action.kind == "play" and self.opens(1 - seat):
            self.window = 1 - seat
            self.current_player = 1 - seat

    def _view(self, seat: int | None) -> dict[str, JSON]:
        out = super()._view(seat)
        out["window"] = self.game.seat_name(self.window) if self.window >= 0 else None
        return out

    def _snapshot(self) -> dict[str, JSON]:
        return {**super()._snapshot(), "window": self.window}

    def clone(self) -> ToyState:
        other = super().clone()
        assert isinstance(other, WindowState)
        other.window = self.window
        return other


class FairWindowState(WindowState):
    """Fair: the window opens whenever the opponent *might* hold card 0 as far as anyone can see
    (it has a card and card 0 is not on the table); without it, the opponent simply passes."""

    __slots__ = ()

    def opens(self, responder: int) -> bool:
        return bool(self.hands[responder]) and 0 not in self.table


def test_perturbation_catches_a_window_that_opens_on_a_hidden_card(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-window-unfair", WindowState, WindowToy), range(8), perturbations=2)
    assert err.check == "perturbation"
    assert "seat to decide" in err.problem


def test_perturbation_passes_a_window_opened_on_public_information(monkeypatch: pytest.MonkeyPatch) -> None:
    game = variant("toy-window-fair", FairWindowState, WindowToy)
    monkeypatch.setitem(cardtable.games._EXTRA, game.id, game)
    report = check_game(game.id, {"players": 2}, range(8))
    assert all(p.over for p in report.playouts)


def test_perturbation_directly_on_one_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_perturbation alone: from the deal, seat 0 plays; whether P2's window opens depends only
    on what P1 can see in the fair game, on P2's hand in the unfair one."""
    found = {}
    for name, cls in (("unfair", WindowState), ("fair", FairWindowState)):
        game = variant(f"toy-window-direct-{name}", cls, WindowToy)(players=2)
        errors = 0
        for seed in range(40):
            state = game.new(seed, log=False)
            try:
                check_perturbation(state, 0, Rng(seed), steps=6)
            except ConformanceError as exc:
                assert exc.check == "perturbation"
                errors += 1
        found[name] = errors
    assert found["fair"] == 0
    assert found["unfair"] > 0


class DrawTwo(NamedToyState):
    """``draw`` takes two cards, one event each, naming each card to the drawer."""

    __slots__ = ()

    def _do(self, action: Action) -> None:
        if action.kind != "draw":
            super()._do(action)
            return
        seat = self.current_player
        assert seat is not None
        for _ in range(min(2, len(self.deck))):
            card = self.deck.pop()
            self.hands[seat].append(card)
            self.emit("draw", f"P{seat + 1} draws a card", f"you draw {NAMES[card]}", (seat,))
        self.current_player = 1 - seat
        self.turn += 1


def test_perturbation_ends_when_the_seat_learns_the_same_cards_in_another_order() -> None:
    """Two draws that take the last two cards of the deck: the true game and its twin deal the seat
    the same cards, maybe in the other order, so it reads the draws in another order. That is
    something new that differs between them, not a leak."""
    game = variant("toy-draw-two", DrawTwo)(players=2)
    swapped = 0
    for seed in range(30):
        state = game.new(seed, log=False)
        assert isinstance(state, DrawTwo)
        # P1 to move with two cards left in the deck; P2 holds none.
        state.deck, state.hands[1] = state.deck[:2], []
        state._legal = None
        twin = state.determinize(0, Rng(seed))
        assert isinstance(twin, DrawTwo)
        swapped += twin.deck == state.deck[::-1]
        check_perturbation(state, 0, Rng(seed), steps=4)
    assert swapped > 0, "no twin dealt the two cards in the other order: the case was never tried"


class SeatBlindError(NamedToyState):
    """An error message that tells the seat to decide something about the other seat's hand."""

    __slots__ = ()

    def _why_illegal(self, action: Action) -> str | None:
        seat = self.current_player
        assert seat is not None
        other = 1 - seat
        return f"{self.game.seat_name(other)} holds {len(set(self.hands[other]) & {0, 1, 2})} low cards"


def test_perturbation_compares_error_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-error-leak", SeatBlindError), range(8), perturbations=2)
    assert err.check == "perturbation" and "error" in err.problem


class HalfExplained(NamedToyState):
    """Says why a low card (0-4) not in hand cannot be played, and nothing else."""

    __slots__ = ()

    def _why_illegal(self, action: Action) -> str | None:
        if action.kind == "play" and int(action.args[0]) < 5:
            return "that card is not in your hand"
        return None


class Explained(HalfExplained):
    __slots__ = ()

    def _why_illegal(self, action: Action) -> str | None:
        return super()._why_illegal(action) or f"{action.kind} is not open now"


def test_a_game_that_explains_refusals_explains_every_refusal_of_a_kind_it_offers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``play card=3`` refused while other plays are legal must say why, once the game says why
    anywhere. The same variant explaining everything passes (the control)."""
    err = check_variant(monkeypatch, variant("toy-half-explained", HalfExplained))
    assert err.check == "bad-input" and "refused without a reason" in err.problem
    monkeypatch.setitem(cardtable.games._EXTRA, "toy-explained", variant("toy-explained", Explained))
    check_game("toy-explained", {"players": 2}, range(4))


class InternalView(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        return {**super()._view(seat), "scores": {"queue": [1, 2]}}


def test_views_must_not_show_engine_bookkeeping(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-internal-view", InternalView))
    assert err.check == "view-internals" and "queue" in err.problem


class UndeclaredKey(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        return {**super()._view(seat), "phase_code": 3}


def test_views_must_declare_their_top_level_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-undeclared", UndeclaredKey))
    assert err.check == "view-keys" and "phase_code" in err.problem


class BareCard(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        out = super()._view(seat)
        out["table"] = [{"id": c, "name": NAMES[c]} for c in self.table]
        return out


def test_cards_in_views_carry_their_printed_data(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-bare-card", BareCard))
    assert err.check == "view-cards"


class NoPrompt(NamedToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        return {**super()._view(seat), "prompt": ""}


def test_views_say_what_is_being_decided(monkeypatch: pytest.MonkeyPatch) -> None:
    err = check_variant(monkeypatch, variant("toy-no-prompt", NoPrompt))
    assert err.check == "view-prompt"
