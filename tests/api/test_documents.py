"""Uploads as background jobs over a real server: limits, sniffing, names, duplicates,
progress, and the document routes."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from httpx_sse import connect_sse

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1

NOTE = b"# Release train\n\nThe release train leaves every second Tuesday at noon.\n"


def wait_for(client: httpx.Client, job_id: str) -> dict[str, object]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(f"/jobs/{job_id}").json()
        if job["state"] in ("done", "failed"):
            return dict(job)
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


def upload(client: httpx.Client, name: str, data: bytes, **params: str) -> httpx.Response:
    return client.post("/documents", files={"files": (name, data)}, params=params)


def test_upload_is_a_job_whose_file_is_parsed_embedded_and_then_answerable(
    client: httpx.Client,
) -> None:
    r = upload(client, "train.md", NOTE)
    assert r.status_code == 202, r.text
    assert r.headers["location"] == f"/jobs/{r.json()['job_id']}"
    job = wait_for(client, r.json()["job_id"])
    assert job["state"] == "done"
    [file] = job["files"]  # type: ignore[misc]
    assert file["name"] == "train.md" and file["stage"] == "done" and file["chunks"] >= 1
    doc = client.get("/documents/train.md").json()
    assert doc["status"] == "ready" and doc["format"] == "markdown"
    assert "train.md" in [d["source"] for d in client.get("/documents").json()["documents"]]
    answer = client.post("/chat/", json={"message": "When does the release train leave?"})
    assert "Tuesday" in answer.json()["answer"]


def test_the_same_content_again_is_reported_as_a_duplicate(client: httpx.Client) -> None:
    data = b"Duplicate check.\n\nThe pager rotation changes every Monday morning.\n"
    first = wait_for(client, upload(client, "pager.txt", data).json()["job_id"])
    assert first["files"][0]["stage"] == "done"  # type: ignore[index]
    again = upload(client, "pager-copy.txt", data)
    assert again.status_code == 202
    [file] = again.json()["files"]
    assert file["stage"] == "duplicate" and "pager.txt" in file["reason"]
    assert "pager-copy.txt" not in [
        d["source"] for d in client.get("/documents").json()["documents"]
    ]


def test_an_upload_over_the_limit_is_a_413_naming_the_limit(client: httpx.Client) -> None:
    r = upload(client, "big.txt", b"word " * 20_000)  # over the test server's 64 KiB
    assert r.status_code == 413
    assert "64 KiB" in r.json()["error"]


def test_a_body_without_content_length_is_cut_off_at_the_limit(client: httpx.Client) -> None:
    boundary = "xyzzy"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
            'filename="chunked.txt"\r\n\r\n').encode()  # fmt: skip

    def body():  # a generator body is sent chunked, with no Content-Length
        yield head
        for _ in range(40):
            yield b"x" * 4096

    r = client.post(
        "/documents", content=body(),
        headers={"content-type": f"multipart/form-data; boundary={boundary}"},
    )  # fmt: skip
    assert r.status_code == 413 and "64 KiB" in r.json()["error"]


def test_content_that_is_not_a_document_is_a_415_with_the_reason(client: httpx.Client) -> None:
    gif = b"GIF89a" + bytes(range(256)) * 4
    r = upload(client, "photo.txt", gif)
    assert r.status_code == 415
    assert "GIF" in r.json()["error"]
    r = upload(client, "report.pdf", b"just some text, not a PDF at all\n")
    assert r.status_code == 415 and "not a PDF" in r.json()["error"]
    r = upload(client, "tool.exe", b"MZ plain")
    assert r.status_code == 415 and "unsupported file type .exe" in r.json()["error"]


def test_a_traversal_name_is_reduced_to_its_file_name(client: httpx.Client, tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = upload(
        client, "../../../etc/evil-notes.txt", b"Evil notes.\n\nThe vault code rotates weekly.\n"
    )
    assert r.status_code == 202, r.text
    job = wait_for(client, r.json()["job_id"])
    assert job["files"][0]["name"] == "evil-notes.txt"  # type: ignore[index]
    assert client.get("/documents/evil-notes.txt").status_code == 200


def raw_multipart(filename: bytes, data: bytes) -> tuple[bytes, dict[str, str]]:
    """A body written by hand: clients escape odd names, an attacker's need not."""
    head = b'--b0\r\nContent-Disposition: form-data; name="files"; filename="' + filename
    body = head + b'"\r\n\r\n' + data + b"\r\n--b0--\r\n"
    return body, {"content-type": "multipart/form-data; boundary=b0"}


def test_a_name_with_control_characters_is_refused(client: httpx.Client) -> None:
    body, headers = raw_multipart(b"bad\x07name.txt", b"text\n")
    r = client.post("/documents", content=body, headers=headers)
    assert r.status_code == 400 and "control characters" in r.json()["error"]


def test_a_raw_traversal_name_never_leaves_the_upload_folder(client: httpx.Client) -> None:
    body, headers = raw_multipart(
        b"..\\..\\win-notes.txt", b"Notes.\n\nThe boiler is serviced in June.\n"
    )
    r = client.post("/documents", content=body, headers=headers)
    assert r.status_code == 202, r.text
    assert r.json()["files"][0]["name"] == "win-notes.txt"
    body, headers = raw_multipart(b"..", b"text\n")
    assert client.post("/documents", content=body, headers=headers).status_code == 400


def test_a_file_that_fails_to_parse_is_reported_and_not_listed(client: httpx.Client) -> None:
    r = upload(client, "blank.md", b"   \n\n   \n")
    job = wait_for(client, r.json()["job_id"])
    assert job["state"] == "failed"
    assert job["files"][0]["stage"] == "failed" and job["files"][0]["reason"]  # type: ignore[index]
    assert client.get("/documents/blank.md").status_code == 404


def test_job_progress_streams_as_server_sent_events(client: httpx.Client) -> None:
    r = upload(client, "progress.txt", b"Progress.\n\nThe canteen opens at half past eleven.\n")
    names, stages = [], []
    with connect_sse(client, "GET", f"/jobs/{r.json()['job_id']}/events") as source:
        for sse in source.iter_sse():
            names.append(sse.event)
            stages.append(json.loads(sse.data)["files"][0]["stage"])
    assert names[-1] == "done" and stages[-1] == "done"
    assert client.get("/jobs").json()["jobs"]


def test_delete_and_reingest_a_document(client: httpx.Client) -> None:
    wait_for(
        client,
        upload(client, "gone.txt", b"Gone.\n\nThe old VPN closes in May.\n").json()["job_id"],
    )
    again = client.post("/documents/gone.txt/reingest")
    assert again.status_code == 202
    assert wait_for(client, again.json()["job_id"])["files"][0]["stage"] == "unchanged"  # type: ignore[index]
    assert client.delete("/documents/gone.txt").status_code == 204
    assert client.get("/documents/gone.txt").status_code == 404
    assert client.delete("/documents/gone.txt").status_code == 404


def test_chat_documents_are_answered_in_their_chat_only(client: httpx.Client) -> None:
    data = b"Chat note.\n\nThe orange door code is 4711 for the lab.\n"
    r = client.post("/chat/c42/documents", files={"files": ("door.txt", data)})
    assert r.status_code == 202
    wait_for(client, r.json()["job_id"])
    listed = client.get("/chat/c42/documents").json()["documents"]
    assert [d["source"] for d in listed] == ["door.txt"]
    assert client.get("/chat/other/documents").json()["documents"] == []
    with connect_sse(client, "POST", "/chat/c42/stream",
                     json={"message": "What is the orange door code?"}) as source:  # fmt: skip
        done = next(json.loads(s.data) for s in source.iter_sse() if s.event == "done")
    assert "4711" in done["answer"] and done["citations"][0]["source"] == "door.txt"
    plain = client.post("/chat/", json={"message": "What is the orange door code?"}).json()
    assert "4711" not in plain["answer"]
    assert client.delete("/chat/c42/documents", params={"source": "door.txt"}).status_code == 204
    assert client.get("/chat/c42/documents").json()["documents"] == []


def test_a_collection_name_that_is_a_path_is_refused(client: httpx.Client) -> None:
    r = upload(client, "x.txt", b"Text.\n\nSome words here.\n", collection="..")
    assert r.status_code == 400 and "invalid collection" in r.json()["error"]
    assert client.get("/documents", params={"collection": "../x"}).status_code == 400


def test_a_document_ingested_from_a_folder_has_no_upload_to_reingest(
    client: httpx.Client,
) -> None:
    assert client.get("/documents/guides/logging.md").json()["status"] == "ready"
    r = client.post("/documents/guides/logging.md/reingest")
    assert r.status_code == 404 and "upload it again" in r.json()["error"]


def test_a_chats_documents_are_removed_one_by_path_or_all_at_once(client: httpx.Client) -> None:
    files = [("files", ("one.txt", b"One.\n\nThe red key opens the shed.\n")),
             ("files", ("two.txt", b"Two.\n\nThe blue key opens the garage.\n"))]  # fmt: skip
    wait_for(client, client.post("/chat/c7/documents", files=files).json()["job_id"])
    assert client.delete("/chat/c7/documents/one.txt").status_code == 204
    assert [d["source"] for d in client.get("/chat/c7/documents").json()["documents"]] == [
        "two.txt"
    ]
    assert client.delete("/chat/c7/documents").status_code == 204
    assert client.get("/chat/c7/documents").json()["documents"] == []


def test_an_uploaded_pdf_is_cited_at_its_page(client: httpx.Client) -> None:
    import io

    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    pdf = canvas.Canvas(buf)
    pdf.drawString(72, 720, "Cover page of the facilities handbook.")
    pdf.showPage()
    pdf.drawString(72, 720, "The rooftop garden closes at seven in the evening.")
    pdf.save()
    job = wait_for(client, upload(client, "handbook.pdf", buf.getvalue()).json()["job_id"])
    assert job["files"][0]["stage"] == "done"  # type: ignore[index]
    assert client.get("/documents/handbook.pdf").json()["pages"] == 2
    body = client.post("/chat/", json={"message": "When does the rooftop garden close?"}).json()
    assert body["citations"][0]["source"] == "handbook.pdf"
    assert body["citations"][0]["page"] == 2


def test_an_upload_named_as_a_document_goes_beside_it(client: httpx.Client) -> None:
    first = b"# Standup\n\nThe platform team holds its standup at 09:15.\n"
    second = b"# Standup\n\nThe data team holds its standup at 10:40.\n"
    assert wait_for(client, upload(client, "standup.md", first).json()["job_id"])["state"] == "done"
    r = upload(client, "standup.md", second)
    assert [f["name"] for f in r.json()["files"]] == ["standup (2).md"]
    assert wait_for(client, r.json()["job_id"])["state"] == "done"
    sources = [d["source"] for d in client.get("/documents").json()["documents"]]
    assert "standup.md" in sources and "standup (2).md" in sources
    assert (
        client.get("/documents/standup.md").json()["content_hash"]
        != (client.get("/documents/standup (2).md").json()["content_hash"])
    )


def test_an_upload_replaces_its_namesake_when_asked(client: httpx.Client) -> None:
    first = b"# Parking\n\nVisitors park on level minus two.\n"
    second = b"# Parking\n\nVisitors now park on level minus three.\n"
    assert wait_for(client, upload(client, "parking.md", first).json()["job_id"])["state"] == "done"
    r = upload(client, "parking.md", second, replace="true")
    assert [f["name"] for f in r.json()["files"]] == ["parking.md"]
    assert wait_for(client, r.json()["job_id"])["state"] == "done"
    sources = [d["source"] for d in client.get("/documents").json()["documents"]]
    assert "parking.md" in sources and "parking (2).md" not in sources
    answer = client.post("/chat/", json={"message": "Where do visitors park?"}).json()["answer"]
    assert "three" in answer
