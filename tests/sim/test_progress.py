"""The run's progress as people read it: a speed that never reads "0 games/s", and a log (stderr not a
terminal) that shows a long run alive without a line per game."""

from __future__ import annotations

import pytest

from cardtable.sim.progress import ProgressBar, rate_text


@pytest.mark.parametrize(
    ("rate", "text"),
    [
        (1250.4, "1,250 games/s"),
        (10.0, "10 games/s"),
        (2.54, "2.5 games/s"),
        (1.0, "1.0 games/s"),
        (0.4, "2 s/game"),
        (1 / 40, "40 s/game"),
        (1 / 4000, "4,000 s/game"),
        (None, ""),
        (0.0, ""),
    ],
)
def test_the_speed_reads_well_from_searching_bots_to_random_ones(rate: float | None, text: str) -> None:
    assert rate_text(rate) == text


def test_a_log_gets_a_plain_line_at_most_once_a_minute(capsys: pytest.CaptureFixture[str]) -> None:
    clock = [1000.0]
    bar = ProgressBar("mephisto", 200, 10, clock=lambda: clock[0])  # resumed: 10 games were played before
    for _ in range(3):  # 30 s a game: a line once 60 s have passed, not at every game
        clock[0] += 30.0
        bar.advance(1)
    bar.close()
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("mephisto: ")]
    # One line (after 60 s), with this run's speed (2 games in 60 s), not counting the resumed games.
    assert lines == ["mephisto: 12/200 games, 30 s/game, about 1:34:00 left"]
    assert "13/200" in err  # rich's own last line of the bar


def test_the_line_before_any_game_says_only_how_far() -> None:
    bar = ProgressBar("doctor-strange", 8, 0, enabled=True)
    try:
        assert bar.line(5.0) == "doctor-strange: 0/8 games"
    finally:
        bar.close()
