"""Which OCR engine reads scanned pages better on this machine: tesseract or rapidocr?

    .venv/bin/python benchmarks/experiments/ocr_compare.py [--engines tesseract rapidocr]
        [--repeat 1] [--json benchmarks/results/ocr_compare.json]

Pages: A4 at 200 dpi drawn by the tests' `scanned_page` (tests/ingest/scans.py) with known
text — serif, sans, mono, small sans (about 7 pt), a 1.5° skew, light and heavy speckle,
tiny type (15 px, about 5 pt) and a blurred low-quality JPEG. For each
engine and page: the character error rate (Levenshtein distance between the reference and
the OCR text, whitespace collapsed, over the reference length) and the seconds the engine
took (best of --repeat; the engine's one-time model load is reported apart).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from citewise.ingest.parsers.ocr import ENGINES, OcrEngine
from ingest.scans import scanned_page

TEXT = [
    "Section 4.2 Nesting colonies and their survey",
    "The 2024 census counted 1,284 breeding pairs on the",
    "northern island, up from 1,097 in 2019. Observers",
    "used binoculars (8x42) and logged each nest's GPS",
    "position; disputed nests were re-checked at dusk.",
    "Key findings: herons prefer alder stands near water,",
    "avoid slopes steeper than 30%, and return to the",
    "same tree for 3-5 years. Contact: survey@example.org.",
    "Table 7 lists counts per plot (A1-A9, B1-B4).",
    "Funding came from the Estuary Trust (grant #55-0173).",
]
PAGES = {
    "serif 36px": {"font": "DejaVuSerif.ttf", "size": 36},
    "sans 30px": {"font": "DejaVuSans.ttf", "size": 30},
    "mono 28px": {"font": "DejaVuSansMono.ttf", "size": 28},
    "small sans 20px": {"font": "DejaVuSans.ttf", "size": 20},
    "skewed 1.5deg": {"font": "DejaVuSerif.ttf", "size": 32, "skew": 1.5},
    "light speckle": {"font": "DejaVuSans.ttf", "size": 30, "noise": 8_000},
    "heavy speckle": {"font": "DejaVuSans.ttf", "size": 30, "noise": 40_000},
    "tiny 15px": {"font": "DejaVuSans.ttf", "size": 15},
    "blurred JPEG q25": {"font": "DejaVuSerif.ttf", "size": 30, "blur": 1.6, "jpeg": 25},
}


@dataclass(frozen=True)
class PageResult:
    engine: str
    page: str
    cer: float
    seconds: float
    confidence: float


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def cer(reference: str, found: str) -> float:
    ref, got = " ".join(reference.split()), " ".join(found.split())
    return levenshtein(ref, got) / max(len(ref), 1)


def run(engine: OcrEngine, repeat: int) -> list[PageResult]:
    results: list[PageResult] = []
    reference = "\n".join(TEXT)
    for label, style in PAGES.items():
        image = scanned_page(TEXT, **style)  # type: ignore[arg-type]
        best = float("inf")
        text, confidence = "", 0.0
        for _ in range(repeat):
            started = time.perf_counter()
            result = engine.read(image)
            best = min(best, time.perf_counter() - started)
            text = "\n".join(line.text for line in result.lines)
            confidence = result.confidence
        results.append(
            PageResult(engine.name, label, round(cer(reference, text), 4), round(best, 2),
                       round(confidence, 3))
        )  # fmt: skip
        print(f"{engine.name:10} {label:16} CER {results[-1].cer:.3f}  {best:.2f} s", flush=True)
    return results


def table(results: Sequence[PageResult], loads: dict[str, float]) -> str:
    engines = list(dict.fromkeys(r.engine for r in results))
    head = "| page | " + " | ".join(f"{e} CER | {e} s/page" for e in engines) + " |"
    rule = "| --- |" + " --- | --- |" * len(engines)
    rows = [head, rule]
    for page in PAGES:
        cells = []
        for e in engines:
            r = next(r for r in results if r.engine == e and r.page == page)
            cells.append(f"{r.cer:.3f} | {r.seconds:.2f}")
        rows.append(f"| {page} | " + " | ".join(cells) + " |")
    means = []
    for e in engines:
        mine = [r for r in results if r.engine == e]
        means.append(
            f"**{sum(r.cer for r in mine) / len(mine):.3f}** | "
            f"**{sum(r.seconds for r in mine) / len(mine):.2f}**"
        )
    rows.append("| mean | " + " | ".join(means) + " |")
    rows.append("")
    rows.append("model load: " + ", ".join(f"{e} {s:.1f} s" for e, s in loads.items()))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", nargs="+", default=sorted(ENGINES))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results: list[PageResult] = []
    loads: dict[str, float] = {}
    for name in args.engines:
        started = time.perf_counter()
        engine = ENGINES[name]()
        loads[name] = time.perf_counter() - started
        results.extend(run(engine, args.repeat))
    print()
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(table(results, loads))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"pages": [asdict(r) for r in results], "model_load_s": loads}
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
