"""Repairs of an LLM's sentence that its cited passages do not support, tried before it is
dropped: re-cite it to the passage shown that supports it, and cut a clause that states what
no passage shown holds.

Re-citing: a sentence its own passages may support (uncertain) goes to the judge there first;
otherwise the other passage that supports it clearly wins (the strongest lexical support; on
a tie the earlier-ranked), else the first of the closest few the judge confirms
(`RECITE_JUDGED` judge calls at most). A sentence is not re-cited to a pair of passages: two
that hold its values together are often a passage stating them that is not their source
(docs/llm.md).

Cutting: a clause (after `;` or `:`, or in parentheses) that states a value or name found in
no passage shown — something the model added from elsewhere — is cut, and what is left is
checked as a sentence of its own (re-cited if need be); an invented value or name is never
kept, its clause goes with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from citewise.answer.lexical import (
    Evidence,
    missing_spelled_numbers,
    missing_values,
    unknown_terms,
)
from citewise.answer.support import LLMJudge, Support, check_sentence, lexical_verdict
from citewise.text.sentences import attach_marker, content_words, strip_citation_marks
from citewise.types import Passage

RECITE_JUDGED = 3  # other passages the judge may be asked about for a wrongly cited sentence

# a clause boundary: "; ", ": ", or a parenthesised aside
_BOUNDARY = re.compile(r";\s+|:\s+")
_ASIDE = re.compile(r"\s*\([^()]*\)")


def repaired(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    judge: LLMJudge | None,
    known: Evidence | None,
) -> Support:
    """`check_sentence`, and when its cited passages do not support it: re-cited, or with
    the clauses cut that state what nothing shown holds (module docstring)."""
    found = _recited(sentence, cited, passages, judge, known)
    if found.verdict != "unsupported" or known is None:
        return found
    cut = without_foreign_clauses(strip_citation_marks(sentence), known)
    if cut is None:
        return found
    kept = _recited(attach_marker(cut, [p.n for p in cited]), cited, passages, judge, known)
    if kept.verdict == "unsupported":
        return found
    return replace(kept, trimmed=True, written=sentence, missing=found.missing)


def _recited(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    judge: LLMJudge | None,
    known: Evidence | None,
) -> Support:
    """The sentence as cited when its passages support it (the judge deciding an uncertain
    case: the model's own citation goes first), else re-cited (module docstring)."""
    found = lexical_verdict(sentence, cited, known)
    if found.verdict == "supported":
        return found
    others = recite_candidates(sentence, cited, passages, known)
    clearly = others[0] if others and others[0].verdict == "supported" else None
    if found.verdict == "uncertain":
        found = check_sentence(sentence, cited, judge, known)
        if found.verdict == "supported":
            return found
        if found.verdict == "uncertain":
            return clearly or found  # the judge could not decide: kept, weakly
    if clearly is not None:
        return clearly
    parts = by_parts(sentence, cited, passages, known, judge)
    if parts is not None:
        return parts
    if judge is None:
        return found
    for other in others[:RECITE_JUDGED]:
        shown = [p for p in passages if p.n in other.cited]
        judged = check_sentence(other.sentence, shown, judge, known)
        if judged.verdict == "supported":
            return replace(judged, recited=True)
    return found


# where a two-part or comparison sentence divides: "…, while …", "…; …", "…, whereas …",
# "…, or …" (the items of a list of conditions)
_PARTS = re.compile(r";\s+|,\s+(?=(?:while|whereas|but|and|or)\b)")


def by_parts(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    known: Evidence | None,
    judge: LLMJudge | None = None,
) -> Support | None:
    """A sentence of several parts ("Bigtable uses 64 KB blocks, while GFS uses 64 MB
    chunks"; an aside in parentheses is a part too) whose every part one passage shown
    supports on its own (`_part_held`: its cited passages first, the judge confirming a
    paraphrased part), citing those passages; None when a part has none. Each part is held
    to its own passage: two passages that only hold the values together do not count."""
    claim = strip_citation_marks(sentence)
    parts = [p for p in _parts(claim) if content_words(p)]
    if len(parts) < 2:
        return None
    others = [p for p in passages if p not in cited]
    holders: list[int] = []
    scores: list[float] = []
    for part in parts:
        held = _part_held(part, cited, others, known, judge)
        if held is None:
            return None
        holders += [n for n in held.cited if n not in holders]
        scores.append(held.score)
    recited = set(holders) != {p.n for p in cited}
    text = attach_marker(claim, sorted(holders))
    return Support(text, "supported", min(scores), tuple(sorted(holders)), recited=recited)


def _parts(claim: str) -> list[str]:
    """The parts of a claim: its clauses (`_PARTS`), and each parenthesised aside of a few
    words ("The Datadog location (its Paris office, for about 40 people)"); a short aside
    ("thirty (30) days") stays in its clause."""
    asides = [m for m in _ASIDE.finditer(claim) if len(content_words(m.group(0))) >= 2]
    main = claim
    for m in reversed(asides):
        main = main[: m.start()] + main[m.end() :]
    parts = [p.strip(" ,;") for p in _PARTS.split(main)]
    return parts + [m.group(0).strip()[1:-1].strip() for m in asides]


def _part_held(
    part: str,
    cited: Sequence[Passage],
    others: Sequence[Passage],
    known: Evidence | None,
    judge: LLMJudge | None,
) -> Support | None:
    """The verdict of the passage that supports `part`: a cited one that does clearly or by
    the judge (the model's own citation first), else another that does clearly, else the
    first of the closest uncertain others the judge confirms (None: no passage does)."""
    for group, judged_at_most in ((cited, len(cited)), (others, RECITE_JUDGED)):
        verdicts = [lexical_verdict(part, [p], known) for p in group]
        clearly = next((v for v in verdicts if v.verdict == "supported"), None)
        if clearly is not None:
            return clearly
        if judge is None:
            continue
        maybe = sorted((v for v in verdicts if v.verdict == "uncertain"), key=lambda v: -v.score)
        for v in maybe[:judged_at_most]:
            judged = check_sentence(part, [p for p in group if p.n in v.cited], judge, known)
            if judged.verdict == "supported":
                return judged
    return None


def recite(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    known: Evidence | None = None,
) -> Support | None:
    """The sentence citing the other passages shown that support it best: `supported` when
    they do clearly, `uncertain` when only the judge can tell (None when none may)."""
    found = recite_candidates(sentence, cited, passages, known)
    return found[0] if found else None


def recite_candidates(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    known: Evidence | None = None,
) -> list[Support]:
    """The sentence citing each other passage shown that may support it, best first (clearly
    supported before uncertain, then by lexical score; ties keep retrieval's order)."""
    claim = strip_citation_marks(sentence)
    if not content_words(claim):
        return []
    found: list[Support] = []
    for p in passages:
        if p in cited:
            continue
        alone = lexical_verdict(claim, [p], known)
        if alone.verdict != "unsupported":
            found.append(_recited_to(claim, alone))
    found.sort(key=lambda s: (s.verdict == "supported", s.score), reverse=True)
    return found


def _recited_to(claim: str, s: Support) -> Support:
    return Support(attach_marker(claim, s.cited), s.verdict, s.score, s.cited, recited=True)


def without_foreign_clauses(claim: str, known: Evidence) -> str | None:
    """`claim` without its clauses that state a value or name found nowhere in `known`
    (None when there is none, or nothing with content is left)."""
    body = claim.rstrip()
    end = body[-1:] if body[-1:] in (".", "!", "?") else ""
    body = body[: len(body) - len(end)]
    masked = _ASIDE.sub(lambda m: " " * len(m.group(0)), body)
    spans = [(m.start(), m.end(), body) for m in _ASIDE.finditer(body)]
    pos = 0
    for m in _BOUNDARY.finditer(masked):
        spans.append((pos, m.end(), masked))
        pos = m.end()
    spans.append((pos, len(body), masked))
    cut = [(a, b) for a, b, text in spans if _foreign(text[a:b], known)]
    if not cut:
        return None
    out = "".join(ch for i, ch in enumerate(body) if not any(a <= i < b for a, b in cut))
    out = re.sub(r"[;:,\s]+$", "", " ".join(out.split()))
    if not body.startswith(out[:1]):
        out = out[:1].upper() + out[1:]  # the sentence's head was cut
    return out + end if content_words(out) else None


def _foreign(clause: str, known: Evidence) -> bool:
    """The clause states a value or a name found nowhere in what the model was shown."""
    if missing_values(clause, known) or missing_spelled_numbers(clause, known):
        return True
    return bool(unknown_terms(clause, known).names)
