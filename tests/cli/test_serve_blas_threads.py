"""`citewise serve` loads numpy with one BLAS thread per call (the answers already run on
several worker threads), unless the user chose a number; the setting does not stay in the
environment the server's child processes inherit."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from citewise.cli.serve import BLAS_THREADS_VARIABLE

PROBE = """
import os, sys
import citewise.cli, citewise.cli.serve
assert 'numpy' not in sys.modules, 'the CLI imported numpy before serve ran'
citewise.cli.serve.single_threaded_blas()
import numpy, threadpoolctl
blas = [p['num_threads'] for p in threadpoolctl.threadpool_info() if p['user_api'] == 'blas']
print(max(blas), os.environ.get('OPENBLAS_NUM_THREADS', '-'))
"""


def _probe(**env: str) -> str:
    pytest.importorskip("threadpoolctl")
    base = {k: v for k, v in os.environ.items() if k != BLAS_THREADS_VARIABLE}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env={**base, **env}, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_numpy_loads_with_one_blas_thread_and_the_environment_is_left_as_it_was() -> None:
    assert _probe() == "1 -"


def test_a_number_the_user_chose_is_kept() -> None:
    assert _probe(OPENBLAS_NUM_THREADS="2") == "2 2"
