"""Distil a 3-layer student of the bundled all-MiniLM-L6-v2 on the check sets' text (#42 item 4).

    PYTHONPATH=src .venv/bin/python scripts/distill_student.py \
        [--corpora ~/.cache/citewise/check-sets] [--layers auto|0,2,4|1,3,5] [--out DIR]

The developer's tool (needs torch and sentence-transformers, the `model` extra); the user's
install only reads what it writes. Steps, all seeded (same corpora, torch build and threads:
same weights):

1. passages: every supported file of the corpora's document folders (only their text, never a
   question set), parsed by citewise's own parsers (no OCR), cut into word windows of 8 to
   --max-words words; one document in eight is held out for evaluation;
2. targets: the teacher's normalised mean-pooled vectors (what `minilm` stores);
3. student: the teacher with 3 of its 6 layers kept (`auto`: the choice whose untrained
   vectors are closest to the teacher's on held-out passages), the word/position embeddings
   frozen, so the student shares them with the shipped model and only its layers are new;
4. training: MSE between the student's and the teacher's normalised vectors (on unit
   vectors this is 2 − 2·cosine over the dimensions), AdamW, linear warm-up and decay,
   batches of passages of similar length (little padding to compute on 2 CPU cores);
5. output: the kept layers renumbered 0..2 in fp16 (`student-l3.safetensors`, ~5 MB) and
   `student-l3.json` (kept layers, sizes, held-out cosine), read by `citewise.embed.minilm.student`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

SETS = ("policy", "licences", "governance", "workplace", "papers", "contracts", "decks")
CANDIDATES = ((0, 2, 4), (1, 3, 5))
SEED = 45
MIN_WORDS = 8
HOLD_OUT = 8  # every 8th document (by sorted path) is held out
QUESTION_FILES = {"questions.jsonl", "questions.json", "answers.jsonl"}


def passages(corpora: Path, max_words: int) -> tuple[list[str], list[str], list[str]]:
    """(train passages, held-out passages, document paths) from the sets' document files."""
    from citewise.errors import CitewiseError
    from citewise.ingest.parsers import is_supported, parse_file

    rng = random.Random(SEED)
    files = sorted(
        p
        for name in SETS
        for p in (corpora / name).rglob("*")
        if p.is_file() and is_supported(p) and p.name not in QUESTION_FILES
    )
    train: list[str] = []
    held: list[str] = []
    for index, path in enumerate(files):
        try:
            doc = parse_file(path, ocr="none")
        except CitewiseError as exc:
            print(f"skip {path.name}: {exc}", file=sys.stderr)
            continue
        words = " ".join(block.text for block in doc.blocks).split()
        target = held if index % HOLD_OUT == 0 else train
        start = 0
        while start < len(words):
            size = rng.randint(MIN_WORDS, max_words)
            target.append(" ".join(words[start : start + size]))
            start += size
    return train, held, [str(p) for p in files]


def student_of(model_dir: Path, keep: tuple[int, ...]) -> Any:
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(model_dir), device="cpu")
    bert = model[0].auto_model
    bert.encoder.layer = torch.nn.ModuleList([bert.encoder.layer[i] for i in keep])
    bert.config.num_hidden_layers = len(keep)
    for param in bert.embeddings.parameters():
        param.requires_grad = False
    return model


def embed(model: Any, texts: list[str], batch: int = 32) -> Any:
    return model.encode(
        texts, batch_size=batch, normalize_embeddings=True, convert_to_tensor=True
    ).float()


def cosines(model: Any, texts: list[str], targets: Any) -> Any:
    import torch

    model.eval()
    with torch.no_grad():
        return (embed(model, texts) * targets).sum(dim=1)


def untrained(model_dir: Path, keep: tuple[int, ...], held: list[str], targets: Any) -> float:
    """Held-out mean cosine of the student before training (how `auto` picks the layers)."""
    return float(cosines(student_of(model_dir, keep), held, targets).mean())


def train(model: Any, texts: list[str], targets: Any, args: argparse.Namespace) -> None:
    import torch

    params = [p for p in model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    by_length = sorted(range(len(texts)), key=lambda i: (len(texts[i].split()), i))
    batches = [by_length[i : i + args.batch] for i in range(0, len(by_length), args.batch)]
    steps = args.epochs * len(batches)
    warm = max(1, steps // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(
        optim, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm)))
    )
    rng = random.Random(SEED)
    step, started = 0, time.perf_counter()
    for _ in range(args.epochs):
        rng.shuffle(batches)
        model.train()
        for rows in batches:
            features = model.tokenize([texts[i] for i in rows])
            out = model(features)["sentence_embedding"]
            loss = torch.nn.functional.mse_loss(out, targets[rows], reduction="sum") / len(rows)
            optim.zero_grad()
            loss.backward()
            optim.step()
            sched.step()
            step += 1
            if step % 25 == 0 or step == steps:
                elapsed = time.perf_counter() - started
                print(f"step {step}/{steps} loss {loss.item():.4f} {elapsed:.0f}s", flush=True)


def save(model: Any, keep: tuple[int, ...], out: Path, report: dict[str, Any]) -> None:
    import torch
    from safetensors.torch import save_file

    layers = model[0].auto_model.encoder.layer
    tensors = {
        f"encoder.layer.{i}.{name}": value.detach().to(torch.float16).contiguous()
        for i, layer in enumerate(layers)
        for name, value in layer.state_dict().items()
    }
    out.mkdir(parents=True, exist_ok=True)
    path = out / "student-l3.safetensors"
    save_file(tensors, str(path), metadata={"kept_layers": ",".join(map(str, keep))})
    report["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (out / "student-l3.json").write_text(json.dumps(report, indent=2) + "\n", "utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", type=Path, default=Path.home() / ".cache/citewise/check-sets")
    parser.add_argument("--layers", default="auto", help="auto, or e.g. 0,2,4")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--max-train", type=int, default=2500, help="passages trained on")
    parser.add_argument("--max-words", type=int, default=120, help="longest passage")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--out", type=Path, default=Path("src/citewise/embed/minilm/student"), help="output dir"
    )
    args = parser.parse_args(argv)

    import torch
    from sentence_transformers import SentenceTransformer

    from citewise.embed.minilm.weights import bundled_model_dir

    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    began = time.perf_counter()
    texts, held, files = passages(args.corpora.expanduser(), args.max_words)
    random.Random(SEED).shuffle(texts)
    texts = texts[: args.max_train]
    held = held[:: max(1, len(held) // 300)][:300]
    print(f"{len(files)} files, {len(texts)} train / {len(held)} held-out passages", flush=True)
    model_dir = bundled_model_dir()
    teacher = SentenceTransformer(str(model_dir), device="cpu")
    with torch.no_grad():
        targets, held_targets = embed(teacher, texts), embed(teacher, held)
    print(f"teacher targets in {time.perf_counter() - began:.0f}s", flush=True)

    choices = CANDIDATES if args.layers == "auto" else (tuple(map(int, args.layers.split(","))),)
    initial = {
        ",".join(map(str, keep)): float(
            cosines(student_of(model_dir, keep), held, held_targets).mean()
        )
        for keep in choices
    }
    keep = tuple(map(int, max(initial, key=lambda k: initial[k]).split(",")))
    print(f"untrained held-out mean cosine {initial}; keeping layers {keep}", flush=True)
    student = student_of(model_dir, keep)
    train(student, texts, targets, args)
    held_cos = cosines(student, held, held_targets)
    report = {
        "teacher": "all-MiniLM-L6-v2",
        "kept_layers": list(keep),
        "untrained_mean_cosine": initial,
        "train_passages": len(texts),
        "held_out_passages": len(held),
        "held_out_mean_cosine": round(float(held_cos.mean()), 4),
        "held_out_p05_cosine": round(float(held_cos.quantile(0.05)), 4),
        "held_out_worst_cosine": round(float(held_cos.min()), 4),
        "sets": list(SETS),
        "max_words": args.max_words,
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "seed": SEED,
        "seconds": round(time.perf_counter() - began),
        "torch": torch.__version__,
    }
    save(student, keep, args.out, report)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
