"""The web UI's routes over HTTP: its files are all served by the process itself (no other
origin), nothing outside the web folder is reachable, and the source panel's reads (place
of a citation, passage in context, kept original) work and refuse what they should."""

from __future__ import annotations

import re

import httpx

IMPORT = re.compile(r"""(?:from|import)\s*\(?\s*['"]([^'"]+)['"]""")


def _modules(client: httpx.Client) -> dict[str, str]:
    """Every module the page loads, by URL, following the import map and imports."""
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    imports = dict(re.findall(r'"([\w/-]+)":\s*"(/ui/[^"]+)"', page.text))
    todo = [*re.findall(r'src="(/ui/[^"]+)"', page.text), *imports.values()]
    seen: dict[str, str] = {}
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        got = client.get(url)
        assert got.status_code == 200, url
        assert got.headers["content-type"].startswith("text/javascript"), url
        seen[url] = got.text
        if "/vendor/" in url:
            continue  # vendored bundles import only each other through the map
        for spec in IMPORT.findall(got.text):
            if spec.startswith("./"):
                todo.append(url.rsplit("/", 1)[0] + spec[1:])
            elif spec.startswith("/"):
                todo.append(spec)
            else:
                assert spec in imports, f"{url} imports {spec!r}, not in the import map"
    return seen


def test_every_module_the_page_loads_comes_from_the_server_itself(client: httpx.Client) -> None:
    modules = _modules(client)
    assert {"/ui/app.js", "/ui/chat.js", "/ui/vendor/preact.mjs"} <= set(modules)
    for text in modules.values():
        assert not re.search(r"""(?:from|import)\s*\(?\s*['"]https?://""", text)


def test_nothing_outside_the_web_folder_is_served(client: httpx.Client) -> None:
    for path in ("/ui/%2e%2e/routers/ui.py", "/ui/..%2f..%2fconfig.py", "/ui/vendor.json",
                 "/ui/missing.js"):  # fmt: skip
        assert client.get(path).status_code == 404, path


def test_a_citation_opens_its_passage_in_context_and_its_original(client: httpx.Client) -> None:
    answer = client.post(
        "/chat/", json={"message": "Which tool rotates the log files every night?"}
    )
    assert answer.status_code == 200, answer.text
    cited = answer.json()["citations"][0]
    assert cited["source"] == "guides/logging.md"
    passage = client.get(f"/ui-api/passages/{cited['chunk_id']}").json()
    assert cited["quote"].split()[0] in passage["text"] and passage["format"] == "markdown"
    place = client.get(f"/ui-api/citations/{cited['chunk_id']}").json()
    assert place["boxes"] == [] and re.fullmatch(r"[0-9a-f]{64}", place["doc_hash"])
    original = client.get(f"/ui-api/files/{place['doc_hash']}")
    assert original.status_code == 200 and b"logrotate" in original.content
    assert original.headers["content-disposition"].startswith("attachment")
    assert "sandbox" in original.headers["content-security-policy"]


def test_unknown_passages_and_files_are_404(client: httpx.Client) -> None:
    assert client.get("/ui-api/passages/987654").status_code == 404
    assert client.get("/ui-api/citations/987654").status_code == 404
    assert client.get("/ui-api/files/not-a-hash").status_code == 404
    assert client.get(f"/ui-api/files/{'0' * 64}").status_code == 404


def test_the_ui_learns_the_upload_limit_and_types(client: httpx.Client) -> None:
    config = client.get("/ui-api/config").json()
    assert config["max_upload_bytes"] == 64 * 1024
    assert {".pdf", ".xlsx", ".ods", ".csv", ".eml", ".mbox", ".epub", ".odt", ".rtf"} <= set(
        config["upload_types"]
    )


def test_static_files_go_out_gzipped_when_the_browser_accepts_it(client: httpx.Client) -> None:
    packed = client.get("/ui/vendor/pdfjs/pdf.worker.min.mjs", headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(packed.content) / 2
    plain = client.get("/ui/app.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and "import" in plain.text
