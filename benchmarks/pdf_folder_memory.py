"""Peak memory of ingesting a folder of long PDFs into the SQLite store, before and after
(two source trees, one run), with each ingest's chunks/s.

    .venv/bin/python benchmarks/pdf_folder_memory.py --before /tmp/before/src --after src \
        [--rounds 2] [--files N] --out benchmarks/results/pdf_folder_memory.json

The folder: every PDF under the Debian documentation roots with 40 to 350 pages, plus the
single longest one (R's reference manual, 2,415 pages), duplicates (same size and page
count) dropped. They come from Debian packages: texlive-latex-base-doc, r-doc-pdf,
glpk-doc, python-reportlab-doc. Each tree ingests it in its own process with the default
embedder into a fresh data directory; the figure is that process's own VmHWM (read from
/proc/self/status at its end, not the parent's ru_maxrss). A thread samples VmRSS every
0.2 s and records what the ingest was doing at the highest sample (the file being read, the
chunks embedded so far). The trees run one after the other, alternating (`--rounds`), so
their chunks/s compare; `--side-by-side` runs them at once instead (half the cores each).
The machine's `uptime` is recorded beside the figures. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOTS = (Path("/usr/share/doc"), Path("/usr/share/R/doc"))
MIN_PAGES, MAX_PAGES = 40, 350


def choose_pdfs() -> list[tuple[int, Path]]:
    import pypdfium2 as pdfium

    seen: set[tuple[int, int]] = set()
    found: list[tuple[int, Path]] = []
    for root in ROOTS:
        for path in sorted(root.rglob("*.pdf")):
            if not path.is_file() or path.stat().st_size < 100_000:
                continue
            try:
                pdf = pdfium.PdfDocument(str(path))
            except pdfium.PdfiumError:
                continue
            pages = len(pdf)
            pdf.close()
            key = (path.stat().st_size, pages)
            if key not in seen:
                seen.add(key)
                found.append((pages, path))
    longest = max(found)
    return [longest, *sorted(p for p in found if MIN_PAGES <= p[0] <= MAX_PAGES)]


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _status_mb() -> dict[str, float]:
    status = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmHWM", "VmRSS"):
            status[name + "_mb"] = round(int(value.split()[0]) / 1024, 1)
    return status


class _Sampler:
    """VmRSS every `every` seconds, with what the ingest was doing at the highest sample."""

    def __init__(self, every: float = 0.2) -> None:
        self.every = every
        self.file = ""
        self.embedded = 0
        self.peak: dict[str, Any] = {"rss_mb": 0.0}
        self._stop = threading.Event()
        self._started = time.perf_counter()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def files(self, done: int, total: int, source: str) -> None:
        self.file = f"{done}/{total} {Path(source.split(' ')[0]).name}"

    def embedded_(self, done: int, total: int) -> None:
        self.embedded = done

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            rss = _status_mb()["VmRSS_mb"]
            if rss > self.peak["rss_mb"]:
                self.peak = {
                    "rss_mb": rss, "second": round(time.perf_counter() - self._started, 1),
                    "file": self.file, "embedded": self.embedded, "threads": _doing(),
                }  # fmt: skip

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        self._thread.join()
        return self.peak


def _doing() -> dict[str, str]:
    """Each other thread's innermost citewise function (what it is doing)."""
    names = {t.ident: t.name for t in threading.enumerate()}
    doing: dict[str, str] = {}
    for ident, frame in sys._current_frames().items():
        if ident == threading.get_ident():
            continue
        at: Any = frame
        while at is not None and "citewise" not in at.f_code.co_filename:
            at = at.f_back
        if at is not None:
            where = at.f_code.co_filename.split("citewise/")[-1]
            doing[names.get(ident, str(ident))] = f"{where}:{at.f_code.co_name}"
    return doing


class _Progress:
    def __init__(self, sampler: _Sampler) -> None:
        self._sampler = sampler

    def files(self, done: int, total: int, source: str) -> None:
        self._sampler.files(done, total, source)

    def embedded(self, done: int, total: int) -> None:
        self._sampler.embedded_(done, total)


def child(folder: Path, data: Path) -> dict[str, Any]:
    from citewise.assistant import Assistant

    sampler = _Sampler()
    started = time.perf_counter()
    report = Assistant(data).ingest([folder], collection="pdfs", progress=_Progress(sampler))
    seconds = time.perf_counter() - started
    peak = sampler.stop()
    status = _status_mb()
    kinds: dict[str, int] = {}
    for outcome in report.outcomes:
        kinds[outcome.status] = kinds.get(outcome.status, 0) + 1
    return {
        **status,
        "peak_sample": peak,
        "seconds": round(seconds, 1),
        "chunks_per_s": round(report.chunks_embedded / seconds, 1),
        "files": kinds,
        "failed": [o.source for o in report.outcomes if o.status == "failed"],
        "chunks": sum(o.chunks or 0 for o in report.outcomes),
        "chunks_embedded": report.chunks_embedded,
        "pages": report.pages,
    }


def run(src: Path, folder: Path, work: Path) -> subprocess.Popen[str]:
    data = Path(tempfile.mkdtemp(prefix="data-", dir=work))
    return subprocess.Popen(
        [sys.executable, __file__, "--child", str(folder), str(data)],
        env={**os.environ, "PYTHONPATH": str(src.resolve())},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _result(name: str, proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate()
    lines = out.strip().splitlines()
    ok = proc.returncode == 0 and lines
    result: dict[str, Any] = json.loads(lines[-1]) if ok else {"error": err[-3000:]}
    print(name, json.dumps(result), file=sys.stderr, flush=True)
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, help="the src/ of the tree before the change")
    ap.add_argument("--after", type=Path, default=Path("src"))
    ap.add_argument("--child", nargs=2, type=Path, metavar=("FOLDER", "DATA"))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--rounds", type=int, default=1, help="before/after pairs, alternating")
    ap.add_argument("--files", type=int, help="only the first N PDFs (the longest first)")
    ap.add_argument("--smallest", type=int, help="only the N shortest PDFs (a quick A/B)")
    ap.add_argument("--side-by-side", action="store_true", help="both trees at once")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    work = Path(tempfile.mkdtemp(prefix="pdf-memory-"))
    folder = work / "pdfs"
    folder.mkdir()
    chosen = choose_pdfs()[: args.files]
    if args.smallest:
        chosen = chosen[1 : 1 + args.smallest]
    for i, (_, path) in enumerate(chosen):
        (folder / f"{i:03d}-{path.name}").symlink_to(path)
    report: dict[str, Any] = {
        "pdfs": len(chosen),
        "pages": sum(p for p, _ in chosen),
        "largest": {"path": str(chosen[0][1]), "pages": chosen[0][0]},
        "megabytes": round(sum(p.stat().st_size for _, p in chosen) / 2**20, 1),
        "uptime_start": _uptime(),
    }
    print(json.dumps(report), file=sys.stderr, flush=True)
    trees = {"before": args.before, "after": args.after}
    order = [
        (f"{name} {r + 1}" if args.rounds > 1 else name, src)
        for r in range(args.rounds)
        for name, src in trees.items()
        if src is not None
    ]
    if args.side_by_side:  # the figure is each one's own peak
        running = {name: run(src, folder, work) for name, src in order}
        for name, proc in running.items():
            report[name] = _result(name, proc)
    else:
        for name, src in order:
            report[name] = _result(name, run(src, folder, work))
    report["uptime_end"] = _uptime()
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
