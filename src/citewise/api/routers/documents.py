"""Documents of a collection: list, upload (a background job), per-file status, delete,
re-ingest; and the same for the documents of one chat."""

from __future__ import annotations

import glob
import shutil
from pathlib import Path, PurePosixPath

from fastapi import APIRouter, Request, Response
from starlette.datastructures import UploadFile

from citewise.api.deps import (
    AssistantDep,
    JobsDep,
    chat_collection,
    check_chat_id,
    readable,
    writable,
)
from citewise.api.schemas import DocumentList, DocumentModel
from citewise.api.security import Reader, Writer
from citewise.api.uploads import MAX_FILES, StagedFile, limited_request, new_job_id, stage_file
from citewise.assistant import Assistant
from citewise.auth.models import Principal
from citewise.errors import InputError, NotFoundError
from citewise.jobs import JobQueue, UploadJob
from citewise.jobs.base import FileStatus, JobState, JobStatus

router = APIRouter(tags=["documents"])


def uploads_dir(assistant: Assistant, collection: str) -> Path:
    return assistant.settings.data_dir / "uploads" / collection


def kept_upload(assistant: Assistant, collection: str, source: str) -> Path | None:
    """The kept file of an uploaded document; documents ingested from a folder (a source
    with a folder part) have none."""
    if "/" in source or "\\" in source or source.startswith("."):
        return None
    return uploads_dir(assistant, collection) / source


def forget_upload(assistant: Assistant, collection: str, source: str) -> None:
    kept = kept_upload(assistant, collection, source)
    if kept is not None:
        kept.unlink(missing_ok=True)


def beside(assistant: Assistant, collection: str, staged: StagedFile) -> StagedFile:
    """The upload under a name no document of the collection (nor a kept or staged upload)
    has: `notes.md`, else `notes (2).md`, `notes (3).md`…; renamed in its staging folder."""
    keep = uploads_dir(assistant, collection)

    def taken(name: str) -> bool:
        return (
            assistant.source_taken(name, collection=collection)
            or (keep / name).exists()
            or any(p != staged.path for p in keep.glob(f".staging/*/{glob.escape(name)}"))
        )

    name, n = staged.name, 1
    stem, suffix = PurePosixPath(name).stem, PurePosixPath(name).suffix
    while taken(name):
        n += 1
        name = f"{stem} ({n}){suffix}"
    if name == staged.name:
        return staged
    path = staged.path.rename(staged.path.with_name(name))
    return StagedFile(name, path, staged.size, staged.content_hash)


async def accept_upload(
    request: Request,
    principal: Principal,
    assistant: Assistant,
    jobs: JobQueue,
    collection: str,
    *,
    replace: bool = False,
) -> JobStatus:
    """Stages every file of a multipart body (field `files`, or any file field), skips
    those whose content the collection already holds, queues the rest: a name the
    collection has is kept beside it under a free name, unless `replace`."""
    limit = assistant.settings.max_upload_bytes
    body = limited_request(request, limit)
    job_id = new_job_id()
    folder = uploads_dir(assistant, collection) / ".staging" / job_id
    staged: list[StagedFile] = []
    try:
        async with body.form(max_files=MAX_FILES, max_part_size=limit) as form:
            parts = [v for _, v in form.multi_items() if isinstance(v, UploadFile)]
            if not parts:
                raise InputError("no file in the upload (send multipart/form-data `files`)")
            for part in parts:
                staged.append(await stage_file(part, folder))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    statuses: list[FileStatus] = []
    to_ingest: list[tuple[str, str]] = []
    for f in staged:
        same = assistant.find_by_hash(f.content_hash, collection=collection)
        if same is not None:
            reason = f"the same content is already in '{collection}' as {same.source}"
            statuses.append(FileStatus(f.name, "duplicate", reason, same.chunk_count, size=f.size))
            f.path.unlink()
        else:
            f = f if replace else beside(assistant, collection, f)
            statuses.append(FileStatus(f.name, size=f.size))
            to_ingest.append((f.name, f.content_hash))
    state: JobState = "queued" if to_ingest else "done"
    initial = JobStatus(job_id, principal.user_id, collection, state, tuple(statuses))
    job = UploadJob(job_id, principal.user_id, collection, str(folder), tuple(to_ingest),
                    str(uploads_dir(assistant, collection)))  # fmt: skip
    jobs.submit(job, initial)
    return initial


def _job_response(status: JobStatus, response: Response) -> dict[str, object]:
    response.status_code = 202
    response.headers["Location"] = f"/jobs/{status.job_id}"
    return status.to_json()


@router.get("/documents", response_model=DocumentList)
def list_documents(
    principal: Reader, assistant: AssistantDep, collection: str | None = None
) -> DocumentList:
    name = readable(principal, collection, assistant)[0]
    return DocumentList(
        collection=name,
        documents=[DocumentModel.of(d) for d in assistant.documents(collection=name)],
    )


@router.post("/documents", status_code=202)
async def upload_documents(
    request: Request,
    response: Response,
    principal: Writer,
    assistant: AssistantDep,
    jobs: JobsDep,
    collection: str | None = None,
    replace: bool = False,
) -> dict[str, object]:
    """Multipart upload; answers 202 with the job (`GET /jobs/{id}` follows it). A file
    named as a document of the collection goes beside it (`notes (2).md`); `replace=true`
    replaces that document instead."""
    target = writable(principal, collection)
    status = await accept_upload(request, principal, assistant, jobs, target, replace=replace)
    return _job_response(status, response)


@router.get("/documents/{source:path}", response_model=DocumentModel)
def get_document(
    source: str, principal: Reader, assistant: AssistantDep, collection: str | None = None
) -> DocumentModel:
    return DocumentModel.of(
        assistant.document(source, collection=readable(principal, collection, assistant)[0])
    )


@router.delete("/documents/{source:path}", status_code=204)
def delete_document(
    source: str, principal: Writer, assistant: AssistantDep, collection: str | None = None
) -> None:
    target = writable(principal, collection)
    assistant.delete(source, collection=target)
    forget_upload(assistant, target, source)


@router.post("/documents/{source:path}/reingest", status_code=202)
def reingest_document(
    source: str,
    response: Response,
    principal: Writer,
    assistant: AssistantDep,
    jobs: JobsDep,
    collection: str | None = None,
) -> dict[str, object]:
    """Parses the kept upload again (after an upgrade or a settings change)."""
    target = writable(principal, collection)
    doc = assistant.document(source, collection=target)
    kept = kept_upload(assistant, target, doc.source)
    if kept is None or not kept.is_file():
        raise NotFoundError(f"no uploaded file kept for '{source}': upload it again")
    job_id = new_job_id()
    folder = uploads_dir(assistant, target) / ".staging" / job_id
    folder.mkdir(parents=True)
    shutil.copy2(kept, folder / kept.name)
    initial = JobStatus(job_id, principal.user_id, target, "queued",
                        (FileStatus(kept.name, size=kept.stat().st_size),))  # fmt: skip
    jobs.submit(
        UploadJob(job_id, principal.user_id, target, str(folder),
                  ((kept.name, doc.content_hash),), str(kept.parent)),
        initial,
    )  # fmt: skip
    return _job_response(initial, response)


# -- documents of one chat (visible in that chat only) ----------------------------------


@router.post("/chat/{chat_id}/documents", status_code=202)
async def upload_chat_documents(
    chat_id: str,
    request: Request,
    response: Response,
    principal: Writer,
    assistant: AssistantDep,
    jobs: JobsDep,
    replace: bool = False,
) -> dict[str, object]:
    chat = chat_collection(principal, check_chat_id(chat_id))
    status = await accept_upload(request, principal, assistant, jobs, chat, replace=replace)
    return _job_response(status, response)


@router.get("/chat/{chat_id}/documents", response_model=DocumentList)
def list_chat_documents(chat_id: str, principal: Reader, assistant: AssistantDep) -> DocumentList:
    name = chat_collection(principal, check_chat_id(chat_id))
    return DocumentList(
        collection=name,
        documents=[DocumentModel.of(d) for d in assistant.documents(collection=name)],
    )


@router.delete("/chat/{chat_id}/documents", status_code=204)
def delete_chat_documents(
    chat_id: str, principal: Writer, assistant: AssistantDep, source: str | None = None
) -> None:
    """Removes one document (`?source=`) or, without it, every document of the chat."""
    name = chat_collection(principal, check_chat_id(chat_id))
    sources = [source] if source else [d.source for d in assistant.documents(collection=name)]
    for s in sources:
        assistant.delete(s, collection=name)
        forget_upload(assistant, name, s)


@router.delete("/chat/{chat_id}/documents/{source:path}", status_code=204)
def delete_chat_document(
    chat_id: str, source: str, principal: Writer, assistant: AssistantDep
) -> None:
    name = chat_collection(principal, check_chat_id(chat_id))
    assistant.delete(source, collection=name)
    forget_upload(assistant, name, source)
