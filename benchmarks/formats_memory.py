"""Peak memory of ingesting a large spreadsheet and a large mailbox, both generated here, each
in a process of its own (its VmHWM read from /proc/self/status at the end, so the figure is
the ingest's alone), with the hashing embedder (parsing, chunking and storing) or the bundled
model (`--embedder minilm`); `--model` measures the model's own footprint apart. Every 15 s
the child notes (seconds, passages embedded, RSS); `--stop-after N` ends a long run there
and reports its peak so far.

    .venv/bin/python benchmarks/formats_memory.py [--sheet-mb 50] [--mbox-mb 1024] \
        [--work /tmp/formats-bench] [--model] [--embedder minilm] [--stop-after 1800] \
        [--out results.json]

The workbook: one sheet of 7 columns (ids, names, regions, products, numbers, notes), written
with XlsxWriter's constant-memory mode, whose strings are inline (no shared-strings table).
The mailbox: messages of ~1.5 KB of text, each with a ~90 KB binary attachment (left out as
not a document; the mailbox is mostly attachments, as real ones are) and every tenth with a
small CSV attachment (read as rows). Generated files are kept in `--work` and reused.
Nothing is asserted; the goal (issue 39) is a peak under 300 MB for each.
"""

from __future__ import annotations

import argparse
import json
import mailbox
import os
import random
import subprocess
import sys
import textwrap
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Any

CHILD = textwrap.dedent(
    r"""
    import json, os, re, sys, threading, time
    from citewise.assistant import Assistant
    started = time.perf_counter()
    stop_after = float(sys.argv[5])
    def status(field):
        found = re.search(field + r":\s+(\d+)", open("/proc/self/status").read())
        return round(int(found[1]) / 1024, 1)
    class Progress:  # passages embedded so far, and the memory on the way (a bounded run)
        done = total = 0
        series = []
        def files(self, done, total, source):
            pass
        def embedded(self, done, total):
            self.done, self.total = done, total
    progress = Progress()
    def watch():
        while True:
            time.sleep(15)
            elapsed = round(time.perf_counter() - started)
            progress.series.append([elapsed, progress.done, status("VmRSS")])
            if stop_after and elapsed >= stop_after:
                print(json.dumps({"stopped_after_s": elapsed, "embedded": progress.done,
                                  "series": progress.series, "peak_mb": status("VmHWM")}))
                sys.stdout.flush()
                os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
    with Assistant(data_dir=sys.argv[2], embedder=sys.argv[3]) as a:
        report = a.ingest([sys.argv[1]], progress=progress)
        hits = [h.source for h in a.search(sys.argv[4], k=1, mode="keyword").hits]
    print(json.dumps({
        "outcomes": [[o.source, o.status, o.reason, o.chunks] for o in report.outcomes],
        "seconds": round(time.perf_counter() - started, 1),
        "found": hits,
        "series": progress.series,
        "peak_mb": status("VmHWM"),
    }))
    """
)
BASELINE = textwrap.dedent(
    r"""
    import json, re
    from citewise.assistant import Assistant
    from citewise.assistant.inside import inside
    import tempfile
    with Assistant(data_dir=tempfile.mkdtemp(), embedder="minilm") as a:
        inside(a).embedder().embed_documents(["warm the model up"])
    status = open("/proc/self/status").read()
    print(json.dumps({"peak_mb": round(int(re.search(r"VmHWM:\s+(\d+)", status)[1]) / 1024, 1)}))
    """
)
REGIONS = ("North", "South", "East", "West")


def make_workbook(path: Path, megabytes: int) -> int:
    """A workbook of about `megabytes` MB; returns its data rows."""
    import xlsxwriter

    rng = random.Random(7)
    book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, ["Order", "Customer", "Region", "Product", "Quantity", "Amount", "Note"])
    rows = int(megabytes * 2**20 / 52.5)  # ~52 compressed bytes per row, measured
    for r in range(1, rows + 1):
        sheet.write_row(r, 0, [
            f"ORD-{r:08d}", f"Customer {rng.randrange(100_000)}", REGIONS[r % 4],
            f"Product {rng.randrange(5000)}", rng.randrange(1, 100), round(rng.random() * 1000, 2),
            f"note {rng.randrange(10**9)} about delivery window {r % 17}",
        ])  # fmt: skip
    sheet.write_row(rows + 1, 0, ["ORD-LAST", "Zebediah Quartermaine", "North", "Sextant", 1, 9.5])
    book.close()
    return rows


def make_mailbox(path: Path, megabytes: int) -> int:
    """A mailbox of about `megabytes` MB; returns its messages."""
    rng = random.Random(11)
    words = ("berth", "tide", "crane", "invoice", "pilot", "harbour", "cargo", "schedule")
    target = megabytes * 10**6  # decimal: "1 GB" stays under the 1 GiB stream limit
    box = mailbox.mbox(str(path), create=True)
    count = 0
    try:
        while path.stat().st_size < target:
            for _ in range(200):
                msg = EmailMessage()
                msg["From"] = f"Sender {count % 50} <s{count % 50}@harbour.example>"
                msg["To"] = "crew@harbour.example"
                msg["Subject"] = (
                    f"Re: schedule {count // 5}" if count % 5 else f"schedule {count // 5}"
                )
                msg["Message-ID"] = f"<m{count}@harbour.example>"
                if count % 5:
                    msg["In-Reply-To"] = f"<m{count - count % 5}@harbour.example>"
                body = " ".join(rng.choice(words) for _ in range(220))
                msg.set_content(f"{body}.\n\nReference {count}.\n")
                msg.add_attachment(rng.randbytes(90_000), maintype="application",
                                   subtype="octet-stream", filename="scan.bin")  # fmt: skip
                if count % 10 == 0:
                    rows = "".join(f"{i},{rng.choice(words)},{i * 3}\n" for i in range(20))
                    msg.add_attachment(f"Line,Item,Cost\n{rows}".encode(), maintype="text",
                                       subtype="csv", filename="costs.csv")  # fmt: skip
                box.add(msg)
                count += 1
            box.flush()
        last = EmailMessage()
        last["From"], last["Subject"] = "Quartermaster <qm@harbour.example>", "Sextant audit"
        last.set_content("The brass sextant was recalibrated by Zebediah Quartermaine.\n")
        box.add(last)
        box.flush()
    finally:
        box.close()
    return count + 1


def run_child(
    path: Path, data: Path, query: str, embedder: str = "hashing", stop_after: float = 0
) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(data), embedder, query, str(stop_after)],
        env=env, capture_output=True, text=True, timeout=4 * 3600, check=True,
    )  # fmt: skip
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheet-mb", type=int, default=50)
    parser.add_argument("--mbox-mb", type=int, default=1024)
    parser.add_argument("--work", type=Path, default=Path("/tmp/formats-bench"))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--model", action="store_true", help="also the bundled model's footprint")
    parser.add_argument("--embedder", default="hashing", help="hashing (default) or minilm")
    parser.add_argument(
        "--stop-after", type=float, default=0,
        help="end each ingest after this many seconds and report its peak so far (a bounded "
        "run: the bundled model embeds a 50 MB sheet's half million passages in hours)",
    )  # fmt: skip
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"uptime": subprocess.getoutput("uptime").strip()}
    cases = (
        ("spreadsheet", args.work / f"orders-{args.sheet_mb}mb.xlsx", args.sheet_mb, make_workbook,
         "Zebediah Quartermaine"),
        ("mailbox", args.work / f"harbour-{args.mbox_mb}mb.mbox", args.mbox_mb, make_mailbox,
         "Zebediah Quartermaine recalibrated"),
    )  # fmt: skip
    for name, path, size, make, query in cases:
        if size <= 0:
            continue
        if not path.exists():
            started = time.perf_counter()
            units = make(path, size)
            print(f"{name}: wrote {path} ({units} rows/messages) in "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)  # fmt: skip
        data = args.work / f"data-{name}"
        subprocess.run(["rm", "-rf", str(data)], check=True)
        figures = run_child(path, data, query, args.embedder, args.stop_after)
        figures["embedder"] = args.embedder
        figures["file_mb"] = round(path.stat().st_size / 2**20, 1)
        results[name] = figures
        print(name, json.dumps(figures)[:400], file=sys.stderr)
    if args.model:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        run = subprocess.run(
            [sys.executable, "-c", BASELINE], capture_output=True, text=True, check=True, env=env
        )
        results["model_alone"] = json.loads(run.stdout.strip().splitlines()[-1])
    text = json.dumps(results, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
