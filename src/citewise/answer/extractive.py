"""The extractive answerer: the default when no LLM is configured.

Every prose sentence of the given passages is scored against the question — cosine
similarity of embeddings (one batch call for all candidates), IDF-weighted overlap with the
question's content words, and a small bonus for the passage's retrieval rank. The answer is
the best sentence plus, for a multi-part or comparison question, the best sentence for each
part (for a comparison, when a page sets both sides side by side, its sentences that do), else
close runners-up from the best sentence's document. A lead-in ending in ':' brings
the line it introduces, a sentence opening with "This …" the one it refers to. Sentences keep
their reading order and each carries its `[n]`. "Tell me more" reads on in the passages (else the
documents) the previous answer came from. It abstains — no text from the passages, no
citations — when the question names something no passage mentions, asks for an attribute no
sentence names, or the best score is below the threshold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from citewise.answer.candidates import (
    Candidate,
    document_share,
    jaccard,
    lexical,
    read_on,
    stems_of,
    term_weights,
)
from citewise.answer.definitions import defines, definition_subject, without_setting
from citewise.answer.prompts import NOT_FOUND
from citewise.answer.question import (
    analyse,
    asks_quantity,
    contrast_terms,
    focus,
    headed_by,
    key_terms,
    mentions,
    states_quantity,
)
from citewise.answer.sentences import split_sentences
from citewise.answer.units import (
    is_caption,
    is_prose,
    join_marked,
    lead_in_end,
    said_before,
    with_subject,
)
from citewise.embed.base import Embedder, Vectors
from citewise.retrieve.history import asks_about_change, asks_about_history, is_release_notes
from citewise.types import Passage

# Calibrated on the dev set (Python 3.11 docs, hybrid and keyword-only retrieval, bundled
# MiniLM, weights below): after the key-term and focus checks, the best sentence of every
# answerable question scored ≥ 0.504, that of every unanswerable near miss ≤ 0.488 ("Python
# 3.5 was released on …" for a 3.13 question, "urllib.request … uses HTTP/1.1" for a pool
# size). The boundary is thin, so it is a parameter; raise it to refuse more.
ABSTAIN_BELOW = 0.5
# A capitalised name in the question ("with Poetry") that no passage contains lowers the best
# score by this much: usually the documents are about something else.
MISSING_NAME_PENALTY = 0.1
CONTINUATION = 3  # sentences after an already-said one that continue it


@dataclass(frozen=True, slots=True)
class ExtractiveOptions:
    threshold: float = ABSTAIN_BELOW
    max_sentences: int = 3
    # sentences embedded per question, in one batch: ≈ 15–40 ms on two idle cores; 24–40
    # made no difference to answer quality on the dev set
    max_candidates: int = 32
    # a grid over the dev set put cosine 0.6–0.8, lexical 0.3–0.4 on one plateau. Since the
    # reranker orders passages well, their rank counts too: on the dev set 0.05 → 0.2 lifted
    # lookup must_contain 0.64 → 0.68 and citation precision 0.77 → 0.79; at 0.3 and above the
    # top passage's bonus beat the abstention threshold on unanswerable questions (7/8 → 5/8)
    cosine_weight: float = 0.7
    lexical_weight: float = 0.3
    rank_weight: float = 0.2
    # the best sentence must clear this share of the threshold by what it says and where it
    # stands in its document (all but its passage's rank bonus), not only by standing in the
    # top passage: the rank bonus alone carried an exit-codes list (0.34 without it) over the
    # threshold for an HTTP status question the documents do not answer. The weakest right
    # answer on the dev set has 0.43; 0.76 × 0.5 = 0.38 is about halfway
    content_share: float = 0.76
    # "What is X?" / "What does X do?": a sentence that defines X ("A descriptor is …", the
    # opening sentence under a heading naming X) gets this much on top
    definition_weight: float = 0.1
    # a question naming an identifier: sentences under a heading naming it (the entry that
    # documents it) get this much on top of those that only mention it
    heading_weight: float = 0.1
    # a sentence gets up to this much by the share of the other passages that come from its
    # document: the page most passages come from is usually the page about the question. It
    # picks between sentences and does not count toward the abstention threshold: on the dev
    # set 0.1–0.3 lifted lookup must_contain 0.73 → 0.77 and citation precision 0.76 → 0.81
    document_weight: float = 0.2
    # how much lower a part's best sentence from the first pick's document may score and
    # still be preferred to another document's
    same_source_margin: float = 0.1
    # a runner-up for a one-part question must score this share of the best one
    relative_floor: float = 0.85
    near_duplicate: float = 0.6  # Jaccard of stems above which two sentences say the same
    min_words: int = 4
    # what was already said, as `norm_sentence` gives it. "Tell me more" wants something new
    # from the same source ("exclude"): sentences contained in it are left out, only the
    # passages it was taken from are read on (their documents when those passages have
    # little left; all passages when none is among them), any of their sentences above
    # `threshold` may join the best one, and the few right after a said sentence, which
    # continue where the answer stopped, get `said_bonus`. "Simplify that" restates it: its
    # sentences get `said_bonus` ("prefer").
    already_said: str = ""
    said_mode: Literal["exclude", "prefer"] = "exclude"
    said_bonus: float = 0.15
    # "Changed in version 3.10: …" notes answer questions about versions, not what a thing is
    # now: they lose this much unless the question asks about versions or changes
    version_note_penalty: float = 0.1
    # release notes describe things as they were; their sentences lose this much unless the
    # question is about versions or changes (the reranker demotes their passages likewise)
    release_notes_penalty: float = 0.1
    # "simplify that": per word beyond `short_words`, a sentence loses this much
    length_penalty: float = 0.0
    short_words: int = 20
    max_embed_chars: int = 300


@dataclass(frozen=True, slots=True)
class ScoredSentence:
    passage: Passage
    index: int  # position of the sentence in its passage
    text: str
    stems: frozenset[str]  # the candidate's, as `stems_of` gave them
    cosine: float
    lexical: float
    score: float
    prior: float = 0.0  # the part of `score` that says where the sentence is, not what
    position: float = 0.0  # the part of `score` its passage's rank gave


@dataclass(frozen=True, slots=True)
class ExtractiveResult:
    text: str
    used_passages: tuple[Passage, ...]
    support: tuple[float, ...]  # combined score of each chosen sentence, in answer order
    abstained: bool
    reason: str = ""
    best_score: float = 0.0


_ANAPHOR = re.compile(r"^(?:This|That|These|Those|It|Its|They|Such|Both|However|Otherwise)\b")
# "Changed in version 3.10: …", "New in Python 3.4", "Added in: v8.2.0" (Node.js)
_VERSION_NOTE = re.compile(
    r"^(?:changed|new|deprecated|added|removed)(?: in| since|:)+ (?:(?:version|python) |v)?\d",
    re.I,
)


class ExtractiveAnswerer:
    def __init__(self, embedder: Embedder, options: ExtractiveOptions | None = None) -> None:
        self.embedder = embedder
        self.options = options or ExtractiveOptions()

    def answer(
        self, question: str, passages: Sequence[Passage], question_vector: Vectors | None = None
    ) -> ExtractiveResult:
        opts = self.options
        if not passages:
            return _abstain("no passages")
        terms = analyse(question)
        missing = [t for t in terms.key_terms if not any(mentions(p, t) for p in passages)]
        if missing:
            return _abstain(f"no passage mentions {', '.join(missing)}")
        split = {p.n: split_sentences(p.context) for p in passages}
        cands, reading_on = self._candidates(question, passages, split)
        if not cands:
            return _abstain("no usable sentence")
        vectors = self.embedder.embed_documents([c.text[: opts.max_embed_chars] for c in cands])
        qv = question_vector if question_vector is not None else self.embedder.embed_query(question)
        scored = self._score(question, cands, vectors, qv)
        penalty = MISSING_NAME_PENALTY * sum(
            1 for name in terms.names if not any(mentions(p, name) for p in passages)
        )
        head = focus(question) if len(terms.facets) == 1 else None
        fits = [x for x in scored if head is None or head in x.stems]
        if head is not None and asks_quantity(question):
            fits = [x for x in fits if states_quantity(x.text)] or fits
        best = fits[0] if fits else None
        if best is None:
            return _abstain(f"no sentence names the {head!r} asked for")
        evidence = best.score - best.prior - penalty
        if evidence < opts.threshold:
            return _abstain(f"best score {evidence:.2f} below {opts.threshold:.2f}", evidence)
        content = evidence - best.position
        floor = opts.content_share * opts.threshold
        if content < floor:
            return _abstain(f"best sentence matches {content:.2f}, below {floor:.2f}", evidence)
        picks = [best]
        if len(terms.facets) > 1:
            picks = self._contrast(question, scored) or [
                best,
                *self._facet_picks(terms.facets, cands, vectors, picks),
            ]
        else:
            picks += self._extra(scored, best, relative=not reading_on)
        return _compose(picks[: opts.max_sentences], split, evidence)

    def _candidates(
        self, question: str, passages: Sequence[Passage], split: dict[int, list[str]]
    ) -> tuple[list[Candidate], bool]:
        """Prose sentences, capped to the `max_candidates` with the most question words, and
        whether they read on from what was already said ("tell me more", see `read_on`)."""
        rows: list[Candidate] = []
        said_in: dict[int, str] = {}  # passages holding an already-said sentence: source
        said = self.options.already_said
        exclude = bool(said) and self.options.said_mode == "exclude"
        min_words = self.options.min_words
        captions = "example" in question.lower()
        for rank, p in enumerate(passages):
            bonus = 1.0 - rank / len(passages)
            sentences = split[p.n]
            last_said = -CONTINUATION - 1
            for i, s in enumerate(sentences):
                dropped = exclude and said_before(s, said)
                if dropped:
                    last_said = i
                    said_in[p.n] = p.hit.source
                unit = " ".join(sentences[i : lead_in_end(sentences, i)])
                prose = is_prose(s, min_words) or (unit != s and is_prose(unit, min_words))
                prose = prose and (captions or not is_caption(s))
                if prose and not dropped:
                    follows = i - last_said <= CONTINUATION
                    stems = frozenset(stems_of(unit))
                    rows.append(Candidate(p, i, unit, bonus, stems, follows))
        rows, reading_on = read_on(rows, said_in)
        if len(rows) <= self.options.max_candidates:
            return rows, reading_on
        weights = term_weights(question, rows)
        order = sorted(
            range(len(rows)),
            key=lambda k: lexical(weights, rows[k]) + 0.2 * rows[k].rank_bonus,
            reverse=True,
        )
        return [rows[k] for k in sorted(order[: self.options.max_candidates])], reading_on

    def _score(
        self, question: str, cands: Sequence[Candidate], vectors: Vectors, qv: Vectors
    ) -> list[ScoredSentence]:
        opts = self.options
        subject = definition_subject(question)
        weights = term_weights(without_setting(question) if subject else question, cands)
        cos = np.asarray(vectors @ qv, dtype=np.float64)
        notes_count = asks_about_change(question)
        history = asks_about_history(question)
        share = document_share(cands)
        key = key_terms(question)
        out = []
        for c, cosine in zip(cands, cos.tolist(), strict=True):
            lex = lexical(weights, c)
            total = opts.cosine_weight * cosine + opts.lexical_weight * lex
            position = opts.rank_weight * c.rank_bonus
            total += position
            if not notes_count and _VERSION_NOTE.match(c.text):
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
            if subject and defines(subject, c.text, c.index, c.passage.hit.section):
                total += opts.definition_weight
            if any(headed_by(c.passage, t) for t in key):
                total += opts.heading_weight
            prior = opts.document_weight * share[c.passage.hit.source]
            out.append(
                ScoredSentence(
                    c.passage, c.index, c.text, c.stems, cosine, lex, total + prior, prior, position
                )
            )
        out.sort(key=lambda x: x.score, reverse=True)
        return out

    def _adds(self, cand: ScoredSentence, picks: Sequence[ScoredSentence]) -> bool:
        same = any(p.passage.n == cand.passage.n and p.index == cand.index for p in picks)
        dup = any(jaccard(cand.stems, p.stems) >= self.options.near_duplicate for p in picks)
        return not same and not dup

    def _facet_picks(
        self,
        facets: Sequence[str],
        cands: Sequence[Candidate],
        vectors: Vectors,
        picks: list[ScoredSentence],
    ) -> list[ScoredSentence]:
        """The best sentence for each part of a multi-part or comparison question."""
        out: list[ScoredSentence] = []
        home = picks[0].passage.hit.source
        for facet in facets:
            head = focus(facet)
            ranked = self._score(facet, cands, vectors, self.embedder.embed_query(facet))
            fits = [x for x in ranked if head is None or head in x.stems]
            if asks_quantity(facet):
                fits = [x for x in fits if states_quantity(x.text)] or fits
            if not fits:
                continue
            # the best sentence's document keeps the answer when it answers this part
            # nearly as well: one source is easier to check than two
            near = fits[0].score - self.options.same_source_margin
            top = next(
                (x for x in fits if x.passage.hit.source == home and x.score >= near), fits[0]
            )
            # a part is answered only by a sentence that clears the abstention threshold on
            # its own: below it (0.45 used to pass) a part took a glossary line about
            # something else ("recommended alternative" → "An informal synonym for …")
            clears = top.score - top.prior >= self.options.threshold
            if clears and self._adds(top, picks + out):
                out.append(top)
        return out

    def _contrast(self, question: str, scored: Sequence[ScoredSentence]) -> list[ScoredSentence]:
        """A comparison is best answered by sentences that set both sides side by side, from
        the page that does so most ("There are fundamental differences between pickle and
        JSON: - JSON is human-readable, while pickle is not"), rather than by a definition of
        each side from wherever it scores best. Empty when fewer than two such sentences clear
        the threshold."""
        terms = contrast_terms(question)
        if terms is None:
            return []
        floor = self.options.threshold
        both = [x for x in scored if x.score - x.prior >= floor and {terms[0], terms[1]} <= x.stems]
        if len(both) < 2:
            return []
        by_source: dict[str, list[float]] = {}
        for x in both:  # `scored` is best first, so each list is too
            by_source.setdefault(x.passage.hit.source, []).append(x.score)
        home = max(by_source, key=lambda source: sum(by_source[source][:3]))
        out: list[ScoredSentence] = []
        for x in both:
            if x.passage.hit.source == home and self._adds(x, out):
                out.append(x)
        return out

    def _extra(
        self, scored: Sequence[ScoredSentence], best: ScoredSentence, *, relative: bool = True
    ) -> list[ScoredSentence]:
        """Close runners-up from the best sentence's document: they often hold the detail the
        best one leaves out, and citing one document keeps the answer precise. Without
        `relative`, any runner-up above the threshold is close enough."""
        floor = self.options.threshold
        if relative:
            floor = max(floor, self.options.relative_floor * best.score)
        out: list[ScoredSentence] = []
        for cand in scored:
            if cand.score < floor or 1 + len(out) >= self.options.max_sentences:
                break
            if _ANAPHOR.match(cand.text):
                continue  # out of its context, "This was the default …" misleads
            same_doc = cand.passage.hit.source == best.passage.hit.source
            if same_doc and self._adds(cand, [best, *out]):
                out.append(cand)
        return out


def _compose(
    picks: Sequence[ScoredSentence], split: dict[int, list[str]], best: float
) -> ExtractiveResult:
    """Passages in order of their best pick; sentences in reading order within a passage."""
    chosen: dict[int, dict[int, str]] = {}
    used: dict[int, Passage] = {}
    for pick in picks:
        sentences = split[pick.passage.n]
        idx = set(range(pick.index, lead_in_end(sentences, pick.index)))
        if _ANAPHOR.match(pick.text) and pick.index > 0:
            idx.add(pick.index - 1)
        chosen.setdefault(pick.passage.n, {}).update({i: sentences[i] for i in idx})
        used[pick.passage.n] = pick.passage
    for n, by in chosen.items():
        first = min(by)
        by[first] = with_subject(by[first], used[n].hit.section)
    parts = [join_marked([by[i] for i in sorted(by)], n) for n, by in chosen.items()]
    return ExtractiveResult(
        text=" ".join(parts),
        used_passages=tuple(used.values()),
        support=tuple(p.score for p in picks),
        abstained=False,
        best_score=best,
    )


def _abstain(reason: str, best: float = 0.0) -> ExtractiveResult:
    return ExtractiveResult(NOT_FOUND, (), (), True, reason, best)
