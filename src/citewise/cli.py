"""The `citewise` command line. Thin: parses options, calls `Assistant`, renders."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from citewise.errors import CitewiseError

app = typer.Typer(
    help="Answers questions only from your documents, with citations.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
docs_app = typer.Typer(help="List or remove ingested documents.", no_args_is_help=True)
app.add_typer(docs_app, name="docs")

DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", envvar="CITEWISE_DATA_DIR", help="Store location (~/.citewise)."),
]
Collection = Annotated[str | None, typer.Option("--collection", "-c", envvar="CITEWISE_COLLECTION")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
T = TypeVar("T")


def _assistant(data_dir: Path | None, collection: str | None) -> Any:
    """The documents side of the composition root (`services.Services`)."""
    from citewise.config import load_settings
    from citewise.services import Services

    return Services(load_settings(data_dir=data_dir, collection=collection)).assistant


def _run(as_json: bool, action: Callable[[], T]) -> T:
    """Maps the error tree to exit codes and clear messages (no tracebacks)."""
    from citewise.cli_render import err_console, print_json

    try:
        return action()
    except CitewiseError as exc:
        if as_json:
            print_json({"error": str(exc), "type": type(exc).__name__})
        err_console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted: the store is consistent; run again to resume[/]")
        raise typer.Exit(130) from None


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders (recursive).")],
    prune: Annotated[bool, typer.Option(help="Remove documents whose files are gone.")] = False,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Ingest files and folders; unchanged files are skipped, changed ones replaced."""
    from citewise.cli_render import (
        RichIngestProgress,
        err_console,
        print_json,
        render_ingest_report,
    )

    def action() -> None:
        with (
            _assistant(data_dir, collection) as assistant,
            RichIngestProgress(err_console) as progress,
        ):
            report = assistant.ingest(paths, prune=prune, progress=progress)
        if as_json:
            print_json(report.to_json())
        render_ingest_report(report, err_console)
        if report.outcomes and report.count("failed") == len(report.outcomes):
            raise typer.Exit(1)

    _run(as_json, action)


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    k: Annotated[int, typer.Option("-k", help="Number of passages.")] = 10,
    mode: Annotated[str, typer.Option(help="hybrid | keyword | vector")] = "hybrid",
    category: Annotated[str | None, typer.Option(help="Only documents of this category.")] = None,
    tag: Annotated[list[str] | None, typer.Option(help="Only documents with this tag.")] = None,
    source: Annotated[list[str] | None, typer.Option(help="Only this document.")] = None,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Hybrid keyword + vector search over the ingested passages."""
    from citewise.cli_render import out_console, print_json, render_search
    from citewise.errors import InputError

    def action() -> None:
        if mode not in ("hybrid", "keyword", "vector"):
            raise InputError(f"unknown mode '{mode}': use hybrid, keyword or vector")
        with _assistant(data_dir, collection) as assistant:
            result = assistant.search(
                query, k=k, mode=mode, category=category, tags=tag or (), sources=source or ()
            )
        if as_json:
            print_json(result.to_json())
        else:
            render_search(result, out_console)

    _run(as_json, action)


@docs_app.command("ls")
def docs_ls(
    data_dir: DataDir = None, collection: Collection = None, as_json: JsonFlag = False
) -> None:
    """List the documents of a collection."""
    from citewise.cli_render import document_json, out_console, print_json, render_documents

    def action() -> None:
        with _assistant(data_dir, collection) as assistant:
            docs = assistant.documents()
        if as_json:
            print_json({"documents": [document_json(d) for d in docs]})
        else:
            render_documents(docs, out_console)

    _run(as_json, action)


@docs_app.command("rm")
def docs_rm(
    sources: Annotated[list[str], typer.Argument(help="Document sources as `docs ls` shows them.")],
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Remove documents from every index."""
    from citewise.cli_render import err_console, print_json

    def action() -> None:
        with _assistant(data_dir, collection) as assistant:
            removed = [assistant.delete(s).source for s in sources]
        if as_json:
            print_json({"removed": removed})
        for s in removed:
            err_console.print(f"removed {s}")

    _run(as_json, action)


@app.command("eval")
def eval_cmd(
    question_set: Annotated[Path, typer.Argument(help="Questions (JSONL).")],
    corpus: Annotated[Path, typer.Option(help="Folder the questions were written against.")],
    modes: Annotated[str, typer.Option(help="Comma-separated: hybrid,keyword,vector")] = (
        "hybrid,keyword,vector"
    ),
    answers: Annotated[
        bool, typer.Option(help="Also run the answer flow and score answers.")
    ] = True,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Ingest the corpus into its own store (reused when unchanged), score retrieval per mode
    and, with --answers (default), the answers, citations, abstentions and intents."""
    from citewise.cli_render import RichIngestProgress, err_console, out_console, print_json
    from citewise.evaluation.harness import eval_data_dir, run_answer_eval, run_eval
    from citewise.evaluation.report import render_answer_table, render_tables, to_json

    def action() -> None:
        from citewise.assistant import Assistant

        root = eval_data_dir(data_dir, corpus)
        with Assistant(data_dir=root) as assistant:
            with RichIngestProgress(err_console) as progress:
                report = assistant.ingest([corpus], progress=progress)
            counts = ", ".join(
                f"{report.count(status)} {status}"
                for status in ("ingested", "replaced", "unchanged", "failed")
                if report.count(status) or status != "replaced"
            )
            err_console.print(f"corpus: {counts} ({report.seconds:.1f} s) in {root}")
            by_mode = run_eval(assistant, question_set, [m.strip() for m in modes.split(",")])
            scored = run_answer_eval(assistant, question_set) if answers else None
        if as_json:
            payload = to_json(by_mode)
            if scored is not None:
                payload["answers"] = scored.summary
                payload["answer_items"] = scored.items
            print_json(payload)
        else:
            render_tables(by_mode, out_console)
            if scored is not None:
                render_answer_table(scored.summary, out_console)

    _run(as_json, action)


@app.command()
def bench(
    corpus: Annotated[Path | None, typer.Option(help="Corpus for ingest + query figures.")] = None,
    questions: Annotated[Path | None, typer.Option(help="Question set for query latency.")] = None,
    embedder: Annotated[str, typer.Option(help="Embedder spec.")] = "minilm",
    vector_sizes: Annotated[str, typer.Option(help="Synthetic index sizes, comma-separated.")] = (
        "20000,1000000"
    ),
    out: Annotated[
        Path | None, typer.Option(help="Also write the figures to this JSON file.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Measure ingest throughput, peak memory, query latency and vector index scaling."""
    import json

    from citewise.cli_render import err_console, print_json
    from citewise.evaluation import bench as b

    def action() -> None:
        figures: dict[str, object] = {}
        if corpus is not None:
            err_console.print(f"ingesting {corpus} into a fresh store ({embedder}) …")
            figures["ingest"] = ingest_figures = b.bench_ingest(corpus, embedder)
            err_console.print(ingest_figures)
            if questions is not None:
                figures["query"] = b.bench_queries(
                    Path(str(ingest_figures["data_dir"])), embedder, questions,
                    ("hybrid", "keyword", "vector"),
                )  # fmt: skip
                err_console.print(figures["query"])
                figures["ask"] = b.bench_answers(
                    Path(str(ingest_figures["data_dir"])), embedder, questions
                )
                err_console.print(figures["ask"])
        sizes = [int(x) for x in vector_sizes.split(",") if x.strip()]
        if sizes:
            from citewise.assistant import Assistant

            with Assistant(embedder=embedder, data_dir=Path("/nonexistent-unused")) as a:
                figures["vector_index"] = b.bench_vector_index(sizes, a.embedder().embed_query)
            err_console.print(figures["vector_index"])
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(figures, indent=2) + "\n")
        if as_json:
            print_json(figures)

    _run(as_json, action)


from citewise import (  # noqa: E402  (each registers its commands: ask/chat/history, …)
    cli_chat,  # noqa: F401
    cli_serve,  # noqa: F401
    cli_users,  # noqa: F401
    cli_worker,  # noqa: F401  (worker, enqueue, dead-letters)
)


def main() -> None:
    logging.basicConfig(level=os.environ.get("CITEWISE_LOG", "WARNING").upper())
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    app()


if __name__ == "__main__":
    main()
