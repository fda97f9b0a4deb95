"""Benchmarks: ``python -m benchmarks`` runs them all, ``python -m benchmarks NAME`` one.

Each benchmark module exposes ``run() -> list[tuple[str, str]]``: rows of (figure, value).
"""
