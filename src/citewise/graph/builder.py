"""A document's graph put together sentence by sentence: its entities (names, kinds, aliases
and the chunks naming them), typed relations, concept objects, agreements and their parties,
weak co-occurrence links (kept when two sentences agree), references, and relations from its
structure (a path in its directory, the terms an agreement defines, a command's options)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from citewise.graph.model import (
    CrossReference,
    DocumentGraph,
    Entity,
    EntityKind,
    Relation,
    RelationKind,
    entity_key,
)
from citewise.graph.rules.concepts import concept_relations
from citewise.graph.rules.parties import Agreement, find_agreement, find_parties, governing_law
from citewise.graph.rules.relations import (
    CO_OCCURRENCE_WEIGHT,
    co_occurrences,
    references,
    typed_relations,
)
from citewise.graph.rules.tokens import Mention

MIN_CO_OCCURRENCES = 2
_KIND_RANK: dict[EntityKind, int] = {
    "party": -1,
    "agreement": -1,
    "term": 0,
    "code": 1,
    "configuration": 1,
    "acronym": 2,
}


@dataclass
class _EntityParts:
    names: Counter[str] = field(default_factory=Counter)
    kinds: Counter[EntityKind] = field(default_factory=Counter)
    aliases: set[str] = field(default_factory=set)
    chunks: set[int] = field(default_factory=set)
    defined_as: str = ""


@dataclass
class Builder:
    entities: dict[str, _EntityParts] = field(default_factory=lambda: defaultdict(_EntityParts))
    relations: dict[tuple[str, str, RelationKind], tuple[set[int], float]] = field(
        default_factory=dict
    )
    refs: dict[str, tuple[str, set[int]]] = field(default_factory=dict)
    agreement: str | None = None  # the first agreement the document names
    pending: list[tuple[str, RelationKind, int, Agreement | None]] = field(default_factory=list)
    defined: dict[str, int] = field(default_factory=dict)  # a term → where it is defined
    options: dict[str, int] = field(default_factory=dict)  # an option → where first named
    subject: str = ""  # the key of what the document is about (its title), if an entity

    def add(self, chunk: int, text: str, mentions: Sequence[Mention]) -> None:
        """One sentence (`text`, of chunk `chunk`) and its mentions."""
        for m in mentions:
            self._add_mention(chunk, m)
            # the sentence that defines a term (not a later use of its short form)
            if m.kind == "term" and text[m.start : m.end].startswith(m.name):
                self.defined.setdefault(m.key, chunk)
            elif m.kind == "option":
                self.options.setdefault(m.key, chunk)
        typed = typed_relations(text, mentions)
        for source, target, kind in typed:
            self._relate(source, target, kind, chunk, 1.0)
        sources = {(s, kind) for s, _, kind in typed}
        for source, concept, kind in concept_relations(text, mentions):
            if (source, kind) not in sources:
                self._add_mention(chunk, concept)
                self._relate(source, concept.key, kind, chunk, 1.0)
        linked = {frozenset((s, t)) for s, t, _ in typed}
        for a, b in co_occurrences(mentions):
            if frozenset((a, b)) not in linked:
                self._relate(a, b, "mentions_with", chunk, CO_OCCURRENCE_WEIGHT)
        for key, cited in references(text, mentions):
            self.refs.setdefault(key, (cited, set()))[1].add(chunk)

    def _add_mention(self, chunk: int, m: Mention) -> None:
        parts = self.entities[m.key]
        parts.kinds[m.kind] += 1
        parts.chunks.add(chunk)
        if m.aliases and m.kind in ("acronym", "term", "party") and m.name not in m.aliases:
            parts.defined_as = parts.defined_as or m.name
            parts.aliases.update(m.aliases)
        elif m.aliases:  # a resolved alias: the written form is the alias
            parts.aliases.update(m.aliases)
        else:
            parts.names[m.name] += 1

    def agreements(self, chunk: int, text: str) -> None:
        """party_to and governed_by: a passage naming an agreement, its parties or its law
        (a bare "This Agreement" is the document's first named one, settled in `build`)."""
        named = find_agreement(text)
        if named is not None:
            key = entity_key(named.name)
            self._add_mention(chunk, Mention(key, named.name, "agreement", named.start, named.end))
            self.agreement = self.agreement or key
        # "between A and B" names parties only where an agreement is in view (not in a paper)
        parties = named.parties if named else find_parties(text) if self.agreement else ()
        law = governing_law(text)
        for party in parties:
            self._add_mention(
                chunk,
                Mention(
                    entity_key(party.name), party.name, "party", party.start, party.end,
                    (party.role,) if party.role else (),
                ),
            )  # fmt: skip
            self.pending.append((entity_key(party.name), "party_to", chunk, named))
        if law:
            place = Mention(entity_key(law), law, "name", 0, 0)
            self._add_mention(chunk, place)
            self.pending.append((place.key, "governed_by", chunk, named))

    def _settle_agreements(self) -> None:
        for key, kind, chunk, named in self.pending:
            agreement = entity_key(named.name) if named else self.agreement
            if agreement is None or agreement == key:
                continue
            if kind == "party_to":
                self._relate(key, agreement, "party_to", chunk, 1.0)
            else:
                self._relate(agreement, key, "governed_by", chunk, 1.0)
        self.pending.clear()

    def _structure(self) -> None:
        """defines and part_of from what the document is: the agreement (or licence) defines
        the terms it defines; a manual page's options are part of its command."""
        if self.agreement is not None:
            for key, chunk in self.defined.items():
                if key != self.agreement:
                    self._relate(self.agreement, key, "defines", chunk, 1.0)
        if self.subject and self.subject in self.entities:
            for key, chunk in self.options.items():
                if key != self.subject:
                    self._relate(key, self.subject, "part_of", chunk, 1.0)

    def _hierarchy(self) -> None:
        """part_of from the document's structure: a path inside a directory it also names
        ("/etc/shadow" in "/etc"), a dotted name inside its module ("os.path" in "os")."""
        by_name = {
            _most_common(p.names): key
            for key, p in self.entities.items()
            if p.names and p.kinds.keys() & {"path", "code"}
        }
        for name, key in by_name.items():
            sep = "/" if "/" in name else "." if "." in name else ""
            if not sep:
                continue
            parent = by_name.get(name.rsplit(sep, 1)[0])
            if parent is not None and parent != key:
                chunk = min(self.entities[key].chunks)
                self._relate(key, parent, "part_of", chunk, 1.0)

    def _relate(self, a: str, b: str, kind: RelationKind, chunk: int, weight: float) -> None:
        chunks, total = self.relations.get((a, b, kind), (set(), 0.0))
        chunks.add(chunk)
        self.relations[(a, b, kind)] = (chunks, total + weight)

    def build(self) -> DocumentGraph:
        self._settle_agreements()
        self._structure()
        self._hierarchy()
        entities = tuple(
            Entity(
                key=key,
                name=parts.defined_as or _most_common(parts.names) or key,
                kind=min(parts.kinds, key=lambda k: (_KIND_RANK.get(k, 9), -parts.kinds[k])),
                aliases=tuple(sorted(parts.aliases - {parts.defined_as})),
                chunk_ids=tuple(sorted(parts.chunks)),
            )
            for key, parts in sorted(self.entities.items())
        )
        relations = tuple(
            Relation(s, t, kind, tuple(sorted(chunks)), round(weight, 4))
            for (s, t, kind), (chunks, weight) in sorted(self.relations.items())
            # two names side by side once say little: a weak link needs two sentences
            if kind != "mentions_with" or weight >= MIN_CO_OCCURRENCES * CO_OCCURRENCE_WEIGHT
        )
        refs = tuple(
            CrossReference(key, text, tuple(sorted(chunks)))
            for key, (text, chunks) in sorted(self.refs.items())
        )
        return DocumentGraph(entities, relations, refs)


def _most_common(names: Counter[str]) -> str:
    return names.most_common(1)[0][0] if names else ""
