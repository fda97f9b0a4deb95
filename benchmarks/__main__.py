"""Run the benchmarks and print one table."""

from __future__ import annotations

import importlib
import os
import sys
import time

# name -> module (each has run() -> list[(figure, value)])
BENCHMARKS = {
    "engine": "benchmarks.engine_bench",
    "render": "benchmarks.render_bench",
    "store": "benchmarks.store_bench",
    "load": "benchmarks.load_bench",
    "ai": "benchmarks.ai_bench",
    "balance": "benchmarks.balance_bench",
}


def main(argv: list[str]) -> int:
    # Options (``load --processes 2 --database postgresql``) become LOAD_PROCESSES=2 ... settings;
    # with either of those two, ``load`` runs the bot as separate processes (load_procs.py).
    names: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg.startswith("--"):
            key, _, value = arg[2:].partition("=")
            os.environ[f"LOAD_{key.upper().replace('-', '_')}"] = value or next(args, "")
        else:
            names.append(arg)
    if "LOAD_PROCESSES" in os.environ or "LOAD_DATABASE" in os.environ:
        BENCHMARKS["load"] = "benchmarks.load_procs"
    names = names or list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
        return 2
    rows: list[tuple[str, str, str]] = []
    for name in names:
        try:
            module = importlib.import_module(BENCHMARKS[name])
        except ModuleNotFoundError as e:
            if e.name != BENCHMARKS[name]:
                raise
            rows.append((name, "(not built yet)", "-"))
            continue
        start = time.perf_counter()
        for figure, value in module.run():
            rows.append((name, figure, value))
        print(f"[{name}] done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    width = [max(len(r[i]) for r in [("benchmark", "figure", "value"), *rows]) for i in range(3)]
    line = "  ".join("-" * w for w in width)
    print("  ".join(h.ljust(w) for h, w in zip(("benchmark", "figure", "value"), width, strict=True)))
    print(line)
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, width, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
