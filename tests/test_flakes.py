"""The flake finder (tests/flakes.py): it names every test that failed in any run, with that
run's seed and log, and says plainly when the CPU hog it needs is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.flakes import failures_in, main

SOMETIMES = """
import os


def test_steady():
    pass


def test_fails_with_seed_2():
    assert os.environ["PYTHONHASHSEED"] != "2", "the seed was 2"
"""


def test_a_test_that_failed_once_is_named_with_its_seed_and_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = tmp_path / "test_sometimes.py"
    tests.write_text(SOMETIMES)
    logs = tmp_path / "logs"
    assert main(["--no-load", "--runs", "2", "--logs", str(logs), str(tests)]) == 1
    out = capsys.readouterr().out
    assert "1 test(s) failed at least once in 2 run(s)" in out
    assert "test_sometimes.py::test_fails_with_seed_2: failed 1 of 2" in out
    assert "run 2, seed 2: AssertionError: the seed was 2" in out
    log = logs / "run-002-seed-2.log"
    assert f"log: {log}" in out and "the seed was 2" in log.read_text()
    assert "test_steady" not in out


def test_without_stress_ng_it_says_so_and_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH with no stress-ng on it
    assert main(["--runs", "1", "--logs", str(tmp_path / "logs"), "tests/panel"]) == 2
    err = capsys.readouterr().err
    assert "stress-ng is not installed" in err and "apt-get install stress-ng" in err and "--no-load" in err
    assert not (tmp_path / "logs").exists()


def test_the_summary_lines_and_tracebacks_give_each_failure_its_reason() -> None:
    log = "\n".join(
        [
            "______________ test_b ______________",
            "    assert x",
            "E   AssertionError: reminder 3",
            "FAILED tests/x.py::test_printed_by_a_test - not a failure of this run",
            "=========================== short test summary info ============================",
            "FAILED tests/a.py::test_a - ValueError: bad",
            "FAILED tests/a.py::test_b",
            "ERROR tests/c.py::test_c - fixture 'nope' not found",
        ]
    )
    assert failures_in(log) == [
        ("tests/a.py::test_a", "ValueError: bad"),
        ("tests/a.py::test_b", "AssertionError: reminder 3"),
        ("tests/c.py::test_c", "fixture 'nope' not found"),
    ]
