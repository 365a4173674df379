"""Names written with capitals: multi-word proper names ("Filesystem Hierarchy Standard"),
product names ("PostgreSQL", "Windows 10"), acronyms, and an acronym with its expansion as one
entity ("Foo Bar Baz (FBB)").

Capitals lie: a sentence's first word, a heading, "The", a month, or a common word a title
capitalises are not names. A run of capitalised words counts only where its capitals are not
forced (mid-sentence, outside headings), or where the document writes it the same way
mid-sentence elsewhere; a lone word counts only if the document never writes it in lower case.
"""

from __future__ import annotations

import re

from citewise.graph.model import EntityKind, entity_key
from citewise.graph.rules.tokens import (
    COMMON_CAPITALISED,
    CONNECTORS,
    MONTHS_AND_DAYS,
    VENUE_WORDS,
    Mention,
    Sentence,
    Token,
    WordEvidence,
    gap_is_blank,
    is_shouting,
    is_stop_acronym,
    looks_random,
    singular_acronym,
    word_shape,
)
from citewise.text.english import is_english
from citewise.text.words import STOPWORDS

_TRIMMED = CONNECTORS | {"on"}
_DESCRIBED = re.compile(r"\b(?:a|an)\s+$", re.I)
_COMPANY_WORDS = frozenset(
    ["Corporation", "Corp", "Company", "Limited", "LLC", "Partnership", "Trust"]
)
# a noun after capitals that says they name a thing: "the CREATE PUBLICATION command"
_NAMED_AFTER = re.compile(r"\s+(?:command|statement|clause|keyword|option|variable|flag)s?\b")
MAX_NAME_WORDS = 6
# words that open a run without being part of the name: an article, a table's yes/no column
_TABLE_WORDS = frozenset(["Yes", "No", "Number", "Total", "Avg", "Average"])
_JOINING = frozenset(["Between", "By", "And", "To", "From", "With", "For", "In", "Of", "Each"])
_NOT_OPENING = (
    frozenset(["The", "A", "An", "See", "Refer", "This", "That"]) | _TABLE_WORDS | _JOINING
)
_NOT_CLOSING = frozenset(["Figure", "Fig", "Table", "Gbps", "Mbps", "No"]) | _JOINING
# amounts written out in a contract ("Two Thousand Dollars") are values, not names
_AMOUNT_WORDS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "fifteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "hundred",
        "thousand",
        "million",
        "billion",
        "dollars",
        "cents",
        "percent",
    ]
)
# a company's suffix or a letter's abbreviation standing alone ("Acme, Inc.", "Attn:")
# a document's parts named alone ("the Schedule", "any Appendices") say which part, not what
_PARTS = {"Schedule", "Exhibit", "Appendix", "Appendices", "Agreement", "Article", "Annex"}
_NOT_ALONE = (
    {"KBytes", "MBytes", "GBytes", "TBytes", "Kbps", "Mbps"}
    | _PARTS
    | frozenset(
        [
            "Inc",
            "Ltd",
            "LLC",
            "LLP",
            "Corp",
            "Co",
            "Plc",
            "GmbH",
            "Attn",
            "Re",
            "Cc",
            "Esq",
            "Jr",
            "Sr",
        ]
    )
)
_VERSION = re.compile(r"^\d+(?:\.\d+)*[a-z]?$")


def find_names(
    sentence: Sentence, evidence: WordEvidence, runs: list[list[Token]] | None = None
) -> list[Mention]:
    """`runs`: the sentence's `capitalised_runs`, when the caller has them already."""
    if sentence.heading_like:
        return []
    found: list[Mention] = []
    for run in capitalised_runs(sentence) if runs is None else runs:
        mention = _name_of(run, sentence, evidence)
        if mention:
            found.append(mention)
    return found


def inside_phrases(sentence: Sentence, runs: list[list[Token]] | None = None) -> set[str]:
    """Keys of the multi-word capitalised runs a sentence writes where no capital is forced."""
    if sentence.heading_like:
        return set()
    return {
        entity_key(sentence.text[run[0].start : run[-1].end])
        for run in (capitalised_runs(sentence) if runs is None else runs)
        if len(run) > 1 and not run[0].opens
    }


def find_acronyms(sentence: Sentence, evidence: WordEvidence | None = None) -> list[Mention]:
    """Acronyms standing alone ("TCP"), and runs of them ("CREATE INDEX") as one name."""
    tokens = sentence.tokens
    if sentence.heading_like and sum(t.is_allcaps for t in tokens) * 2 > len(tokens):
        return []
    if is_shouting(tokens):
        return []
    found: list[Mention] = []
    i = 0
    while i < len(tokens):
        # an acronym opens with a capital: most words are ruled out without the full test
        if not tokens[i].text[0].isupper() or not _is_acronym_token(tokens[i]):
            i += 1
            continue
        j = i + 1
        while (
            j < len(tokens)
            and _continues_command(tokens[j])
            and gap_is_blank(sentence.text, tokens[j - 1], tokens[j])
        ):
            j += 1
        name = " ".join(singular_acronym(t.text) for t in tokens[i:j])
        named = _NAMED_AFTER.match(sentence.text, tokens[j - 1].end) is not None
        if j - i == 1 and len(tokens[i].text) == 2 and evidence is not None:
            named = named or evidence.capitals[tokens[i].text] >= 2
            if not named:  # "TM", "IQ" once: a subscript or a fragment more often than a name
                i = j
                continue
        if evidence is None or named or not evidence.emphasis([t.text for t in tokens[i:j]]):
            found.append(
                Mention(entity_key(name), name, "acronym", tokens[i].start, tokens[j - 1].end)
            )
        i = j
    return found


def _continues_command(tok: Token) -> bool:
    """A capitalised word that continues a run such as "CREATE PUBLICATION": longer words are
    allowed after the first."""
    return (
        tok.is_allcaps
        and not tok.is_compound
        and len(tok.text) <= 16
        and tok.text.isalpha()
        and not is_stop_acronym(tok.text)
    )


def _is_acronym_token(tok: Token) -> bool:
    text = singular_acronym(tok.text)
    return (
        tok.is_allcaps
        and not tok.is_compound
        and 2 <= len(text) <= 8
        and text.replace("&", "").isalnum()
        and not is_stop_acronym(text)
    )


def capitalised_runs(sentence: Sentence) -> list[list[Token]]:
    """Runs of capitalised words (with joiners such as "of" inside), each trimmed."""
    tokens = sentence.tokens
    text = sentence.text
    runs: list[list[Token]] = []
    run: list[Token] = []
    for i, tok in enumerate(tokens):
        joins = run and gap_is_blank(text, run[-1], tok)
        shape = word_shape(tok.text)
        before_title = shape.allcaps and _before_title(text, tokens, i)
        if (
            (shape.title or shape.camel or before_title)
            and not (shape.allcaps and not run and not before_title)
            and not shape.compound
            and not shape.identifier
        ):
            if not joins:
                runs.append(run)
                run = []
            run.append(tok)
        elif joins and (
            tok.text.lower() in CONNECTORS
            or (tok.text == "on" and run[-1].text.lower() in VENUE_WORDS)
        ):
            run.append(tok)
        else:
            runs.append(run)
            run = []
    runs.append(run)
    return [_trim(r) for r in runs if r]


def _before_title(text: str, tokens: tuple[Token, ...], i: int) -> bool:
    """An acronym that opens a longer name: "GNU Project", "GNU General Public License"."""
    # tokens come in order without overlapping: the next one is the first word after this one
    return (
        i + 1 < len(tokens)
        and tokens[i + 1].is_title
        and gap_is_blank(text, tokens[i], tokens[i + 1])
        and not is_stop_acronym(tokens[i].text)
    )


def _trim(run: list[Token]) -> list[Token]:
    """Without joiners, months or days at either end."""
    while run and (run[-1].text.lower() in _TRIMMED or run[-1].text.lower() in MONTHS_AND_DAYS):
        run = run[:-1]
    while run and (run[0].text.lower() in _TRIMMED or run[0].text.lower() in MONTHS_AND_DAYS):
        run = run[1:]
    return run


def _name_of(run: list[Token], sentence: Sentence, evidence: WordEvidence) -> Mention | None:
    # a forced capital on a common word ("Install", "However", "The") is not part of the name
    forced_off = False
    while run and run[0].opens and not run[0].is_camel and _forced(run, evidence):
        # what is left stood at the sentence's start too ("Shell Company Status"), unless an
        # article parts them ("Connect the Relay Board")
        forced_off = len(run) > 1 and run[1].text.lower() not in CONNECTORS
        run = _trim(run[1:])
    opened = bool(run) and (forced_off or (run[0].opens and run[0].text in _TABLE_WORDS))
    while run and run[0].text in _NOT_OPENING:
        run = _trim(run[1:])
    while run and (run[-1].text in _NOT_CLOSING or run[-1].text.lower() in COMMON_CAPITALISED):
        run = _trim(run[:-1])
    if not run:
        return None
    text = sentence.text
    if text[run[0].start - 1 : run[0].start] == "/" or text[run[-1].end : run[-1].end + 1] == "/":
        return None  # a part of a path or a menu's place: "Applications/File Management"
    if _DESCRIBED.search(text, 0, run[0].start) and run[-1].text in _COMPANY_WORDS:
        return None  # "a Delaware Corporation": what a party is, not its name
    name = text[run[0].start : run[-1].end]
    after = sentence.text[run[-1].end :].split(maxsplit=1)
    versioned = bool(after) and bool(_VERSION.match(after[0].rstrip(".,;:)")))
    kind: EntityKind = "product" if versioned else "name"
    capitals = [t for t in run if t.text.lower() not in _TRIMMED]
    if any(looks_random(t.text) or _joined(t.text) for t in capitals) or _table_row(capitals):
        return None
    if all(t.text.lower() in _AMOUNT_WORDS for t in capitals):
        return None
    if len(capitals) == 1:
        tok = capitals[0]
        if tok.text in _NOT_ALONE or tok.text in evidence.roles:
            return None
        proper = tok.is_camel or (
            len(tok.text) >= 3
            and not evidence.is_common(tok.text)
            and evidence.capitalised_inside[tok.text] >= _inside_needed(tok.text)
            and not (is_english(tok.text) and _ends_a_phrase(tok.text, evidence))
        )
        return Mention(entity_key(name), name, kind, run[0].start, run[-1].end) if proper else None
    forced = (opened or run[0].opens) and entity_key(name) not in evidence.phrases
    if forced and all(
        (evidence.is_common(t.text) or is_english(t.text)) and not (t.is_allcaps or t.is_camel)
        for t in capitals
    ):
        return None  # "Getting Started", "Disclaimer of Warranty": common words, capital forced
    return Mention(entity_key(name), name, kind, run[0].start, run[-1].end)


_CAMEL_SPLIT = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _joined(word: str) -> bool:
    """Two words a PDF ran together, not a camelCase name: "beFramework", "chunkC", "indexTo"
    (a stopword or a lone letter on either side of the seam)."""
    if re.fullmatch(r"[A-Z]{2,}[a-z]", word) or re.search(r"[a-z][A-Z]$", word):
        return True  # "RAMi", "HistT": a capital's subscript or a letter run on
    if word.lower().startswith(("non-", "pre-", "post-", "anti-", "multi-")):
        return True  # "non-MapReduce": an adjective made from a name
    if not word[0].islower():
        return False
    head = _CAMEL_SPLIT.split(word, maxsplit=1)[0]
    tail = word[len(head) :]
    return head in STOPWORDS or len(tail) == 1 or tail.lower() in STOPWORDS


def _ends_a_phrase(word: str, evidence: WordEvidence) -> bool:
    """A lone word that ends a longer name of the document ("License" of "General Public
    License"): a short way to say that name, not a name of its own."""
    low = word.lower()
    return any(p.endswith(f" {low}") for p in evidence.phrases)


def _table_row(capitals: list[Token]) -> bool:
    """A table's header or row read as one run: more than five capitalised words, or a word
    twice ("Framework Rigid Framework Constant")."""
    words = [t.text for t in capitals]
    return len(words) > MAX_NAME_WORDS or len(set(words)) < len(words)


def _inside_needed(word: str) -> int:
    """How often a lone word must be capitalised mid-sentence to be a name: once for a word
    outside everyday English ("Debian"), twice for one inside ("Google"); never for an adverb
    or participle ("Additionally", "Accepted"), whose capital a heading or list item forces."""
    if not is_english(word):
        return 1
    plural = word.endswith("s") and is_english(word[:-1])
    return 1_000_000 if plural or word.lower().endswith(("ly", "ed", "ing")) else 3


def _forced(run: list[Token], evidence: WordEvidence) -> bool:
    """Whether the run's first word is capitalised only because it opens the sentence: a
    common word, or a word followed by "the" ("Ask the Helpdesk Team")."""
    return evidence.is_common(run[0].text) or (len(run) > 1 and run[1].text == "the")
