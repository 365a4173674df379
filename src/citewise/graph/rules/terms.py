"""Defined terms as graph mentions: '"X" means …', 'the term "X"', and 'Foo Bar Corporation
(the "Vendor")' — the defined name, with its short form as an alias. Read by the one alias
extractor (`citewise.text.aliases.definitions`), which the retriever shares."""

from __future__ import annotations

from citewise.graph.model import entity_key
from citewise.graph.rules.tokens import Mention
from citewise.text.aliases import Definition, definitions

MAX_TERM_WORDS = 6


def find_terms(text: str, found: tuple[Definition, ...] | None = None) -> list[Mention]:
    """The terms and parties `text` defines (`found`: its definitions, when the caller has
    them), each a `term` mention whose alias is the short form."""
    out: list[Mention] = []
    for d in definitions(text) if found is None else found:
        if d.kind == "abbreviation":
            continue
        if len(d.name.split()) > MAX_TERM_WORDS or " THIS " in f" {d.name.upper()} ":
            continue  # a heading run on into the opening line: "CONSULTING AGREEMENT THIS …"
        key, short = entity_key(d.name), entity_key(d.term)
        if key and short:
            aliases = (d.term,) if short != key else ()
            out.append(Mention(key, d.name, "term", d.start, d.end, aliases))
    return out


def find_abbreviations(text: str, found: tuple[Definition, ...] | None = None) -> list[Mention]:
    """ "Foo Bar Baz (FBB)" and "FBB (Foo Bar Baz)": the expansion, the abbreviation an alias."""
    return [
        Mention(entity_key(d.name), d.name, "acronym", d.start, d.end, (d.term,))
        for d in (definitions(text) if found is None else found)
        if d.kind == "abbreviation" and entity_key(d.name)
    ]
