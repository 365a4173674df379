"""`citewise eval` (retrieval and answer quality on a question set) and `citewise bench`
(ingest throughput, query latency, vector index scaling)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from citewise.cli.common import DataDir, JsonFlag, run_command

app = typer.Typer()


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
    from citewise.cli.render.tables import RichIngestProgress, err_console, out_console, print_json
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

    run_command(as_json, action)


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

    from citewise.cli.render.tables import err_console, print_json
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
            from citewise.config import load_settings
            from citewise.services import make_embedder

            model = make_embedder(load_settings(embedder=embedder))
            figures["vector_index"] = b.bench_vector_index(sizes, model.embed_query)
            err_console.print(figures["vector_index"])
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(figures, indent=2) + "\n")
        if as_json:
            print_json(figures)

    run_command(as_json, action)
