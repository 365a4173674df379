"""A real `citewise serve` on 127.0.0.1 (a subprocess, stopped by its PID) with two users,
and headless Debian chromium driven by Playwright (never `playwright install`)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from http_server import free_port

SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
# bytes (400 KiB): the tests' documents are far smaller, the "too large" file is not
UPLOAD_LIMIT = 400 * 1024
PASSWORDS = {
    "alice": "alice-password-1", "bob": "bob-password-22", "root": "root-password-333",
    # the layout tests' users: dave (two PDFs), erin (an empty own collection), frank (history)
    "dave": "dave-password-4444", "erin": "erin-password-55555", "frank": "frank-password-6666",
    "gina": "gina-password-77777",  # the graph view's documents cite each other
}  # fmt: skip


@dataclass(frozen=True)
class Server:
    url: str
    data_dir: Path
    env: dict[str, str]
    tokens: dict[str, str] = field(default_factory=dict)

    def token(self, user: str) -> str:
        if user not in self.tokens:
            got = httpx.post(
                f"{self.url}/auth/token", data={"username": user, "password": PASSWORDS[user]}
            )
            got.raise_for_status()
            self.tokens[user] = str(got.json()["access_token"])
        return self.tokens[user]


def _citewise(env: dict[str, str], *args: str, stdin: str = "") -> None:
    exe = Path(sys.executable).with_name("citewise")
    subprocess.run([str(exe), *args], input=stdin, env=env, check=True, capture_output=True,
                   text=True, timeout=120)  # fmt: skip


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve(tmp_path_factory.mktemp("browser") / "data") as started:
        yield started


@contextmanager
def serve(
    data: Path, users: tuple[str, ...] = tuple(PASSWORDS), **env_vars: str
) -> Iterator[Server]:
    """`citewise serve` on a free port over `data` with `users` created, `env_vars` added to
    its environment; stopped by its PID when the block ends."""
    env = {
        **os.environ,
        "CITEWISE_DATA_DIR": str(data),
        "CITEWISE_EMBEDDER": "hashing",
        "CITEWISE_AUTH_REQUIRED": "1",
        "CITEWISE_MAX_UPLOAD_BYTES": str(UPLOAD_LIMIT),
        "CITEWISE_RATE_LIMIT": "",
        "CITEWISE_LOGIN_RATE_LIMIT": "1000/minute",  # every test logs in through the page
        **env_vars,
    }
    for user in users:
        admin = ["--admin"] if user == "root" else []
        password = PASSWORDS[user]
        _citewise(env, "users", "create", user, *admin, "--password-stdin", stdin=password + "\n")
    port = free_port()
    log = (data / "serve.log").open("w")
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("citewise")), "serve", "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"serve did not start: {(data / 'serve.log').read_text()[-2000:]}")
        time.sleep(0.2)
    try:
        yield Server(url, data, env)
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (install.sh installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: object, server: Server, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh browser context (no login kept); its screenshot is saved after the test. The
    page may fetch nothing from anywhere but the server, and raise no uncaught error."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 1366, "height": 860}, permissions=["clipboard-read", "clipboard-write"]
    )
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    foreign: list[str] = []
    pg.on("request", lambda r: foreign.append(r.url) if _foreign(r.url, server.url) else None)
    refused: list[str] = []  # the security headers' policy blocked something the UI needs
    pg.on("console", lambda m: refused.append(m.text) if _csp_report(m.text) else None)
    yield pg
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"), full_page=False)
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"
    assert not foreign, f"requests to other origins: {foreign}"
    assert not refused, f"refused by the Content-Security-Policy: {refused}"


def _csp_report(text: str) -> bool:
    return "Content Security Policy" in text or "Content-Security-Policy" in text


def _foreign(url: str, origin: str) -> bool:
    return url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(origin + "/")
