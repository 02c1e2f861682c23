"""benchmarks/serve.py runs end to end on loopback (a few players, one short game each) and reports its line."""

from __future__ import annotations

import importlib.util
import re

from app_helpers import ROOT


def test_the_serve_benchmark_plays_over_loopback_and_prints_its_line(capsys):
    spec = importlib.util.spec_from_file_location("bench_serve", ROOT / "benchmarks" / "serve.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--clients", "3", "--games", "1", "--seconds", "30"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    match = re.fullmatch(r"clients=3 moves_per_s=(\d+) p50_ms=([\d.]+) p99_ms=([\d.]+) errors=0", last)
    assert match, last
    assert int(match.group(1)) > 0 and float(match.group(2)) <= float(match.group(3))
