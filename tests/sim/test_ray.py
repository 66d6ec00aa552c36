"""The Ray backend on a local cluster of two nodes (a head and a worker node, one CPU each, started as
Ray's own processes): simulate, what-if comparisons and tune give exactly the local results. One
cluster serves the whole module, since Ray starts slowly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.cli.main import main
from cardtable.sim.plan import make_plan, parse_compare
from cardtable.sim.report import build_report
from cardtable.sim.run import run_plan
from cardtable.sim.store import read_results
from cardtable.sim.tune import Tuner, TuneSpec, parse_target, parse_vary

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'cardtable[ray]')")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    c.add_node(num_cpus=1)
    try:
        yield c
    finally:
        ray.shutdown()
        c.shutdown()  # type: ignore[no-untyped-call]  # ray leaves Cluster.shutdown unannotated


def _games(folder: Path) -> list[dict[str, Any]]:
    rows = sorted(read_results(folder / "results.jsonl"), key=lambda o: (o["setting"], o["index"]))
    for row in rows:
        row.pop("seconds")
    return rows


def _report(folder: Path) -> dict[str, Any]:
    a = build_report(folder, plots=False).analysis
    for s in a["settings"]:
        s.pop("seconds")
    return a


def test_a_run_on_a_two_node_cluster_is_the_local_run(cluster: Any, tmp_path: Path) -> None:
    plan = make_plan("toy", games=24, seed=11, seats="ismcts:iterations=10,random", records=True)
    run_plan(plan, tmp_path / "local", workers=1, progress=False)
    run_plan(plan, tmp_path / "ray", workers=2, backend="ray", address=cluster.address, progress=False, batch_size=4)
    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2 and ray.cluster_resources()["CPU"] == 2
    assert _games(tmp_path / "ray") == _games(tmp_path / "local")
    records = [sorted((tmp_path / f / "records.jsonl").read_text().splitlines()) for f in ("local", "ray")]
    assert records[0] == records[1]
    assert _report(tmp_path / "ray") == _report(tmp_path / "local")


def test_a_what_if_comparison_on_the_cluster_is_the_local_one(cluster: Any, tmp_path: Path) -> None:
    plan = make_plan("mephisto", games=10, seed=3, compare=parse_compare(["Imp.attack=30"]))
    run_plan(plan, tmp_path / "local", workers=2, progress=False)
    run_plan(plan, tmp_path / "ray", workers=2, backend="ray", address=cluster.address, progress=False)
    assert _games(tmp_path / "ray") == _games(tmp_path / "local")
    assert _report(tmp_path / "ray") == _report(tmp_path / "local")


def test_tune_on_the_cluster_is_the_local_search(cluster: Any, tmp_path: Path) -> None:
    spec = TuneSpec(
        "dial", {}, "random", (), parse_vary(["Clock.ticks=1..20"]), (parse_target("length-turns=9"),), seed=2
    )
    local = Tuner(spec, tmp_path / "local", 600, workers=1, progress=False).run()
    remote = Tuner(spec, tmp_path / "ray", 600, workers=2, backend="ray", address=cluster.address, progress=False).run()
    assert [(c.key, c.games) for c in remote.candidates] == [(c.key, c.games) for c in local.candidates]
    assert remote.best is not None and local.best is not None and remote.best.key == local.best.key
    assert _games(tmp_path / "ray") == _games(tmp_path / "local")


def test_the_simulate_command_takes_the_cluster_address(cluster: Any, tmp_path: Path) -> None:
    common = ["simulate", "mephisto", "-n", "8", "--seed", "5", "--no-progress", "--no-plots"]
    assert main([*common, "--out", str(tmp_path / "local"), "-j", "1"]) == 0
    assert main([*common, "--out", str(tmp_path / "ray"), "--backend", "ray", "--address", cluster.address]) == 0
    assert _games(tmp_path / "ray") == _games(tmp_path / "local")
    assert json.loads((tmp_path / "ray" / "manifest.json").read_text())["games"] == 8
