"""The sentences of the passages that may answer: prose (or a bullet, a cell or a label with
its title), not a framing block the question does not ask about, not code it cannot see,
capped to those with the most question words."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.extractive.bullets import ask_stems, is_short_line, labelled_unit, titled_unit
from citewise.extractive.candidates import (
    ITEM,
    CandidateSentence,
    lexical,
    read_on,
    stems_of,
    term_weights,
)
from citewise.extractive.entry_headings import entry_openings
from citewise.extractive.options import ExtractiveOptions
from citewise.extractive.scoring import is_table_row, is_title
from citewise.extractive.sentence_fit import names_row, speaks_of_unseen_code
from citewise.extractive.units import is_caption, is_prose, lead_in_end, said_before
from citewise.question.analysis import Analysis
from citewise.text.blocks import Aside, aside_kind, asks_about, stored_aside
from citewise.types import Passage

CONTINUATION = 3  # sentences after an already-said one that continue it
SHORT_OPENING_WORDS = 2  # an entry's opening may be this short ("Kills the child.")


def framing_only(question: str, text: str, section: str) -> bool:
    """Whether `text` (a passage or one of its sentences) is a framing block — a preamble, a
    signature block, recitals — that `question` does not ask about: the parties' names in the
    question match it best, while the clause that answers uses their roles."""
    return aside_only(question, aside_kind(text, section))


def aside_only(question: str, kind: Aside | None) -> bool:
    """Whether a block of `kind` (None: none) is set aside for `question`."""
    return kind is not None and kind != "furniture" and not asks_about(question, kind)


def prose_candidates(
    options: ExtractiveOptions,
    a: Analysis,
    passages: Sequence[Passage],
    split: dict[int, list[str]],
) -> tuple[list[CandidateSentence], bool]:
    """Prose sentences, capped to the `max_candidates` with the most question words, and
    whether they read on from what was already said ("tell me more", see `read_on`)."""
    question = a.question
    rows: list[CandidateSentence] = []
    said_in: dict[int, str] = {}  # passages holding an already-said sentence: source
    said = options.already_said
    exclude = bool(said) and options.said_mode == "exclude"
    min_words = options.min_words
    captions = "example" in question.lower()
    openings = entry_openings(a.subject, passages) if options.rules.entry_headings else set()
    asked = ask_stems(question)
    for rank, p in enumerate(passages):
        bonus = 1.0 - rank / len(passages)
        sentences = split[p.n]
        if aside_only(question, stored_aside(p.hit.label, p.hit.text, p.hit.section)):
            continue  # a preamble or signature block answers only about itself
        last_said = -CONTINUATION - 1
        for i, s in enumerate(sentences):
            dropped = exclude and said_before(s, said)
            if dropped:
                last_said = i
                said_in[p.n] = p.hit.source
            unit = " ".join(sentences[i : lead_in_end(sentences, i)])
            shortest = SHORT_OPENING_WORDS if (p.n, i) in openings else min_words
            prose = is_prose(s, shortest) or (unit != s and is_prose(unit, min_words))
            prose = prose and (captions or not is_caption(s))
            prose = prose and not speaks_of_unseen_code(sentences, i)
            # a slide's bullet without a verb ("- Add a secret token to ALL requests") is a
            # line of its own, not a flattened table row; a short one reads with its title
            row = is_table_row(s) and not (
                ITEM.match(s) and " | " not in s and not is_short_line(s)
            )
            prose = prose and (not row or names_row(question, s))
            prose = prose and not is_title(s)
            prose = prose and not framing_only(question, s, p.hit.section)
            if not prose and not dropped:
                # a bullet or a cell with its title ("Election timeout: 150–300 ms"), a
                # label with its value ("Formula: (Max Incidence Rate % * 1000) + …")
                framed = (
                    titled_unit(unit, p.hit.section, asked, min_words)
                    if is_short_line(unit)
                    else labelled_unit(unit, asked, min_words)
                )
                prose, unit = (True, framed) if framed else (False, unit)
            if prose and not dropped:
                follows = i - last_said <= CONTINUATION
                stems = frozenset(stems_of(unit))
                rows.append(CandidateSentence(p, i, unit, bonus, stems, follows))
    rows, reading_on = read_on(rows, said_in)
    if len(rows) <= options.max_candidates:
        return rows, reading_on
    weights = term_weights(question, rows)
    order = sorted(
        range(len(rows)),
        key=lambda k: lexical(weights, rows[k]) + 0.2 * rows[k].rank_bonus,
        reverse=True,
    )
    return [rows[k] for k in sorted(order[: options.max_candidates])], reading_on
