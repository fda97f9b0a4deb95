"""Every command line of the project (issue 29): ``--help`` prints usage and exits 0, an
unknown option is refused with exit status 2, and neither runs anything heavy (each run is
given a time limit far below what a benchmark, a demo game or a bot start takes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TIME_LIMIT_S = 60  # a python start and an import of discord.py take a few seconds at worst

# Each command line, and what it needs besides (required arguments, given with the unknown
# option so that the option itself is what gets refused; none of them is ever used).
COMMANDS: list[tuple[list[str], list[str]]] = [
    (["-m", "bot"], []),
    (["-m", "bot.launch"], []),
    (["-m", "bot.gallery"], ["pictures"]),
    (["-m", "bot.draw"], ["--lang", "en"]),
    (["-m", "bot.store"], ["verify", "games.db"]),
    (["-m", "bot.store", "verify"], ["games.db"]),
    (["-m", "bot.store", "backup"], ["games.db", "copy.db"]),
    (["-m", "bot.store", "copy"], ["games.db", "copy.db"]),
    (["-m", "engine"], ["selfplay"]),
    (["-m", "engine", "selfplay"], []),
    (["-m", "engine", "balance"], []),
    (["-m", "engine.players.tournament"], []),
    (["-m", "standin"], []),
    (["-m", "render"], []),
    (["-m", "benchmarks"], []),
    (["-m", "benchmarks", "load"], []),
    (["-m", "benchmarks", "load", "--processes", "2", "--database", "postgresql"], []),
    (["-m", "benchmarks.load_bench"], []),
    (["-m", "benchmarks.load_procs"], []),
    (["-m", "benchmarks.render_bench"], []),
    (["-m", "benchmarks.store_bench"], []),
    ([str(ROOT / "specs" / "refresh.py")], ["clone"]),
]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LOAD_", "DISCORD_", "DATABASE_"))}
    # No token (an empty one counts as missing) and no .env in the working directory: nothing
    # may reach for Discord; a command that would run the bot or the demo is what the test catches.
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "DATABASE_PATH": str(cwd / "unused.db")}
    with subprocess.Popen(
        [sys.executable, *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    ) as child:  # fmt: skip
        try:
            out, err = child.communicate(timeout=TIME_LIMIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # the command and whatever it started (a process pool)
            child.communicate()
            pytest.fail(f"{_name(args)} ran for {TIME_LIMIT_S} s: it started real work")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def _name(args: list[str]) -> str:
    return " ".join(Path(a).name if a.endswith(".py") else a for a in args if a != "-m")


def _ids(case: tuple[list[str], list[str]]) -> str:
    return _name(case[0])


@pytest.mark.parametrize(("args", "needs"), COMMANDS, ids=list(map(_ids, COMMANDS)))
def test_help_prints_usage_and_exits_0(args: list[str], needs: list[str], tmp_path: Path) -> None:
    done = _run([*args, "--help"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "usage:" in done.stdout.lower(), done.stdout
    assert not any(tmp_path.iterdir()), "--help wrote files"


@pytest.mark.parametrize(("args", "needs"), COMMANDS, ids=list(map(_ids, COMMANDS)))
def test_an_unknown_option_is_refused_with_status_2(args: list[str], needs: list[str], tmp_path: Path) -> None:
    for argv in ([*args, "--no-such-option"], [*args, *needs, "--no-such-option"]):
        done = _run(argv, tmp_path)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "usage:" in done.stderr.lower(), done.stderr
        assert not any(tmp_path.iterdir()), "a refused command wrote files"
    assert "--no-such-option" in done.stderr, done.stderr  # with what it needs, the option is what is refused


def test_python_m_render_says_where_its_command_line_is(tmp_path: Path) -> None:
    done = _run(["-m", "render"], tmp_path)
    assert done.returncode == 2
    assert "python -m bot.draw" in done.stderr and "python -m bot.gallery" in done.stderr


def test_benchmark_options_are_the_load_settings_and_the_environment_still_works() -> None:
    from benchmarks.__main__ import chosen, parse_args

    args = parse_args(["load", "--processes", "2", "--database", "postgresql", "--games", "50", "--rate", "26,0"])
    names, settings, modules = chosen(args, {})
    assert names == ["load"] and modules["load"] == "benchmarks.load_procs"
    assert settings == {"LOAD_PROCESSES": "2", "LOAD_DATABASE": "postgresql", "LOAD_GAMES": "50", "LOAD_RATE": "26,0"}
    names, settings, modules = chosen(parse_args([]), {"LOAD_DATABASE": "sqlite"})
    assert modules["load"] == "benchmarks.load_procs" and settings == {}  # an environment setting alone
    assert len(names) == 7
    _names, settings, modules = chosen(parse_args(["load", "--games=5", "--turns", "1"]), {})
    assert modules["load"] == "benchmarks.load_bench" and settings == {"LOAD_GAMES": "5", "LOAD_TURNS": "1"}
    _names, settings, _modules = chosen(parse_args(["--quick", "--store-games", "10"]), {})
    assert settings == {"CUBIST_AI_BENCH_QUICK": "1", "CUBIST_BALANCE_QUICK": "1", "STORE_GAMES": "10"}


@pytest.mark.parametrize(
    "argv",
    [
        ["nonsense"],
        ["load", "--games", "many"],
        ["load", "--rate", "26,fast"],
        ["load", "--render-workers", ""],
        ["load", "--database", "oracle"],
        ["load", "--processes", "0"],
        ["load", "--processes"],
    ],
)
def test_benchmark_options_refuse_bad_values(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "usage:" in capsys.readouterr().err
