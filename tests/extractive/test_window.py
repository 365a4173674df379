from __future__ import annotations

from answer_factories import passage
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.outcome import WINDOW_CHARS, window_of
from citewise.extractive.window import asked_terms, centre, coverage
from citewise.question.analysis import analyse
from citewise.text.sentences import split_sentences

UIDS = passage(
    1,
    "The UID and GID numbers are divided into classes as follows: "
    + " ".join(
        f"{lo}-{lo + 999}: Dynamically allocated system users and groups, sized for the "
        f"packages that need accounts on every system of the distribution {k}."
        for k, lo in enumerate(range(1000, 9000, 1000))
    )
    + " 65534: User nobody. The corresponding gid refers to the group nogroup.",
    section="Users and groups > UID and GID classes",
)


def scored(p: object, sentences: list[str], cosines: dict[int, float]) -> list[ScoredSentence]:
    return [
        ScoredSentence(p, i, sentences[i], frozenset(), c, 0.0, c, 0.0)  # type: ignore[arg-type]
        for i, c in cosines.items()
    ]


def test_window_is_centred_on_a_short_row_naming_what_is_asked() -> None:
    sentences = split_sentences(UIDS.context)
    row = sentences.index("65534: User nobody.")
    cosines = {i: 0.4 for i in range(len(sentences))}  # the embedding tells them apart little
    candidates = {i: c for i, c in cosines.items() if i != row}  # too short to be a candidate
    a = analyse("What user ID does the user nobody have?")
    chosen = centre(a, UIDS, sentences, cosines, scored(UIDS, sentences, candidates))
    assert chosen is not None
    lo, hi = window_of(sentences, chosen.index)
    assert lo <= row <= hi


def test_a_terse_fact_is_shown_with_the_sentence_that_says_what_it_is_of() -> None:
    p = passage(
        1,
        "Sets the maximum amount of memory used for temporary buffers within each session. "
        + "Filler about unrelated settings and their units goes on at length here. " * 6
        + "A session allocates temporary buffers as needed, up to the limit. "
        "The default is eight megabytes (8MB).",
        section="Resource Consumption > Memory > temp_buffers",
    )
    sentences = split_sentences(p.context)
    last = len(sentences) - 1
    cosines = {i: 0.2 for i in range(len(sentences))}
    cosines |= {0: 0.7, last - 1: 0.6, last: 0.35}
    a = analyse("How much memory can a session use for temporary buffers by default?")
    chosen = centre(a, p, sentences, cosines, scored(p, sentences, cosines))
    assert chosen is not None
    lo, hi = window_of(sentences, chosen.index)
    assert lo <= last <= hi
    assert lo > 0  # the window around the best sentence alone would miss the fact


def test_words_the_heading_says_do_not_count_toward_a_sentence() -> None:
    text = "Leases time out. A lease lasts sixty seconds."
    p = passage(1, text, section="Leases > Timeout")
    a = analyse("How long does a lease last before its timeout?")
    terms = asked_terms(a, p, split_sentences(text))
    assert "leas" not in terms and "timeout" not in terms
    assert coverage(terms, "A lease lasts sixty seconds.") > coverage(terms, "Leases time out.")


def test_the_window_grows_both_ways_within_its_size() -> None:
    sentences = [f"Sentence number {i} says a little something." for i in range(40)]
    lo, hi = window_of(sentences, 20)
    assert lo < 20 < hi
    assert len("".join(sentences[lo : hi + 1])) <= WINDOW_CHARS
    assert window_of(sentences, 0)[0] == 0
