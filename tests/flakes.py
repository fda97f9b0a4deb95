"""The flake finder: repeat chosen tests while a CPU hog keeps every core busy, and report
each test that failed at least once, with the seed and the log of each failing run.

    python -m tests.flakes --runs 20 tests/bot tests/web
    python -m tests.flakes --runs 5 -- tests/standin -k shards

Each run is a fresh ``python -m pytest`` process (so fixtures, imports and the event loop
start from nothing, as in CI) with its own seed: Hypothesis's ``--hypothesis-seed`` and
``PYTHONHASHSEED``.  The hog is the distribution's ``stress-ng --cpu N``, started before
the first run and stopped after the last.  Nothing is retried: a test that needs a second
chance to pass is a test that fails in CI some day, and this command is here to find it.
See docs/testing.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MISSING_HOG = (
    "stress-ng is not installed, so the tests cannot be run under CPU load.\n"
    "Install it from the distribution (apt-get install stress-ng, as root), "
    "or pass --no-load to repeat the tests on an idle machine."
)


@dataclass
class Failure:
    """One test's failures over all runs."""

    nodeid: str
    runs: list[int] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


@dataclass
class Run:
    number: int
    seed: int
    code: int
    seconds: float
    log: Path
    failed: list[tuple[str, str]]  # (test id, first line of its failure)


def failures_in(log: str) -> list[tuple[str, str]]:
    """(test id, why) for each FAILED or ERROR line of pytest's short summary (``-rfE``); why:
    the summary's message, else the first ``E`` line of the test's traceback."""
    lines = log.splitlines()
    failed: list[tuple[str, str]] = []
    starts = [i for i, line in enumerate(lines) if "short test summary info" in line]
    for line in lines[starts[-1] if starts else len(lines) :]:  # not a test's own output
        for outcome in ("FAILED ", "ERROR "):
            if line.startswith(outcome):
                nodeid, _, message = line[len(outcome) :].partition(" - ")
                nodeid = nodeid.strip()
                why = message.strip() or first_error(lines, nodeid) or outcome.strip().lower()
                failed.append((nodeid, why[:200]))
    return failed


def first_error(lines: list[str], nodeid: str) -> str:
    """The first ``E   ...`` line after the test's section header (``____ test_name ____``)."""
    name = nodeid.rsplit("::", 1)[-1]
    inside = False
    for line in lines:
        if line.startswith("_") and f" {name} " in line:
            inside = True
        elif inside and line.startswith("E "):
            return line[1:].strip()
    return ""


@contextlib.contextmanager
def cpu_hog(cores: int) -> Iterator[None]:
    """``stress-ng --cpu cores`` for the duration of the block, stopped however the block ends."""
    hog = subprocess.Popen(
        ["stress-ng", "--cpu", str(cores), "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its workers share a process group we can stop as one
    )
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(hog.pid, signal.SIGTERM)
        try:
            hog.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(hog.pid, signal.SIGKILL)
            hog.wait()


def run_once(number: int, seed: int, pytest_args: Sequence[str], logs: Path) -> Run:
    log = logs / f"run-{number:03d}-seed-{seed}.log"
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--hypothesis-seed={seed}",
        "-rfE",
        *pytest_args,
    ]
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    started = time.monotonic()
    with log.open("w") as out:
        out.write(f"# PYTHONHASHSEED={seed} {' '.join(command)}\n")
        out.flush()
        with subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT) as pytest:
            try:
                code = pytest.wait()
            except BaseException:  # stopped: so is this run
                pytest.terminate()
                pytest.wait()
                raise
    failed = failures_in(log.read_text(errors="replace"))
    if code not in (0, 5) and not failed:
        # pytest died before writing its report (a crash, a hung test killed): the run failed as a whole.
        failed = [("(the whole run)", f"pytest exited with {code} and no report")]
    return Run(number, seed, code, time.monotonic() - started, log, failed)


def summary(runs: Sequence[Run]) -> list[str]:
    by_test: dict[str, Failure] = {}
    for run in runs:
        for nodeid, message in run.failed:
            failure = by_test.setdefault(nodeid, Failure(nodeid))
            failure.runs.append(run.number)
            failure.messages.append(message)
    total = len(runs)
    if not by_test:
        return [f"No test failed in {total} run(s)."]
    lines = [f"{len(by_test)} test(s) failed at least once in {total} run(s):"]
    by_number = {run.number: run for run in runs}
    for failure in sorted(by_test.values(), key=lambda f: (-len(f.runs), f.nodeid)):
        lines.append(f"  {failure.nodeid}: failed {len(failure.runs)} of {total}")
        for number, message in zip(failure.runs, failure.messages, strict=True):
            run = by_number[number]
            lines.append(f"    run {number}, seed {run.seed}: {message}")
            lines.append(f"      log: {run.log}")
    lines.append("Replay a run: PYTHONHASHSEED=SEED python -m pytest --hypothesis-seed=SEED TEST")
    return lines


def stopped(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.flakes",
        description="Repeat tests under CPU load and report every test that failed at least once.",
    )
    parser.add_argument("--runs", type=int, default=10, help="how many times to run the tests (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the first run's seed; run n uses seed + n - 1")
    parser.add_argument("--cpu", type=int, default=os.cpu_count() or 2, help="stress-ng workers (default: one a core)")
    parser.add_argument("--no-load", action="store_true", help="repeat without the CPU hog")
    parser.add_argument("--logs", type=Path, default=ROOT / ".flakes", help="the runs' logs (default .flakes/)")
    parser.add_argument("pytest_args", nargs="*", help="tests and pytest options (after -- when they start with -)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not args.no_load and shutil.which("stress-ng") is None:
        print(MISSING_HOG, file=sys.stderr)
        return 2
    args.logs.mkdir(parents=True, exist_ok=True)
    # Stopped by a signal (also when started in the background, where SIGINT is ignored):
    # leave through the finally blocks, which stop the current pytest run and the hog.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, stopped)
    load = contextlib.nullcontext() if args.no_load else cpu_hog(args.cpu)
    what = " ".join(a for a in args.pytest_args if not a.startswith("-")) or "the whole suite"
    beside = "on an idle machine" if args.no_load else f"beside stress-ng --cpu {args.cpu}"
    print(f"Running {what} {args.runs} time(s) {beside}; logs in {args.logs}")
    runs: list[Run] = []
    with load:
        for number in range(1, args.runs + 1):
            run = run_once(number, args.seed + number - 1, args.pytest_args, args.logs)
            runs.append(run)
            verdict = "passed" if not run.failed else f"{len(run.failed)} failed"
            print(f"run {number}/{args.runs} (seed {run.seed}): {verdict} in {run.seconds:.0f} s", flush=True)
    print("\n".join(summary(runs)))
    return 1 if any(run.failed for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
