"""`citewise serve` asks numpy's BLAS for one thread per call before numpy loads (the
answers already run on several worker threads); a value the user set is kept."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from citewise.cli.serve import BLAS_THREAD_VARIABLES, single_threaded_blas


def test_one_blas_thread_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in BLAS_THREAD_VARIABLES:  # set first, so the test's end restores them
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    single_threaded_blas()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"


def test_numpy_loads_after_the_cli_so_its_blas_gets_one_thread() -> None:
    pytest.importorskip("threadpoolctl")
    code = (
        "import sys\n"
        "import citewise.cli, citewise.cli.serve\n"
        "assert 'numpy' not in sys.modules, 'the CLI imported numpy before serve ran'\n"
        "citewise.cli.serve.single_threaded_blas()\n"
        "import numpy, threadpoolctl\n"
        "print(max(p['num_threads'] for p in threadpoolctl.threadpool_info()"
        " if p['user_api'] == 'blas'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARIABLES}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"
