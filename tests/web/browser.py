"""Headless Chromium for the web board's tests: the distribution's ``chromium`` driven by
Playwright for Python (pip's Playwright cannot download its own browsers on these
machines).  ``.ci/run`` installs Chromium when it is missing; elsewhere the browser tests
say plainly how to get it."""

from __future__ import annotations

import shutil

import pytest

INSTALL = "the web board's browser tests need Chromium: apt-get install chromium (as root), then run the tests again"


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip(INSTALL)
    return path


PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
