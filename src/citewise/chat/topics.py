"""What a question is about (pure): code names, else the noun phrase it asks about, else its
key words. The rewrite of a follow-up puts it where the follow-up leans on the last turn."""

from __future__ import annotations

import re

from citewise.text.identifiers import identifiers, quoted
from citewise.text.sentences import content_words

_GENERIC_HEAD = frozenset(
    {"purpose", "difference", "default", "meaning", "use", "role", "value", "point", "kind"}
    | {"type", "advantage", "benefit", "goal", "idea", "definition", "name"}
)
_NP_STOP = (
    r"(?:in|of|for|with|on|at|by|from|to|under|when|if|that|which|and|or|used|work|works|do|does|mean"
    r"|handle|affect|compare|differ|relate|behave|get|run|return|store|support|change|decide"
    r"|interact|help|happen|need|look|fit)"
)
_AUX = r"(?:is|are|was|were|do|does|did|can|will|should|must)"
_NOUN_PHRASE = (
    re.compile(
        r"^(?:summari[sz]e|give\s+me\s+an?\s+(?:overview|summary)\s+of)\s+(?P<np>.+)$", re.I
    ),
    # "What was said about marking sqlite as a release candidate …?"
    re.compile(
        r"^what\s+(?:is|are|was|were)\s+(?:said|decided|agreed|discussed|stated|written)\s+"
        r"(?:about|on|regarding)\s+(?P<np>.+)$",
        re.I,
    ),
    re.compile(r"^(?:what|who)(?:\s+(?:is|are|was|were)|['’]s)\s+(?P<np>.+)$", re.I),
    # "What does the 2025 talk say about Injection?": what is said about, not who says it
    re.compile(
        r"^what\s+(?:does|do|did)\s+.+?\s+(?:say|said|write|state|mention)\s+about\s+(?P<np>.+)$",
        re.I,
    ),
    # "Who appoints the delegates in the Debian project?"
    re.compile(r"^who\s+(?!(?:is|are|was|were|do|does|did)\b)\w+\s+(?P<np>.+)$", re.I),
    # "What chunk size did the Google File System choose?", "What lock does it need?"
    re.compile(
        r"^(?:what|which)\s+(?!" + _AUX + r"\b)(?P<np>\w+(?:[\s-]+\w+){0,2}?)\s+" + _AUX + r"\b",
        re.I,
    ),
    # "Where does the server keep its write-ahead log?"
    re.compile(
        r"^(?:where|when|why|how)\s+"
        + _AUX
        + r"\s+(?:the\s+)?\w+\s+\w+\s+(?:its|their)\s+(?P<np>.+)$",
        re.I,
    ),
    re.compile(r"^what\s+(?:does|do|did)\s+(?P<np>.+?)\s+(?:do|mean|return|contain|say)\b", re.I),
    re.compile(
        r"^how\s+(?:do|does|can|should|would|could)\s+(?:i|you|we|one)\s+\w+\s+(?P<np>.+)$", re.I
    ),
    re.compile(r"^how\s+(?:many|much)\s+(?P<np>.+?)\s+" + _AUX + r"\b", re.I),
    re.compile(
        r"^how\s+(?:long|often|soon|far|fast|big|large|old|frequently)\s+"
        + _AUX
        + r"\s+(?P<np>.+)$",
        re.I,
    ),
    re.compile(r"^(?:how|why)\s+(?:do|does|did|is|are|can)\s+(?P<np>.+)$", re.I),
)
# "How long are backups kept?": the phrase ends before the participle
_PARTICIPLE = re.compile(
    r"\s+(?:\w+ed|kept|made|done|given|taken|built|run|sent|set|held|found|written|shown|known)$",
    re.I,
)
_BETWEEN = re.compile(r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.I)
ARTICLE = re.compile(r"^(?:a|an|the|my|your|our|python's)\s+", re.I)


def topic_of(question: str) -> str | None:
    """What a question is about: code names, else the noun phrase it asks about, else its
    key words."""
    names = _code_names(question)
    # a bare acronym ("TSC", "FHS") names the document more often than what is asked about
    if names and not all(_ACRONYM.fullmatch(n) for n in names):
        return " and ".join(names)
    phrase = _asked_phrase(question)
    if names and phrase is None:
        return " and ".join(names)
    # "What does Ceres Ventures pay Akai Studio …?": the first name, as written, before bare
    # key words ("ceres ventures pay akai")
    return phrase or first_name(question) or _key_words(question)


def first_name(question: str) -> str | None:
    """The first run of words `question` spells as a name (not its opening word), as written."""
    runs = name_runs_as_written(question)
    return re.sub(r"['’]s$", "", runs[0]) if runs else None


# a name inside a sentence (not its first word): capitalised words, one after another, "of"
# joining two of them ("Theriac of Littlestown")
NAME_RUN = re.compile(
    r"(?<=[\s(\"“])[A-Z][\w&.'’-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w&.'’-]*)*(?<![.'’])"
)


def name_runs_as_written(text: str) -> list[str]:
    """The runs of capitalised words in `text` after its first word, as written."""
    return [m.group(0) for m in NAME_RUN.finditer(text)]


_ACRONYM = re.compile(r"[A-Z]{2,5}")


def _asked_phrase(question: str) -> str | None:
    """The noun phrase a question asks about, else its key words."""
    bare = " ".join(question.strip().rstrip("?.!").split())
    pair = _BETWEEN.search(bare)
    if pair:
        a, b = _noun_phrase(pair.group("a")), _noun_phrase(pair.group("b"))
        if a and b:
            return f"{a} and {b}"
    for pattern in _NOUN_PHRASE:
        m = pattern.match(bare)
        if m:
            phrase = _noun_phrase(_PARTICIPLE.sub("", m.group("np")))
            if phrase:
                return phrase
    return None


def _key_words(question: str) -> str | None:
    words = content_words(question)
    return " ".join(words[:4]) or None


def _code_names(text: str) -> list[str]:
    """Dotted names and calls (up to two), else the first other identifier or quoted term."""
    found: list[str] = []
    for name in identifiers(text):
        if name.lower() in _COMMON_CAPS:
            continue
        call = re.search(re.escape(name) + r"\(\)", text)
        found.append(call.group(0) if call else name)
    strong = [n for n in dict.fromkeys(found) if "." in n or n.endswith("()")]
    if strong:
        return strong[:2]
    return found[:1] or quoted(text)[:1]


_COMMON_CAPS = frozenset({"how", "what", "faq", "api", "i", "os"})


def _noun_phrase(text: str) -> str | None:
    words = ARTICLE.sub("", text).split()
    out: list[str] = []
    for i, word in enumerate(words):
        if out and word.islower() and re.fullmatch(_NP_STOP, word):
            if word.lower() == "of" and out and out[-1].lower() in _GENERIC_HEAD:
                return _noun_phrase(" ".join(words[i + 1 :]))
            break
        out.append(word.strip(",;:"))
    phrase = " ".join(out[:5])
    return phrase if content_words(phrase) else None
