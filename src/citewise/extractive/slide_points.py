"""A slide whose title is what is asked answers with its points (pure).

"How do you avoid CSRF flaws?" meets a slide titled "A5 – Avoiding CSRF Flaws" whose bullets
never say CSRF: each bullet matches the question only through its title, so which bullet
matches best is noise ("- for more details", an aside in brackets), while the slide itself,
read from the top, is the answer. When the best candidate is such an item and its title alone
matches the question at least as well as the item read after it, the answer is the slide's
first points in reading order; a sub-heading among them ("Eliminate Flaw") is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from citewise.extractive.candidates import ITEM, CandidateSentence, slide_title
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.scoring import is_title


def item_body(text: str, title: str) -> str | None:
    """What candidate `text` says as an item under `title` — a bullet's text without its
    mark, a titled line's ("Title: body") without its title — or None when it is not one."""
    if not title:
        return None
    if ITEM.match(text):
        return ITEM.sub("", text).strip()
    if text.startswith(f"{title}: "):
        return text[len(title) + 2 :].strip()
    return None


def titled_points(
    best: ScoredSentence,
    scored: Sequence[ScoredSentence],
    title_cosines: Mapping[int, float],
    count: int,
) -> list[ScoredSentence] | None:
    """The first `count` points of `best`'s slide in reading order, when `best` is an item
    whose title (`title_cosines`: each passage's title's cosine to the question) matches
    the question at least as well as the item does; else None."""
    title = slide_title(best.passage.hit.section)
    title_cosine = title_cosines.get(best.passage.n)
    if title_cosine is None or item_body(best.text, title) is None:
        return None
    if title_cosine < best.cosine:
        return None  # the item says something of its own that is asked
    mine = sorted(
        (x for x in scored if x.passage.n == best.passage.n),
        key=lambda x: x.index,
    )
    points = [
        x for x in mine if (body := item_body(x.text, title)) is not None and not is_title(body)
    ]
    return points[:count] or None


def slide_titles(cands: Sequence[CandidateSentence]) -> dict[int, str]:
    """By passage n, the title of each passage that has an item among `cands`."""
    out: dict[int, str] = {}
    for c in cands:
        title = slide_title(c.passage.hit.section)
        if title and item_body(c.text, title) is not None:
            out.setdefault(c.passage.n, title)
    return out
