"""Simulation runs: identical results for 1 worker, K workers and Ray; resuming; strict files."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine import OptionError
from cardtable.sim.plan import Plan, Setting, make_plan, parse_grid, seat_specs
from cardtable.sim.report import build_report
from cardtable.sim.run import ResumeRefused, run_plan
from cardtable.sim.store import ResultsError, read_results


def _plan(games: int = 24, **kw: Any) -> Plan:
    kw.setdefault("seats", "ismcts:iterations=10,random")
    return make_plan("toy", games=games, seed=11, **kw)


def _games(folder: Path) -> list[dict[str, Any]]:
    rows = sorted(read_results(folder / "results.jsonl"), key=lambda o: (o["setting"], o["index"]))
    for row in rows:
        row.pop("seconds")
    return rows


def test_one_worker_and_two_workers_give_identical_results(tmp_path: Path) -> None:
    plan = _plan(records=True)
    run_plan(plan, tmp_path / "a", workers=1, progress=False)
    run_plan(plan, tmp_path / "b", workers=2, progress=False, batch_size=5)
    a, b = _games(tmp_path / "a"), _games(tmp_path / "b")
    assert len(a) == 24 and a == b
    assert [r["index"] for r in a] == list(range(24))
    recs = sorted((tmp_path / "b" / "records.jsonl").read_text().splitlines())
    assert recs == sorted((tmp_path / "a" / "records.jsonl").read_text().splitlines())


def test_seats_rotate_and_seeds_pair_across_settings(tmp_path: Path) -> None:
    plan = _plan(games=6, grid=parse_grid(["seats=ismcts:iterations=5,random;random"]))
    run_plan(plan, tmp_path, workers=1, progress=False)
    rows = _games(tmp_path)
    first = [r for r in rows if r["setting"] == 0]
    assert [r["seats"][0] for r in first] == ["ismcts:iterations=5", "random"] * 3
    assert [r["agents"] for r in first[:2]] == [[0, 1], [1, 0]]
    # The same deals in every setting.
    assert [r["seed"] for r in rows if r["setting"] == 1] == [r["seed"] for r in first] == list(range(11, 17))
    assert seat_specs(plan.settings[1], 2, 3) == (["random", "random"], [1, 0])


class Interrupt(Exception):
    pass


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupted_run_resumes_with_nothing_repeated_or_lost(tmp_path: Path, workers: int) -> None:
    plan = _plan(games=30, records=True)
    run_plan(plan, tmp_path / "whole", workers=1, progress=False)

    def stop(written: int) -> None:
        if written >= 8:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_plan(plan, tmp_path / "cut", workers=workers, progress=False, batch_size=4, on_batch=stop)
    partial = len(read_results(tmp_path / "cut" / "results.jsonl"))
    assert 8 <= partial < 30
    summary = run_plan(plan, tmp_path / "cut", workers=workers, progress=False, batch_size=4)
    assert (summary.already_done, summary.played) == (partial, 30 - partial)
    assert _games(tmp_path / "cut") == _games(tmp_path / "whole")
    records = [json.loads(x) for x in (tmp_path / "cut" / "records.jsonl").read_text().splitlines()]
    assert sorted((r["setting"], r["index"]) for r in records) == [(0, i) for i in range(30)]


def test_a_torn_last_line_is_cut_and_that_game_replayed(tmp_path: Path) -> None:
    plan = _plan(games=10, records=True)
    run_plan(plan, tmp_path / "whole", workers=1, progress=False)
    run_plan(plan, tmp_path / "cut", workers=1, progress=False)
    results = tmp_path / "cut" / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:6]) + lines[6][:25])  # a write interrupted mid-line
    records = tmp_path / "cut" / "records.jsonl"
    rec_lines = records.read_text().splitlines(keepends=True)
    records.write_text("".join(rec_lines[:8]) + rec_lines[8][:40])  # records 6, 7 orphaned, 8 torn
    with pytest.raises(ResultsError, match=r"results.jsonl:7: incomplete"):
        read_results(results)
    summary = run_plan(plan, tmp_path / "cut", workers=1, progress=False)
    assert summary.repaired and (summary.already_done, summary.played) == (6, 4)
    assert _games(tmp_path / "cut") == _games(tmp_path / "whole")
    keys = [json.loads(x)["index"] for x in records.read_text().splitlines()]
    assert sorted(keys) == list(range(10))


def test_a_corrupt_line_is_reported_with_its_number(tmp_path: Path) -> None:
    plan = _plan(games=5)
    run_plan(plan, tmp_path, workers=1, progress=False)
    results = tmp_path / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    lines[2] = '{"setting": 0, "index": 2, oops\n'
    results.write_text("".join(lines))
    with pytest.raises(ResultsError, match=r"results.jsonl:3: corrupt line"):
        read_results(results)
    with pytest.raises(ResultsError, match=r":3: corrupt"):
        run_plan(plan, tmp_path, workers=1, progress=False)
    lines[2] = '{"setting": 0}\n'
    results.write_text("".join(lines))
    with pytest.raises(ResultsError, match=r":3: corrupt line \(missing index"):
        read_results(results)
    lines[2] = lines[1]
    results.write_text("".join(lines))
    with pytest.raises(ResultsError, match=r":3: game 1 of setting 0 already on line 2"):
        read_results(results)


def test_resuming_into_a_folder_with_other_parameters_is_refused(tmp_path: Path) -> None:
    run_plan(_plan(games=4), tmp_path, workers=1, progress=False)
    before = (tmp_path / "results.jsonl").read_text()
    with pytest.raises(ResumeRefused, match="games: folder has 4, this run has 5"):
        run_plan(_plan(games=5), tmp_path, workers=1, progress=False)
    with pytest.raises(ResumeRefused, match="seats"):
        run_plan(_plan(games=4, seats="random"), tmp_path, workers=1, progress=False)
    assert (tmp_path / "results.jsonl").read_text() == before
    again = run_plan(_plan(games=4), tmp_path, workers=1, progress=False)
    assert (again.already_done, again.played) == (4, 0)


def test_plan_errors_are_clear() -> None:
    with pytest.raises(OptionError, match="3 agent specs"):
        make_plan("toy", seats="random,random,random")
    # A shorter list repeats around the table (here a 4-player table, rotated once).
    two = Setting("x", {}, ("heuristic", "random"), "")
    assert seat_specs(two, 4, 1) == (["random", "heuristic", "random", "heuristic"], [3, 0, 1, 2])
    with pytest.raises(OptionError, match="unknown agent"):
        make_plan("toy", seats="genius")
    with pytest.raises(OptionError, match="unknown option"):
        make_plan("toy", options={"colour": "red"})
    with pytest.raises(OptionError, match="expects key=value"):
        parse_grid(["players"])
    with pytest.raises(OptionError, match="at least 1"):
        make_plan("toy", games=0)


def test_grid_is_a_cross_product() -> None:
    axes = parse_grid(["seats=random;ismcts:iterations=5,c=1,random"])
    assert axes == (("seats", ("random", "ismcts:iterations=5,c=1,random")),)
    assert parse_grid(["players=2,4,6"]) == (("players", ("2", "4", "6")),)
    plan = make_plan("toy", grid=axes, games=2)
    assert [s.label for s in plan.settings] == ["seats=random", "seats=ismcts:iterations=5,c=1,random"]
    assert plan.settings[1].seats == ("ismcts:iterations=5,c=1", "random")


def test_a_folder_of_an_older_format_is_refused_but_still_reported(tmp_path: Path) -> None:
    run_plan(_plan(games=3), tmp_path, workers=1, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["format"] = "cardtable-sim/1"
    for setting in manifest["settings"]:
        del setting["seat_names"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    for line in lines:
        del line["forced"], line["cards"]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(ResumeRefused, match=r"results format cardtable-sim/1, this one writes cardtable-sim/3"):
        run_plan(_plan(games=3), tmp_path, workers=1, progress=False)
    report = build_report(tmp_path, plots=False)
    assert "per-card counts (made by an older cardtable)" in report.text
    assert report.analysis["settings"][0]["seat_names"] == ["P1", "P2"]


def test_batches_hold_whole_game_indices_and_shrink_toward_the_end() -> None:
    from cardtable.sim.run import make_batches
    from cardtable.sim.store import Done

    plan = make_plan("toy", games=400, seed=1, grid=parse_grid(["seats=random;ismcts:iterations=2,random"]))
    done = Done(2, 400)
    done.add(0, 3)  # a resumed run: game 3 of setting 0 is on disk already
    batches = make_batches(plan, done, workers=2)
    games = [g for b in batches for g in b]
    assert sorted(games) == sorted((s, i) for s in range(2) for i in range(400) if (s, i) != (0, 3))
    for b in batches:  # every pending setting of an index in the same batch
        indices = {i for _, i in b}
        assert sorted(b) == sorted((s, i) for i in indices for s in range(2) if (s, i) != (0, 3))
    sizes = [len(b) for b in batches]
    assert sizes[0] > sizes[-1] and all(b <= a + 1 for a, b in itertools.pairwise(sizes))
    assert max(sizes) <= 250 and sizes[-1] <= 2
    fixed = make_batches(plan, done, workers=2, size=10)
    assert all(len(b) <= 10 for b in fixed) and sum(map(len, fixed)) == len(games)


def _report_json(folder: Path, aggregate: Any = None) -> dict[str, Any]:
    a = build_report(folder, plots=False, aggregate=aggregate).analysis
    for s in a["settings"]:
        s.pop("seconds")
    return a


def test_the_report_of_a_run_is_the_same_from_its_workers_and_from_its_file(tmp_path: Path) -> None:
    from cardtable.sim.plan import parse_compare

    plan = make_plan("toy", games=40, seed=4, seats="ismcts:iterations=4,random", compare=())
    one = run_plan(plan, tmp_path / "one", workers=1, progress=False)
    two = run_plan(plan, tmp_path / "two", workers=2, progress=False, batch_size=3)
    from_file = _report_json(tmp_path / "two")
    assert _report_json(tmp_path / "two", two.aggregate) == from_file == _report_json(tmp_path / "one", one.aggregate)
    # And with paired arms split across an interruption and a resume.
    arms = make_plan("mephisto", games=12, seed=2, compare=parse_compare(["Imp.attack=30"]))
    whole = run_plan(arms, tmp_path / "whole", workers=2, progress=False)

    def stop(written: int) -> None:
        if written >= 9:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_plan(arms, tmp_path / "cut", workers=1, progress=False, batch_size=3, on_batch=stop)
    # Cut the last line too, so a pair is split between the folder and the resumed run.
    results = tmp_path / "cut" / "results.jsonl"
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:-1]))
    resumed = run_plan(arms, tmp_path / "cut", workers=2, progress=False)
    assert resumed.already_done == 9 and resumed.aggregate is not None and not resumed.aggregate.pending
    expected = _report_json(tmp_path / "whole", whole.aggregate)
    assert _report_json(tmp_path / "cut", resumed.aggregate) == expected == _report_json(tmp_path / "cut")
