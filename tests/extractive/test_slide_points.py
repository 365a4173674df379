"""A slide titled with what is asked answers with its points from the top; a bullet that
is a list's item is neither a table row nor a pointer's answer."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.bullets import titled
from citewise.extractive.candidates import CandidateSentence, embedded_text
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.options import ExtractiveOptions
from citewise.extractive.prose_candidates import prose_candidates
from citewise.extractive.slide_points import item_body, slide_titles, titled_points
from citewise.extractive.units import is_prose, points_away
from citewise.question.analysis import analyse

SECTION = "OWASP Top 10 – 2010 > A5 – Avoiding CSRF Flaws"
BULLETS = [
    "- Add a secret, not automatically submitted, token to ALL sensitive requests",
    "- Tokens should be cryptographically strong or random",
    "- Eliminate Flaw",
    "- (unless there’s an XSS hole in your application)",
    "- for more details",
]
SLIDE = passage(1, "\n".join(BULLETS), source="talk.pptx", section=SECTION)
TITLE = "A5 – Avoiding CSRF Flaws"


def _scored(index: int, cosine: float, n: int = 1) -> ScoredSentence:
    p = SLIDE if n == 1 else passage(n, "The token is random.", section="Guide > Tokens")
    return ScoredSentence(p, index, BULLETS[index], frozenset(), cosine, 0.0, cosine)


def test_a_bullet_is_embedded_after_its_slides_title() -> None:
    c = CandidateSentence(SLIDE, 0, BULLETS[0], 1.0, frozenset())
    assert embedded_text(c, anaphor_heading=False) == (
        f"{TITLE}: Add a secret, not automatically submitted, token to ALL sensitive requests"
    )
    prose = CandidateSentence(
        passage(1, "Tokens are random."), 0, "Tokens are random.", 1.0, frozenset()
    )
    assert embedded_text(prose, anaphor_heading=False) == "Tokens are random."


def test_the_slides_points_answer_when_its_title_matches_as_well_as_the_best_bullet() -> None:
    scored = [
        _scored(4, 0.67),
        _scored(3, 0.66),
        _scored(1, 0.58),
        _scored(2, 0.6),
        _scored(0, 0.56),
    ]
    points = titled_points(scored[0], scored, {1: 0.68}, 2)
    # read from the top; the sub-heading "Eliminate Flaw" says nothing of its own
    assert points is not None and [x.index for x in points] == [0, 1]
    assert titled_points(scored[0], scored, {1: 0.5}, 2) is None  # the bullet says more
    assert titled_points(scored[0], scored, {}, 2) is None  # no title was embedded


def test_only_a_passages_items_under_a_short_title_count() -> None:
    assert item_body(BULLETS[1], TITLE) == "Tokens should be cryptographically strong or random"
    assert item_body(f"{TITLE}: Form Token: /accounts?auth=6879", TITLE) == (
        "Form Token: /accounts?auth=6879"
    )
    assert item_body("The token is random.", TITLE) is None
    assert item_body(BULLETS[1], "") is None
    c = CandidateSentence(SLIDE, 1, BULLETS[1], 1.0, frozenset())
    assert slide_titles([c]) == {1: TITLE}


def test_a_long_bullet_without_a_verb_is_a_candidate_not_a_table_row() -> None:
    cands, _ = prose_candidates(ExtractiveOptions(), analyse("How do you avoid CSRF?"), [SLIDE],
                                {1: BULLETS})  # fmt: skip
    assert BULLETS[0] in [c.text for c in cands]
    row = "Column Type Description specific_name sql_identifier the name of the routine"
    table = passage(1, row, section="Routines")
    cands, _ = prose_candidates(ExtractiveOptions(), analyse("What is a routine?"), [table],
                                {1: [row]})  # fmt: skip
    assert not cands


def test_a_bullet_pointing_elsewhere_is_no_answer() -> None:
    pointer = "- See the new: www.owasp.org/index.php/CSRF_Prevention_Cheat_Sheet"
    assert points_away(pointer) and not is_prose(pointer, 4)
    assert titled(pointer, SECTION) is None
    assert not points_away(BULLETS[0])
