"""How well each candidate sentence answers the question: its cosine to the question and its
weighted word overlap, the passage's retrieval rank, rule-pack adjustments (version notes,
release notes, definitions, entry headings), and priors that choose between sentences without
moving the abstention thresholds (document share, answer type, named documents, polarity,
late interaction)."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

from citewise.extractive.calendar_fit import calendar_fit, calendar_values
from citewise.extractive.candidates import (
    CandidateSentence,
    document_share,
    lexical,
    stems_of,
    term_weights,
)
from citewise.extractive.clauses import Clauses
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.definitions import defines
from citewise.extractive.entry_headings import Framing, with_entry_words
from citewise.extractive.options import ExtractiveOptions
from citewise.extractive.polarity import polarity
from citewise.extractive.scoring import type_fit
from citewise.extractive.sentence_fit import documents_named
from citewise.extractive.units import said_before
from citewise.question.analysis import Analysis
from citewise.question.subject import without_setting
from citewise.question.terms import headed_by
from citewise.rules.version_notes import is_version_note
from citewise.text.headings import last_heading
from citewise.text.release_notes import is_release_notes
from citewise.text.sentences import content_words, topic_stem
from citewise.types.vectors import Vectors


def clause_gains(
    cands: Sequence[CandidateSentence],
    cos: np.ndarray[Any, np.dtype[np.float64]],
    clauses: Mapping[tuple[int, int], Clauses],
    qv: Vectors,
    share: float,
) -> dict[int, tuple[float, str]]:
    """By candidate index, for those whose best clause's cosine exceeds their own: `share` ×
    the excess, and that clause."""
    out: dict[int, tuple[float, str]] = {}
    for i, c in enumerate(cands):
        found = clauses.get((c.passage.n, c.index)) if share else None
        if found is not None:
            best, clause = found.best(qv)
            if best > cos[i]:
                out[i] = (share * (best - float(cos[i])), clause)
    return out


@functools.lru_cache(maxsize=1024)
def _heading_stems(section: str) -> frozenset[str]:
    """The stems of a passage's own heading: every sentence under it shares them."""
    return frozenset(stems_of(last_heading(section)))


def ask_weights(weights: dict[str, float], names: Collection[str]) -> dict[str, float]:
    """`weights` without the stems of `names`, the question's words that chose the passages'
    documents (and the roles those documents give them): every passage of those documents
    speaks of them, so they say nothing of which sentence answers the ask; unchanged when
    they are all the question has."""
    if not names:
        return weights
    subject = {topic_stem(w) for w in content_words(" ".join(names))}
    asked = {t: w for t, w in weights.items() if t not in subject}
    return asked or weights


def score_sentences(
    a: Analysis,
    cands: Sequence[CandidateSentence],
    vectors: Vectors,
    qv: Vectors,
    opts: ExtractiveOptions,
    *,
    framing: Framing | None = None,
    late: Mapping[tuple[int, int], float] | None = None,
    clauses: Mapping[tuple[int, int], Clauses] | None = None,
) -> list[ScoredSentence]:
    """The candidates scored against the question `a`, best first; `framing`: how the
    question's subject frames them (when it has one and entry headings are on); `late`: late
    interaction scores by (passage, sentence); `clauses`: the embedded clauses of candidates
    joining several, by (passage, sentence)."""
    subject = a.subject
    key = list(a.key_terms)
    framed: dict[int, str] = {}
    entries = opts.rules.entry_headings
    if subject and entries:
        if framing is not None:  # the answerer embeds it whenever there is a subject
            framed = framing.headings
            cands, vectors = framing.applied(cands, vectors)
    elif key and entries:
        cands = with_entry_words(key, cands)
    late = late or {}
    weights = term_weights(without_setting(a.question) if subject else a.question, cands)
    weights = ask_weights(weights, opts.document_names)
    cos = np.asarray(vectors @ qv, dtype=np.float64)
    gains = clause_gains(cands, cos, clauses or {}, qv, opts.clause_share)
    kind = a.answer_type
    notes_count = a.asks_change or not opts.rules.version_notes
    history = a.asks_history or not opts.rules.version_notes
    share = document_share(cands)
    named = documents_named(a.names, [c.passage for c in cands])
    when = calendar_values(a.question, asked=True) if opts.calendar_weight else {}
    out = []
    for i, (c, cosine) in enumerate(zip(cands, cos.tolist(), strict=True)):
        gain, clause = gains.get(i, (0.0, ""))
        cosine += 0.0 if opts.clause_prior else gain
        lex = lexical(weights, c)
        # the heading's words: what its sentences share picks between them, never the threshold
        headed = lexical(weights, c, _heading_stems(c.passage.hit.section)) - lex
        total = opts.cosine_weight * cosine + opts.lexical_weight * lex
        position = opts.rank_weight * c.rank_bonus
        total += position
        if not notes_count and is_version_note(c.text):
            total -= opts.version_note_penalty
        if not history and is_release_notes(c.passage.hit):
            total -= opts.release_notes_penalty
        if opts.said_mode == "prefer" and said_before(c.text, opts.already_said):
            total += opts.said_bonus
        if opts.said_mode == "exclude" and c.continues:
            total += opts.said_bonus  # "tell me more" reads on where the answer stopped
        extra_words = len(c.text.split()) - opts.short_words
        if opts.length_penalty and extra_words > 0:
            total -= opts.length_penalty * extra_words
        if subject and defines(subject, c.text, i in framed, c.passage.hit.section):
            total += opts.definition_weight
        if any(headed_by(c.passage, t) for t in key):
            total += opts.heading_weight
        prior = opts.document_weight * share[c.passage.hit.source]
        prior += opts.type_weight * type_fit(kind, c.text)
        prior += opts.name_weight * named.get(c.passage.n, 0.0)
        prior += opts.polarity_weight * polarity(a.question, c.text)
        prior += opts.calendar_weight * calendar_fit(when, c.text)
        prior += opts.late_weight * late.get((c.passage.n, c.index), 0.0)
        prior += opts.cosine_weight * gain if opts.clause_prior else 0.0
        prior += opts.lexical_weight * headed if opts.heading_is_subject else 0.0
        out.append(
            ScoredSentence(
                c.passage,
                c.index,
                c.text,
                c.stems,
                cosine,
                lex,
                total + prior,
                prior,
                position,
                clause,
            )
        )
    out.sort(key=lambda x: x.score, reverse=True)
    return out
