"""Shared pytest configuration."""

import os

from hypothesis import HealthCheck, settings

# CI gets more examples; a developer's run stays quick.
settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# A private PostgreSQL server for the tests that need one (tests/postgres.py).
pytest_plugins = ["standin.pytest_plugin", "tests.postgres"]
