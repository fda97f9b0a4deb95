"""Refresh the vendored OpenAPI description from a local clone of GitHub's discord/discord-api-spec.

    git clone <discord/discord-api-spec> /tmp/discord-api-spec   # or `git pull` in an existing clone
    python specs/refresh.py /tmp/discord-api-spec

Copies `specs/openapi.json` (the v10 file, not the preview) and `LICENSE` from the clone and
writes the clone's commit to `SOURCE.md`. It reads only the path it is given (and runs `git`
there for the commit): no network. Review the diff, then run the stand-in's tests.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_TEXT = """# Where `openapi.json` comes from

- repository: GitHub `discord/discord-api-spec` (MIT licence, see `LICENSE` beside this file)
- file: `specs/openapi.json` (Discord HTTP API v10)
- commit: `{commit}` ({date})

Refresh with `python specs/refresh.py PATH-TO-A-CLONE`. Where the spec and Discord's developer
documentation disagree, Discord says to follow the documentation: those limits live in
`standin/documented.py`.
"""


def refresh(clone: Path) -> str:
    spec = clone / "specs" / "openapi.json"
    licence = clone / "LICENSE"
    if not spec.is_file() or not licence.is_file():
        raise SystemExit(f"{clone} does not look like a clone of discord-api-spec (no specs/openapi.json or LICENSE)")
    info = json.loads(spec.read_text(encoding="utf-8")).get("info", {})
    if str(info.get("version")) != "10":
        raise SystemExit(f"expected the v10 description, found version {info.get('version')!r}")
    git = ["git", "-C", str(clone), "log", "-1", "--format=%H %cs"]
    commit, date = subprocess.run(git, check=True, capture_output=True, text=True).stdout.split()
    shutil.copyfile(spec, HERE / "openapi.json")
    shutil.copyfile(licence, HERE / "LICENSE")
    (HERE / "SOURCE.md").write_text(SOURCE_TEXT.format(commit=commit, date=date), encoding="utf-8")
    return commit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python specs/refresh.py",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 2)[2],
    )
    parser.add_argument("clone", type=Path, help="a local clone of discord/discord-api-spec")
    args = parser.parse_args(argv)
    print(f"specs/ now at discord-api-spec {refresh(args.clone)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
