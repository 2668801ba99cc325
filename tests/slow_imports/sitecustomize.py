"""Test harness, never on a real server: every import of a module of the packages
named in ``POSENC_SLOW_IMPORT_PACKAGES`` (default ``ui,posenc``, the app's own) sleeps
``POSENC_SLOW_IMPORT_MS`` milliseconds before the module's code runs, while the
half-made module already sits in ``sys.modules``.

A fresh server's import race (two sessions' threads importing the same modules) is
open for as long as an import takes; on a fast machine that is a few milliseconds and
a test would pass by luck. Widening every import to tens of milliseconds makes a
race that exists show up in every round (``tests/browser/test_cold_start.py``).

Python imports ``sitecustomize`` at start-up from ``sys.path``; the cold-start test
puts this folder on ``PYTHONPATH`` of the server it starts, and nowhere else.
"""

import importlib.abc
import os
import sys
import time

_DELAY = float(os.environ.get("POSENC_SLOW_IMPORT_MS", "0")) / 1000
_PREFIXES = tuple(os.environ.get("POSENC_SLOW_IMPORT_PACKAGES", "ui,posenc").split(","))


class _SlowLoader(importlib.abc.Loader):
    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        time.sleep(_DELAY)
        self._loader.exec_module(module)

    def __getattr__(self, name):  # get_source, get_code, ... of the real loader
        return getattr(self._loader, name)


class _SlowFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in _PREFIXES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _SlowLoader(spec.loader)
                return spec
        return None


if _DELAY > 0:
    sys.meta_path.insert(0, _SlowFinder())
