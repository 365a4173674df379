"""What a document says about itself: the names it is about, the years of the period it
covers and its kind, read at ingest from its title, file name and first page
(`ingest.document_fields`) and matched against a question's names and years
(`retrieve.named_documents`)."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DocumentFields:
    names: tuple[str, ...] = ()  # lower-cased words of its title and file name ("3m", "amcor")
    cover_names: tuple[str, ...] = ()  # capitalised words on its first page ("delaware")
    years: tuple[int, ...] = ()  # the years of the period covered ("fiscal year ended … 2018")
    kinds: tuple[str, ...] = ()  # "annual", "quarterly", a form such as "10-k"
    versions: tuple[str, ...] = ()  # product versions named in its title or file name ("3.11")
    # the document's own terms for the names it is about: (name, term) pairs such as
    # ("Acme Widgets, Inc.", "Distributor"), ("European Medicines Agency", "EMA")
    aliases: tuple[tuple[str, str], ...] = ()

    def terms_for(self, words: Collection[str]) -> tuple[tuple[str, str], ...]:
        """(word, term) pairs: the terms the document uses for the names that `words` (a
        question's lower-cased name words) spell out, at least half of each name's telling
        words ("Western Traction" the name "Western Traction Company": "Distributor"; not
        "Amazon" alone the name "Amazon Web Services")."""
        out: list[tuple[str, str]] = []
        for name, term in self.aliases:
            telling = [w for w in _words(name) if w not in _FORMS]
            covered = [w for w in telling if w in words]
            if telling and 2 * len(covered) >= len(telling):
                out += [(w, term) for w in covered]
        return tuple(dict.fromkeys(out))

    def to_json(self) -> str:
        return json.dumps(
            {"names": self.names, "cover_names": self.cover_names, "years": self.years,
             "kinds": self.kinds, "versions": self.versions,
             "aliases": [list(a) for a in self.aliases]},
            separators=(",", ":"),
        )  # fmt: skip

    @classmethod
    def from_json(cls, text: str) -> DocumentFields:
        raw = json.loads(text)
        return cls(
            names=tuple(str(n) for n in raw.get("names", ())),
            cover_names=tuple(str(n) for n in raw.get("cover_names", ())),
            years=tuple(int(y) for y in raw.get("years", ())),
            kinds=tuple(str(k) for k in raw.get("kinds", ())),
            versions=tuple(str(v) for v in raw.get("versions", ())),
            aliases=tuple((str(a[0]), str(a[1])) for a in raw.get("aliases", ()) if len(a) == 2),
        )


def _words(name: str) -> list[str]:
    """The name's lower-cased words in order, each once, initials left out."""
    words = (w.strip(".,'’&-") for w in name.lower().split())
    return list(dict.fromkeys(w for w in words if len(w) > 1))


# company forms and joining words: no name is told apart by them
_FORMS = frozenset(
    [
        "inc",
        "corp",
        "corporation",
        "co",
        "company",
        "ltd",
        "limited",
        "llc",
        "plc",
        "gmbh",
        "ag",
        "lp",
        "llp",
        "sa",
        "nv",
        "bv",
        "group",
        "holdings",
        "of",
        "the",
        "and",
        "for",
    ]
)
