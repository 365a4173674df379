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

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from citewise.embed.base import Embedder
from citewise.extractive.candidates import (
    CandidateSentence,
    embedded_text,
)
from citewise.extractive.clauses import Clauses, by_key, candidate_clauses
from citewise.extractive.compose import (
    ExtractiveResult,
    ScoredSentence,
    abstain,
    compose,
)
from citewise.extractive.entry_headings import (
    Framing,
    framed_by_subject,
    framed_text,
)
from citewise.extractive.late_interaction import centred_scores
from citewise.extractive.options import (
    MISSING_NAME_PENALTY,
    ExtractiveOptions,
)
from citewise.extractive.outcome import (
    closest_passage,
    features_of,
    shows_passage,
    unsure,
)
from citewise.extractive.parts import PartPicks
from citewise.extractive.placeholders import blanked
from citewise.extractive.prose_candidates import prose_candidates
from citewise.extractive.runners_up import adds, runners_up
from citewise.extractive.scoring import type_fit
from citewise.extractive.sentence_fit import (
    MUST_STATE,
    anchored,
    answering_neighbour,
    asked_focus,
    stating_neighbour,
    unseen_words,
)
from citewise.extractive.sentence_scores import score_sentences
from citewise.extractive.slide_points import slide_titles, titled_points
from citewise.extractive.terse import in_context as terse_in_context
from citewise.extractive.terse import names_before
from citewise.extractive.units import is_header_line, is_page_line
from citewise.extractive.window import centre as window_centre
from citewise.extractive.window import readable, unit_of
from citewise.question.analysis import Analysis, analyse
from citewise.question.terms import clauses, mentions, stating_what_is_asked
from citewise.rules.option_items import prefer_option_items, same_option_item
from citewise.rules.places import prefer_places
from citewise.text.sentences import split_labelled
from citewise.types import Passage
from citewise.types.vectors import Vectors


def _sentences(text: str, question: str = "") -> tuple[list[str], list[str]]:
    """A passage's sentences without and with options' names (`split_labelled`), its page
    numbers left out (a "Page 1" between a lead-in and its items would stand for them), and
    a message's header line unless the question asks about it (`units.is_header_line`)."""
    plain, labelled = split_labelled(text)
    keep = [
        i for i, s in enumerate(plain) if not is_page_line(s) and not is_header_line(s, question)
    ]
    return [plain[i] for i in keep], [labelled[i] for i in keep]


class ExtractiveAnswerer(PartPicks):
    def __init__(
        self,
        embedder: Embedder,
        options: ExtractiveOptions | None = None,
        embed_query: Callable[[str], Vectors] | None = None,
        analyse_part: Callable[[str], Analysis] | None = None,
    ) -> None:
        self.embedder = embedder
        # `embed_query`, `analyse_part`: the question object's, which embed and analyse each
        # part and facet once
        self.embed_query = embed_query or embedder.embed_query
        self.analyse_part = analyse_part or analyse
        self.options = options or ExtractiveOptions()
        # the question's token-level evidence, by (passage n, sentence index)
        self._late: tuple[str, dict[tuple[int, int], float]] = ("", {})
        # the embedded clauses of candidates joining several, by (passage n, sentence index)
        self._clauses: dict[tuple[int, int], Clauses] = {}
        # the cosine of each passage's slide title to the question, by passage n
        self._titles: dict[int, float] = {}

    def answer(
        self,
        question: str,
        passages: Sequence[Passage],
        question_vector: Vectors | None = None,
        *,
        analysis: Analysis | None = None,
    ) -> ExtractiveResult:
        """The answer to `question` from `passages`; `question_vector` and `analysis`: the
        question's embedding and `analyse(question)`, when the caller has them."""
        opts = self.options
        if not passages:
            return abstain("no passages")
        a = (
            analysis
            if analysis is not None and analysis.question == question
            else analyse(question)
        )
        required = a.required(code_names=opts.rules.code_names)
        missing = [t for t in required if not any(mentions(p, t) for p in passages)]
        if missing:
            return abstain(f"no passage mentions {', '.join(missing)}")
        plain: dict[int, list[str]] = {}
        split: dict[int, list[str]] = {}  # with options' names (`split_labelled`)
        for p in passages:
            plain[p.n], split[p.n] = _sentences(p.context, question)
        cands, reading_on = prose_candidates(self.options, a, passages, split)
        if not cands:
            return abstain("no usable sentence")
        self._late = centred_scores(
            opts.late_interaction, opts.late_weight, self.embedder, a.question, cands, split
        )
        # the question's own subject frames a few candidates: embedded in the same batch
        subject = a.subject
        entries = opts.rules.entry_headings
        framed = framed_by_subject(subject, cands) if subject and entries else {}
        texts = [embedded_text(c, opts.anaphor_heading) for c in cands]
        texts += [framed_text(cands[i], h) for i, h in framed.items()]
        parts = candidate_clauses(cands, split) if opts.clause_share else {}
        clause_texts = [t for found in parts.values() for t in found]
        titles = slide_titles(cands)  # a slide's title, for its items read after it
        batch = self.embedder.embed_documents(
            [t[: opts.max_embed_chars] for t in [*texts, *clause_texts, *titles.values()]]
        )
        vectors = batch[: len(cands)]
        end = len(cands) + len(framed)
        framing = Framing(framed, dict(zip(framed, batch[len(cands) : end], strict=True)))
        clauses_end = end + len(clause_texts)
        self._clauses = by_key(parts, batch[end:clauses_end])
        qv = question_vector if question_vector is not None else self.embed_query(question)
        title_vectors = batch[clauses_end:]
        self._titles = {n: float(v @ qv) for n, v in zip(titles, title_vectors, strict=True)}
        first = self._decide(a, passages, cands, split, plain, vectors, qv, framing,
                             reading_on)  # fmt: skip
        first = self._outcome(first, a, passages, cands, split, vectors, qv, framing)
        if first.abstained or first.kind == "passage" or not opts.terse_context_share:
            return blanked(
                unsure(
                    first, a, self.embedder.name,
                    doubt=opts.doubt_answers and not opts.already_said,
                ),
                a,
            )  # fmt: skip
        # terse sentences read in context may change which sentences answer, never whether
        read = terse_in_context(
            cands, split, vectors, qv, self.embedder, share=opts.terse_context_share,
            max_words=opts.terse_words, max_chars=opts.max_embed_chars,
        )  # fmt: skip
        second = self._decide(a, passages, cands, split, plain, read, qv, framing,
                              reading_on, in_context=True)  # fmt: skip
        chosen = first if second.abstained else replace(second, evidence=first.evidence)
        doubt = opts.doubt_answers and not opts.already_said
        return blanked(unsure(chosen, a, self.embedder.name, doubt=doubt), a)

    def _outcome(
        self,
        result: ExtractiveResult,
        a: Analysis,
        passages: Sequence[Passage],
        cands: Sequence[CandidateSentence],
        split: dict[int, list[str]],
        vectors: Vectors,
        qv: Vectors,
        framing: Framing,
    ) -> ExtractiveResult:
        """`result` with its outcome evidence; an abstention becomes the closest passage when
        that evidence says the documents talk about the question (`outcome.shows_passage`)."""
        scored = self._score(a, cands, vectors, qv, framing)
        features = features_of(a, passages, scored)
        result = replace(result, evidence=features.items())
        # "tell me more" that finds nothing new says so rather than repeating a passage;
        # "simplify that" may show the passage again (said_mode "prefer")
        more = bool(self.options.already_said) and self.options.said_mode == "exclude"
        if not result.abstained or more or not scored:
            return result
        if not shows_passage(features, self.embedder.name):
            return result
        first = passages[0] if self.options.passage_from_first else None
        centred = first and self._centre(a, first, split[first.n], scored, qv)
        passage = closest_passage([centred] if centred else scored, split, result.best_score)
        return replace(
            passage, evidence=result.evidence, reason=f"closest passage: {result.reason}"
        )

    def _centre(
        self,
        a: Analysis,
        passage: Passage,
        sentences: Sequence[str],
        scored: Sequence[ScoredSentence],
        qv: Vectors,
    ) -> ScoredSentence | None:
        """The sentence of `passage` the closest passage's window is centred on
        (`window.centre`); its sentences that were not candidates are embedded now."""
        known = {x.index: x.cosine for x in scored if x.passage.n == passage.n}
        rest = [i for i in readable(sentences) if i not in known]
        if rest:
            limit = self.options.max_embed_chars
            texts = [unit_of(sentences, i)[:limit] for i in rest]
            cos = np.asarray(self.embedder.embed_documents(texts) @ qv, dtype=np.float64)
            known.update(zip(rest, cos.tolist(), strict=True))
        return window_centre(a, passage, sentences, known, scored)

    def _decide(
        self,
        a: Analysis,
        passages: Sequence[Passage],
        cands: Sequence[CandidateSentence],
        split: dict[int, list[str]],
        plain: dict[int, list[str]],
        vectors: Vectors,
        qv: Vectors,
        framing: Framing,
        reading_on: bool,
        *,
        in_context: bool = False,
    ) -> ExtractiveResult:
        """The answer from candidates scored with `vectors`, or the abstention and its reason;
        `in_context`: terse candidates were read after what they lean on."""
        opts = self.options
        question, subject = a.question, a.subject
        scored = self._score(a, cands, vectors, qv, framing)
        penalty = MISSING_NAME_PENALTY * sum(
            1
            for name in a.names
            if name not in opts.document_names and not any(mentions(p, name) for p in passages)
        )
        penalty += opts.unseen_word_penalty * len(unseen_words(question, passages))
        head = asked_focus(a)
        fits = [
            x
            for x in scored
            if head is None
            or head in x.stems
            or (in_context and names_before(x, split, head, opts.terse_words))
        ]
        fits = stating_what_is_asked(question, fits, focused=head is not None)
        floor = opts.content_share * opts.threshold

        def evidence_of(x: ScoredSentence) -> float:
            return x.score - x.prior - penalty  # what it says and where, not its document

        def answers(x: ScoredSentence) -> bool:  # clears both abstention thresholds
            evidence = evidence_of(x)
            return evidence >= opts.threshold and evidence - x.position >= floor

        fits = prefer_places(a.asks_place, fits, answers)
        if subject and opts.rules.option_items:
            fits = prefer_option_items(subject[-1], fits, answers)
        kind = a.answer_type
        if kind in MUST_STATE and not any(answers(x) for x in fits if type_fit(kind, x.text)):
            return abstain(f"no sentence states the {kind} asked for")
        best = fits[0] if fits else None
        if best is None:
            return abstain(f"no sentence names the {head!r} asked for")
        evidence = evidence_of(best)
        if evidence < opts.threshold:
            return abstain(f"best score {evidence:.2f} below {opts.threshold:.2f}", evidence)
        content = evidence - best.position
        if content < floor:
            return abstain(f"best sentence matches {content:.2f}, below {floor:.2f}", evidence)
        picks = [best]
        if len(a.parts) > 1:
            in_turn = scored if len(clauses(question)) > 1 else ()  # not a comparison's sides
            picks = self._contrast(question, scored) or [
                best,
                *self._facet_picks(a.parts, cands, vectors, picks, in_turn),
            ]
        else:
            # a slide titled with what is asked answers with its points, read from the top
            points = titled_points(best, scored, self._titles, opts.max_sentences)
            if points and not reading_on:
                return compose(points, split, plain, evidence, spans=opts.clause_answer)
            extra = runners_up(scored, best, opts, relative=not reading_on)
            option = subject and subject[-1].startswith("-")
            if option and opts.rules.option_items:  # an option: its own item only
                extra = [x for x in extra if same_option_item(split, best, x)]
            picks += extra
            after = stating_neighbour(a, best, scored) if opts.stated_neighbour else None
            after = after or answering_neighbour(question, best, scored)
            if after is not None and self._adds(after, picks):
                picks.insert(1, after)
        picks = picks[: opts.max_sentences]
        if opts.anchor_top and not reading_on and opts.max_sentences > 1:
            adds = [*picks]  # the picks before the anchor: it must say something new

            def anchors(x: ScoredSentence) -> bool:
                return answers(x) and self._adds(x, adds)

            picks = anchored(picks, scored, passages[0], anchors, opts.max_sentences)
        return compose(picks, split, plain, evidence, spans=opts.clause_answer)

    def _score(
        self,
        a: Analysis,
        cands: Sequence[CandidateSentence],
        vectors: Vectors,
        qv: Vectors,
        framing: Framing | None = None,
    ) -> list[ScoredSentence]:
        """Candidates scored against the question `a`; `framing`: how its subject frames them,
        if the caller embedded that already."""
        if a.subject and self.options.rules.entry_headings:
            framing = framing or self._framing(a.subject, cands)
        late = self._late[1] if self._late[0] == a.question else {}  # not a part's facets
        return score_sentences(
            a, cands, vectors, qv, self.options, framing=framing, late=late, clauses=self._clauses
        )

    def _framing(self, subject: tuple[str, ...], cands: Sequence[CandidateSentence]) -> Framing:
        """The candidates `subject` frames, embedded as "subject: sentence" (one small batch)."""
        framed = framed_by_subject(subject, cands)
        limit = self.options.max_embed_chars
        texts = [framed_text(cands[i], h)[:limit] for i, h in framed.items()]
        if not texts:
            return Framing({}, {})
        vectors = self.embedder.embed_documents(texts)
        return Framing(framed, dict(zip(framed, vectors, strict=True)))

    def _adds(self, cand: ScoredSentence, picks: Sequence[ScoredSentence]) -> bool:
        return adds(cand, picks, self.options.near_duplicate)
