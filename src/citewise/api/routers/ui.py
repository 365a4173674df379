"""The web UI: its static files (no build step; vendored ES modules), and what its source
panel reads: a cited document's kept original, a citation's place on its PDF page, and a
passage in its context. Every read checks the caller may read the document's collection."""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import BaseModel

from citewise.api.deps import AssistantDep
from citewise.api.security import require_scope
from citewise.assistant import Assistant
from citewise.auth.models import Principal
from citewise.ingest.originals import original_path
from citewise.ingest.parsers import supported_extensions
from citewise.types import ChunkRecord, DocumentInfo
from citewise.types.positions import boxes_for_quote

WEB = Path(__file__).resolve().parent.parent / "web"
router = APIRouter(tags=["web UI"])
Reader = Annotated[Principal, Depends(require_scope("read"))]
# a chunk id the stores can hold (a larger one is a 422, not an overflow in the database)
ChunkId = Annotated[int, PathParam(ge=0, le=2**63 - 1)]
_TYPES = {
    ".mjs": "text/javascript", ".js": "text/javascript", ".css": "text/css",
    ".html": "text/html", ".svg": "image/svg+xml", ".gif": "image/gif", ".png": "image/png",
    ".json": "application/json", ".pfb": "application/octet-stream", ".ttf": "font/ttf",
    ".txt": "text/plain",
}  # fmt: skip
_FILE_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}
# the kept original is shown by pdf.js or downloaded; never run as a page of this origin
_FILE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'",
    "Cache-Control": "private, max-age=3600",
}
CONTEXT_CHUNKS = 2  # chunks shown before and after a cited one


class LocatedCitation(BaseModel):
    chunk_id: int
    source: str
    format: str
    page: int | None
    doc_hash: str
    boxes: list[dict[str, float]]  # page, x0, y0, x1, y1 in PDF points


class Passage(BaseModel):
    """A cited chunk in its context: the chunks before and after it, in reading order."""

    chunk_id: int
    source: str
    title: str
    format: str
    section: str
    page: int | None
    doc_hash: str
    before: list[str]
    text: str
    after: list[str]


def _originals(request: Request) -> Path:
    folder: Path = request.app.state.assistant.settings.originals_dir
    return folder


def _readable(principal: Principal, assistant: Assistant) -> list[str]:
    if principal.is_admin:
        return assistant.collections()
    names = {*principal.readable, principal.home_collection, principal.global_collection}
    return sorted(n for n in names if n)


def _document_of(assistant: Assistant, principal: Principal, record: ChunkRecord) -> DocumentInfo:
    """The chunk's document, if a collection the caller may read holds it (404 otherwise:
    a caller learns nothing of documents it may not read)."""
    for name in _readable(principal, assistant):
        doc = assistant.find_document(record.source, collection=name)
        if doc is not None and doc.doc_id == record.doc_id:
            return doc
    raise HTTPException(status.HTTP_404_NOT_FOUND, "no such passage")


def _chunk(
    assistant: Assistant, principal: Principal, chunk_id: int
) -> tuple[ChunkRecord, DocumentInfo]:
    records = assistant.passages([chunk_id])
    if not records:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND,
            "this passage is no longer stored (its document was removed or re-ingested)",
        )
    return records[0], _document_of(assistant, principal, records[0])


@router.get("/", include_in_schema=False)
def index() -> HTMLResponse:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


@router.get("/ui/{path:path}", include_in_schema=False)
def static_file(path: str, request: Request) -> Response:
    try:
        target = (WEB / path).resolve()
        found = target.is_relative_to(WEB) and target.is_file() and target.name != "vendor.json"
    except (OSError, ValueError):  # a NUL byte, a name too long for the file system
        found = False
    if not found:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "no such file")
    vendored = target.is_relative_to(WEB / "vendor")
    media = _TYPES.get(target.suffix, "application/octet-stream")
    headers = {
        "Cache-Control": "public, max-age=86400" if vendored else "no-cache",
        "Vary": "Accept-Encoding",
    }
    if "gzip" in request.headers.get("accept-encoding", ""):
        body = _gzipped(target, target.stat().st_mtime_ns)
        return Response(body, media_type=media, headers={**headers, "Content-Encoding": "gzip"})
    return FileResponse(target, media_type=media, headers=headers)


@lru_cache(maxsize=128)
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    """A static file compressed once per version (pdf.js is large, and compresses well)."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class UiConfig(BaseModel):
    max_upload_bytes: int
    upload_types: list[str]  # the file extensions an upload may have, ".csv" … ".xlsx"
    web_max_pages: int  # the most pages one web address may add (a crawl's limit)


@router.get("/ui-api/config", response_model=UiConfig)
def config(request: Request) -> UiConfig:
    """What the UI tells users before they try: the upload limit and the file types read."""
    return UiConfig(
        max_upload_bytes=request.app.state.settings.max_upload_bytes,
        upload_types=sorted(supported_extensions()),
        web_max_pages=request.app.state.settings.web_max_pages,
    )


@router.get("/ui-api/citations/{chunk_id}", response_model=LocatedCitation)
def locate(
    chunk_id: ChunkId,
    principal: Reader,
    assistant: AssistantDep,
    quote: Annotated[str, Query()] = "",
) -> LocatedCitation:
    """Where a cited passage is: its document's kept original and, in a PDF, the lines
    holding `quote` (for citations that came without their boxes)."""
    record, doc = _chunk(assistant, principal, chunk_id)
    boxes = boxes_for_quote(record.boxes, record.text, quote) if quote else list(record.boxes)
    return LocatedCitation(
        chunk_id=chunk_id, source=doc.source, format=doc.format, page=record.page_start,
        doc_hash=doc.content_hash, boxes=[b.to_json() for b in boxes],
    )  # fmt: skip


@router.get("/ui-api/passages/{chunk_id}", response_model=Passage)
def passage(chunk_id: ChunkId, principal: Reader, assistant: AssistantDep) -> Passage:
    """A cited chunk with its neighbours, for formats shown as text (DOCX, PPTX, HTML,
    Markdown, text)."""
    record, doc = _chunk(assistant, principal, chunk_id)
    chunks = assistant.document_passages(doc.doc_id)
    at = next(i for i, c in enumerate(chunks) if c.chunk_id == chunk_id)
    window = slice(max(0, at - CONTEXT_CHUNKS), at)
    return Passage(
        chunk_id=chunk_id, source=doc.source, title=doc.title, format=doc.format,
        section=record.section, page=record.page_start, doc_hash=doc.content_hash,
        before=[c.text for c in chunks[window]], text=record.text,
        after=[c.text for c in chunks[at + 1 : at + 1 + CONTEXT_CHUNKS]],
    )  # fmt: skip


@router.get("/ui-api/files/{doc_hash}", response_class=Response)
def original(
    doc_hash: str, request: Request, principal: Reader, assistant: AssistantDep
) -> Response:
    """A document's kept original by content hash: inline for PDFs (the viewer reads
    it), a download otherwise. Old answers keep opening the version they cited while a
    readable collection holds a document with those bytes or its original is kept."""
    path = original_path(_originals(request), doc_hash)
    doc = _readable_document(assistant, principal, doc_hash)
    if path is None or doc is None or not path.is_file():
        raise HTTPException(status.HTTP_404_NOT_FOUND, "no such document, or it is not kept")
    name = Path(doc.source).name
    media = _FILE_TYPES.get(doc.format, "application/octet-stream")
    disposition = "inline" if doc.format == "pdf" else "attachment"
    return FileResponse(
        path, media_type=media, filename=name, content_disposition_type=disposition,
        headers=_FILE_HEADERS,
    )  # fmt: skip


def _readable_document(
    assistant: Assistant, principal: Principal, doc_hash: str
) -> DocumentInfo | None:
    for name in _readable(principal, assistant):
        for doc in assistant.documents(collection=name):
            if doc.content_hash == doc_hash:
                return doc
    return None
