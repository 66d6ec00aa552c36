"""``cardtable tune``: finds a known optimum within its budget, resumes without playing a game twice,
reports an unreachable target as unmet with the closest setting, and claims no more than its
intervals allow."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cardtable.cli.main import main
from cardtable.engine import CardDataError, OptionError
from cardtable.sim.stats import Interval
from cardtable.sim.store import read_results
from cardtable.sim.tune import TuneError, Tuner, TuneSpec, parse_target, parse_vary, verdict
from cardtable.sim.tune_report import write_report

pytest.importorskip("optuna")

DIAL_AXES = ("Coin.bias=0..10", "Clock.ticks=1..30")


def _spec(*targets: str, axes: tuple[str, ...] = DIAL_AXES, seed: int = 0, **options: object) -> TuneSpec:
    return TuneSpec(
        "dial", dict(options), "random", (), parse_vary(axes), tuple(parse_target(t) for t in targets), seed
    )


class Interrupt(Exception):
    pass


def test_tune_finds_the_known_optimum_within_its_budget(tmp_path: Path) -> None:
    spec = _spec("first-player-edge=0", "length-turns=12")
    result = Tuner(spec, tmp_path, 6000, workers=2, progress=False).run()
    assert result.best is not None and result.best.key == ("5", "11")
    assert result.games <= 6000 and len(result.candidates) < 330  # it searched, it did not try everything
    assert result.best.score is not None and result.best.score.verdicts["length-turns"] == "met"
    # Games went to the promising settings: the best has many times a first batch.
    first = min(c.games for c in result.candidates)
    assert result.best.games >= 8 * first
    text = write_report(result, tmp_path)
    assert "Best setting found: Coin.bias=5 Clock.ticks=11" in text
    assert "To try it: cardtable simulate dial --seats random --card Coin.bias=5 --card Clock.ticks=11" in text
    assert (tmp_path / "search.png").read_bytes().startswith(b"\x89PNG")
    assert "data:image/png;base64," in (tmp_path / "report.html").read_text()
    assert json.loads((tmp_path / "report.json").read_text())["best"]["values"] == {
        "Coin.bias": "5",
        "Clock.ticks": "11",
    }


def test_an_unreachable_target_is_reported_unmet_with_the_closest_setting(tmp_path: Path) -> None:
    spec = _spec("length-turns=100", axes=("Clock.ticks=1..30",))
    result = Tuner(spec, tmp_path, 3000, workers=1, progress=False).run()
    assert result.best is not None and result.best.key == ("30",)
    assert result.closest["length-turns"].key == ("30",)
    assert result.best.score is not None and result.best.score.verdicts["length-turns"] == "unmet"
    assert result.stopped == "settled" and result.games < 3000  # nothing left to learn: budget kept
    text = write_report(result, tmp_path, plots=False)
    assert (
        "Target game length in turns 100 ± 5 is unmet: no setting tried reaches it. The closest, Clock.ticks=30" in text
    )
    assert "It meets every target" not in text


def test_an_interrupted_search_resumes_without_playing_a_game_twice(tmp_path: Path) -> None:
    spec = _spec("first-player-edge=0", "length-turns=12", axes=("Coin.bias=2..8", "Clock.ticks=8..14"), seed=3)
    whole = Tuner(spec, tmp_path / "whole", 2000, workers=1, progress=False).run()

    def stop(played: int) -> None:
        if played >= 700:
            raise Interrupt

    with pytest.raises(Interrupt):
        Tuner(spec, tmp_path / "cut", 2000, workers=2, progress=False, on_batch=stop).run()
    before = len(read_results(tmp_path / "cut" / "results.jsonl"))
    assert 700 <= before < 2000
    resumed = Tuner(spec, tmp_path / "cut", 2000, workers=2, progress=False).run()
    lines = read_results(tmp_path / "cut" / "results.jsonl")  # refuses any game given twice
    assert len(lines) == resumed.games == whole.games and resumed.played_now == resumed.games - before
    assert [(c.key, c.games) for c in resumed.candidates] == [(c.key, c.games) for c in whole.candidates]
    assert resumed.best is not None and whole.best is not None and resumed.best.key == whole.best.key
    # A larger budget continues the search from every game already played.
    more = Tuner(spec, tmp_path / "cut", 3000, workers=1, progress=False).run()
    assert more.played_now == more.games - resumed.games > 0
    assert len(read_results(tmp_path / "cut" / "results.jsonl")) == more.games


def test_claims_follow_the_intervals() -> None:
    t = parse_target("first-player-edge=0±2%")
    assert (t.value, t.tolerance) == (0.0, 0.02)
    assert verdict(t, Interval(0.0, -0.019, 0.019, 100)) == "met"
    assert verdict(t, Interval(0.0, -0.03, 0.01, 100)) == "undecided"  # may be outside: not claimed
    assert verdict(t, Interval(0.05, 0.03, 0.07, 100)) == "unmet"
    assert verdict(t, Interval(math.nan, 0.0, 1.0, 0)) == "undecided"
    length = parse_target("length-turns=30")
    assert (length.value, length.tolerance) == (30.0, 1.5)
    assert parse_target("win-share:P1=55%").value == pytest.approx(0.55)
    assert parse_target("end:turn-limit=0.1+-0.05").tolerance == pytest.approx(0.05)


def test_an_option_can_be_varied(tmp_path: Path) -> None:
    spec = _spec("length-turns=9", axes=("overtime=0..6",), seed=1)
    result = Tuner(spec, tmp_path, 1500, workers=1, progress=False).run()
    assert result.best is not None and result.best.key == ("2",)  # 6 ticks + 2 overtime + 1 on average
    assert result.best.setting.options["overtime"] == 2 and result.best.setting.card_edits == ()
    text = write_report(result, tmp_path, plots=False)
    assert "cardtable simulate dial --seats random -o overtime=2 --games" in text


@pytest.mark.parametrize(
    ("vary", "target", "error", "says"),
    [
        ("Coin.bias=3..1", "length-turns=5", TuneError, "is empty"),
        ("Coin.bias", "length-turns=5", TuneError, "--vary expects"),
        ("Coin.bias=1..3", "length=5", TuneError, "Metrics: first-player-edge"),
        ("Coin.bias=1..3", "length-turns=x", TuneError, "is not a number"),
        ("Coin.bias=1..3", "win-share:P9=0.5", TuneError, "neither a seat"),
        ("Coin.bias=1..3", "first-player-edge=2", TuneError, "between 0 and 1"),
        ("Coin.bias=9..11", "length-turns=5", CardDataError, "field 'bias': must be at most 10"),
        ("Coin.bais=1..3", "length-turns=5", CardDataError, "field 'bais': unknown field"),
        ("overtime=0..30", "length-turns=5", OptionError, "at most 20"),
    ],
)
def test_bad_input_is_refused_before_any_game(
    tmp_path: Path, vary: str, target: str, error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        Tuner(_spec(target, axes=(vary,)), tmp_path, 100, workers=1, progress=False).run()
    assert not (tmp_path / "results.jsonl").exists()


def test_a_folder_of_another_search_is_refused(tmp_path: Path) -> None:
    Tuner(_spec("length-turns=9", axes=("Clock.ticks=5..9",)), tmp_path, 100, workers=1, progress=False).run()
    with pytest.raises(TuneError, match="holds a different search") as refused:
        Tuner(_spec("length-turns=10", axes=("Clock.ticks=5..9",)), tmp_path, 100, workers=1, progress=False).run()
    # The difference as the designer typed it, not Python's reprs of the two manifests.
    assert "--target: folder has length-turns=9±0.5, this search has length-turns=10±0.5" in str(refused.value)
    assert not set("[]{}'") & set(str(refused.value).split("\n", 1)[1])


def test_the_tune_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tune", "dial", "--vary", "Clock.ticks=1..12", "--target", "length-turns=8", "--budget", "800"]
    argv += ["--out", str(tmp_path / "t"), "-j", "1", "--no-progress", "--no-plots"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Best setting found: Clock.ticks=7" in out and "report: " in out
    assert main(argv) == 0  # again: resumes, plays nothing
    assert "(0 played now)" in capsys.readouterr().out
    assert main(["report", str(tmp_path / "t")]) == 2
    assert "is a balance search (`cardtable tune`): run the same tune command again" in capsys.readouterr().err
    assert (
        main(["tune", "dial", "--vary", "Clock.ticks=1..3", "--target", "length=3", "--out", str(tmp_path / "u")]) == 2
    )
    assert "--target expects METRIC=VALUE" in capsys.readouterr().err


def test_an_edge_reads_in_points_and_a_share_in_percent() -> None:
    """As every other report writes them: the first player's edge is a difference of shares."""
    from cardtable.sim.tune_report import figure_text, target_text

    edge = parse_target("first-player-edge=0±2%")
    assert figure_text(edge, Interval(0.002, -0.053, 0.056, 320)) == "+0.2 points [-5.3, +5.6]"
    assert target_text(edge) == "+0 ± 2 points"
    share = parse_target("win-share:heuristic=55%")
    assert figure_text(share, Interval(0.525, 0.49, 0.56, 100)) == "52.5% [49.0, 56.0]"
    assert target_text(share) == "55% ± 2"
