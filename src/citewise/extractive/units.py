"""Reading units of the extractive answerer (pure): what counts as a prose sentence, the unit a
lead-in opens, and how sentences of one passage are joined with their `[n]`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.text.headings import last_heading
from citewise.text.identifiers import identifiers
from citewise.text.sentences import (
    attach_marker,
    is_definition_line,
    item_label,
    strip_citation_marks,
)

LIST_ITEMS = 3  # items of a list a lead-in brings along
SHORT_ITEM_WORDS = 6  # a list item this short completes the sentence before it ("- \\n on POSIX")
PROSE_SHARE = 0.6  # share of plain words below which a line is code, a signature or a table

_BULLET = re.compile(r"^(?:[-*•]|\d+\.)\s")
# … and a clause's label: "(a) ", "(iii) " open the items a contract's lead-in introduces
_LIST_ITEM = re.compile(r"^(?:[-*•]|\d+\.|\((?:[a-z]|[ivx]{1,5}|\d{1,2})\))\s")
_RUNS_ON = re.compile(r"(?:;|\b(?:and|or))\s*$", re.I)  # an item the next one completes
# "… contains an explanation of this." / "… as shown below.": points elsewhere, states nothing
# "… does not measure these.": a bare demonstrative at the end refers to what came before
_POINTS_AWAY = re.compile(
    r"\b(?:of|on|about|for)\s+(?:this|that|these|those)\W*$|\b(?:below|these|those)\W*$", re.I
)
# a question reported rather than answered: "New users often wonder if …"
_WONDERS = re.compile(r"\bwonder(?:s|ed|ing)?\s+(?:if|whether)\b", re.I)
# a page's copyright or licence line is never an answer
_NOTICE = re.compile(
    r"^(?:copyright\s+(?:©|\(c\)|\d{4})|©|\(c\)\s+\d{4}|all rights reserved\b)", re.I
)
_FOOTNOTE = re.compile(r"\s+\[\d+(?:\s*,\s*\d+)*\](?=[\s.,;:)]|$)")
# "See also …", "Refer to X for details.", "For more information about this, you can see the
# relevant section of the Django documentation.": a pointer, not an answer
_SEE_ALSO = re.compile(
    r"^(?:for\s+(?:more|further|additional|full)?\s*(?:information|details)\b[^,.]*,\s*)?"
    r"(?:please\s+)?(?:you\s+(?:can|may|should)\s+(?:also\s+)?)?(?:see|refer\s+to|consult)\b",
    re.I,
)


def points_away(sentence: str) -> bool:
    """A pointer elsewhere ("See also …", a slide's "- See the new: www.owasp.org/…"), a
    list's marker aside: it says where the answer is, not what it is."""
    return bool(_SEE_ALSO.match(_BULLET.sub("", sentence.lstrip())))


_CODE = re.compile(r"^(?:>>>|\.\.\.|\$ |//|/\*|[#{}\[\]()])")
# a clause's or item's label ("(a) ", "(iii) ", "(12) ", "[b] "): it opens a contract's clause,
# not code, so what follows it decides
_ENUM_LABEL = re.compile(r"^\s*[(\[]\s*(?:[a-zA-Z]|[ivxlcIVXLC]{1,6}|\d{1,3})\s*[)\]]\s+(?=\w)")
# a page number left between a lead-in and what it introduces ("Page 1", "- 4 -")
_PAGE_LINE = re.compile(
    r"^\s*(?:page\s+\d{1,4}(?:\s+of\s+\d{1,4})?|[-–—]\s*\d{1,4}\s*[-–—])\s*$", re.I
)
# a line of code with a comment reads like words: "self._dept = dept  # Store to private attribute"
# … and C: "typedef struct { char *next_in;" (braces, and a statement's ";" or "{" at the end)
_CODE_STATEMENT = re.compile(
    r"^\s*(?:[\w.]+(?:\[[^\]]*\])?\s*=\s|def\s+\w+\(|class\s+\w+\s*[:(]|import\s+\w|from\s+\S+\s+import\s)"
    r"|^(?=.*[{}]).*[;{]\s*$|^\s*(?:typedef|#include|#define)\b"
)
# "Example of an LRU cache for static web content:" introduces code and states nothing
_CAPTION = re.compile(r"^(?:an?\s+|for\s+|some\s+|more\s+)?examples?\b[^.:]*:", re.I)
# an API entry's heading: "exception KeyError", "classmethod datetime.utcnow()",
# "@functools.lru_cache(user_function)", "int PyList_Append(PyObject *list, PyObject *item)",
# "Py_ssize_t PyDict_Size(PyObject *p)", "PyObject *PyDict_New()"
_ENTRY = re.compile(
    r"^(?:[a-z]+(?:\s*\*+\s*|\s+)|\w+_t\s+|[A-Z]\w*\s*\*+\s*)*@?(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?P<signature>\(.*\))?"
    r"(?:\s*(?:→|->)\s*[^()]+)?\s*$"  # a return annotation: "time.perf_counter() → float"
)
# "--inspect[=[host:]port]", "-m <module-name>", "-c, --check", "-W arg"
_OPTION_ENTRY = re.compile(r"^(?P<name>--?[A-Za-z][\w-]*)(?:\S*|\s+<[^>]*>|\s+\w+)(?:,\s.*)?$")
MAX_ENTRY_CHARS = 60  # a longer signature is shown as its name
_LABELLED = re.compile(r"^\S+:\s")
_OPTION_DEFAULT = re.compile(
    r"^(?:[-*•]\s+)?`?[A-Za-z_$][\w.$-]*`?(?::\s+|\s*\{[^}]*\}\s*|\s*<[^>]*>\s*)Default:\s+\S"
)
_ACRONYM = re.compile(r"[A-Z]{2,5}")  # a heading "FAQ" or "API" names a topic, not an entry
# a word, capitalised or not, or an acronym ("RFC", "UUID"); not code, numbers or signatures
_ALPHA_WORD = re.compile(r"^[(\"'“‘]?(?:[A-Za-z][a-z’'-]*|[A-Z]{2,})[,;:.!?)\"'”’]*$")
# a number as prose states it: a year, a date's day, a version, an amount ("2022.", "1st,",
# "1.2", "4MB", "42%")
_PROSE_NUMBER = re.compile(
    r"^[(\"'“‘$€£]?\d+(?:[.,]\d+)*(?:st|nd|rd|th|%|[kKMG]B)?[,;:.!?)\"'”’]*$"
)
MIN_PROSE_WORDS = 3  # plain words a sentence holding numbers still needs


def lead_in_end(sentences: Sequence[str], i: int) -> int:
    """The end (exclusive) of the unit sentence `i` opens: a lead-in ending in ':' is
    meaningless without what it introduces — the next line, or the first `LIST_ITEMS` items of
    the list it opens — so it is scored and quoted with them. A sentence followed by a list of
    short items ("The end-of-line marker." "- \\n on POSIX" "- \\r\\n on Windows") brings them
    along too: alone they are too short to be answers, and they are what it describes."""
    lead_in = sentences[i].rstrip().endswith(":")
    if i + 1 >= len(sentences) or (_LIST_ITEM.match(sentences[i]) and not lead_in):
        return i + 1  # an item does not bring its siblings, unless it introduces them
    if _INTRODUCES.search(sentences[i]) and is_code_line(sentences[i + 1]):
        end = i + 1  # "Run the following command as root." and the command it introduces
        while end < len(sentences) and end - i <= LIST_ITEMS and is_code_line(sentences[end]):
            end += 1
        return end
    if not lead_in:
        end = i + 1
        while end < len(sentences) and end - i <= LIST_ITEMS and _short_item(sentences[end]):
            end += 1
        return end
    end = i + 2
    if _LIST_ITEM.match(sentences[i + 1]):
        while end < len(sentences) and end - i <= LIST_ITEMS and _LIST_ITEM.match(sentences[end]):
            end += 1
    # items without a mark run on to the next ("Indicate the recipient …; and" "Include a copy")
    while (
        end < len(sentences)
        and end - i <= LIST_ITEMS
        and _RUNS_ON.search(sentences[end - 1])
        and not is_code_line(sentences[end])
    ):
        end += 1
    return end


# a sentence that introduces a command or code without a closing ':' ("Run the following
# command as root.", "… as follows.", "Type this.")
_INTRODUCES = re.compile(
    r"(?:\b(?:the\s+following|as\s+follows|like\s+this|like\s+so|(?:this|these)\s+commands?"
    r"|below)\b(?:\s+[\w-]+){0,4}|\b(?:run|type|enter|execute))\W*$",
    re.I,
)


def _short_item(sentence: str) -> bool:
    """A short list item that completes the sentence before it; an option of its own
    ("- killSignal {string} Default: 'SIGTERM'") does not."""
    short = len(sentence.split()) <= SHORT_ITEM_WORDS + 1
    # a short labelled clause ("(c) Performance of Duties.") heads the next clause instead
    return bool(_BULLET.match(sentence)) and short and item_label(sentence) is None


def norm_sentence(sentence: str) -> str:
    """A sentence's words without citation marks or punctuation, lowercased: for exclusion."""
    return " ".join(re.findall(r"\w+", strip_citation_marks(sentence).lower()))


def is_caption(sentence: str) -> bool:
    """An example's caption ("Example of …:", "For example:"): an answer only to a question
    that asks for an example."""
    return _CAPTION.match(sentence.strip()) is not None


def said_before(sentence: str, said: str) -> bool:
    """Whether `sentence` appears, as whole words, in `said` (a `norm_sentence` text). A
    sentence without words ("...", ">>>") was never said: as an empty string it would be
    contained in everything."""
    words = norm_sentence(sentence)
    return bool(words) and bool(said) and f" {words} " in f" {said} "


def _opens_code(line: str) -> bool:
    """`line` opens as code does (">>> ", "$ ", "{", "#"), a clause's label ("(a) ") aside."""
    return _CODE.match(_ENUM_LABEL.sub("", line, count=1)) is not None


def is_page_line(line: str) -> bool:
    """A page number alone on its line ("Page 1", "- 4 -"): page furniture, never an answer."""
    return _PAGE_LINE.match(line) is not None


# a message's header line as the mail parsers write it: "From: … · To: … · Subject: …"
_HEADER_LINE = re.compile(r"^(?:From|To|Cc|Date|Subject): [^\n]*? · (?:To|Cc|Date|Subject): ")
_ASKS_HEADER = re.compile(
    r"\b(?:sent|sender|senders|wrote|written|from\s+whom|to\s+whom|recipients?|subject\s+line"
    r"|e-?mails?|messages?|mail)\b",
    re.I,
)


def is_header_line(line: str, question: str = "") -> bool:
    """A message's header line ("From: Bo · To: Crew · Date: … · Subject: Re: Canteen"):
    metadata, not what the message says, unless `question` asks who sent it, to whom, when
    or under which subject."""
    return _HEADER_LINE.match(line) is not None and not _ASKS_HEADER.search(question)


def is_code_line(line: str) -> bool:
    """A line of code: what `is_prose` takes for code, or a line a statement or declaration
    runs on from or ends on (";", ",", "{", "(" at its end: "int BZ2_bzCompressInit (
    bz_stream *strm,", "char *next_in;"), as prose paragraphs never end."""
    stripped = line.strip()
    if _opens_code(stripped) or _CODE_STATEMENT.search(stripped):
        return True
    return stripped.endswith((";", ",", "{", "(")) and ". " not in stripped


# the words of a page's navigation bar or footer: "« Prev Up Home Next »", "Previous topic …
# Next topic … This Page Show Source", "Back to top", "Skip to main content"
_NAV_WORDS = re.compile(
    r"^(?:«|»|‹|›|←|→|↑|\||prev(?:ious)?|next|up|home|top|back|skip|contents|index|search"
    r"|quick|show|source|edit|permalink|print|navigation|menu|github)$",
    re.I,
)
_NAV_PHRASE = re.compile(
    r"\b(?:prev(?:ious)?\s+(?:topic|page|chapter)|next\s+(?:topic|page|chapter)|back\s+to\s+top"
    r"|skip\s+to\s+(?:main\s+)?content|show\s+source|edit\s+on\s+github|view\s+page\s+source"
    r"|prev\s+up\s+home\s+next|table\s+of\s+contents)\b",
    re.I,
)
NAV_SHARE = 0.5  # share of navigation words from which a line is a navigation bar
NAV_PHRASE_WORDS = 12  # a line this short with a navigation phrase is a navigation bar
# a heading's permalink glyph ("Installation¶"); "¶ 12" cites a paragraph and stays
# … and the private-use glyphs of a slide's symbol fonts, which no reader's font shows: the
# Wingdings arrows (U+F0D5–U+F0F0, "A2 \uf0e0 A3") read as "→", the rest are left out
_PERMALINK = re.compile(r"\s*¶(?!\s*\d)|\s*[\ue000-\uf0d4\uf0f1-\uf8ff]+")
_ARROW_GLYPH = re.compile(r"[\uf0d5-\uf0f0]")


def is_navigation(sentence: str) -> bool:
    """A page's navigation bar or footer left in the text: never an answer."""
    tokens = sentence.split()
    nav = sum(1 for t in tokens if _NAV_WORDS.match(t.strip(".,:;()[]")))
    if nav >= 2 and nav >= NAV_SHARE * len(tokens):
        return True
    return _NAV_PHRASE.search(sentence) is not None and len(tokens) <= NAV_PHRASE_WORDS


def without_anchors(text: str) -> str:
    """`text` without permalink glyphs ("¶") left by HTML headings, nor a symbol font's
    private-use glyphs, which no reader's font shows."""
    return _ARROW_GLYPH.sub("→", _PERMALINK.sub("", text))


def is_prose(sentence: str, min_words: int) -> bool:
    """Sentences a reader would accept as an answer: not code, signatures, table rows or
    questions (an FAQ's "Is there a JIT compiler?" states nothing). An option's default
    ("maxBuffer: Default: 1024 * 1024.", "- killSignal {string} Default: 'SIGTERM'") is one."""
    if _OPTION_DEFAULT.match(sentence):
        return True
    tokens = sentence.split()
    if len(tokens) < min_words or _opens_code(sentence) or points_away(sentence):
        return False
    if _NOTICE.match(sentence) or is_definition_line(sentence) or _CODE_STATEMENT.match(sentence):
        return False
    if is_navigation(sentence):
        return False
    if sentence.rstrip(" )\"'”’").endswith("?") or _POINTS_AWAY.search(sentence):
        return False
    if _WONDERS.search(sentence):
        return False  # "Users often wonder if low sampling rates …": a question reported
    if " | " in sentence:
        return False
    plain = sum(1 for t in tokens if _ALPHA_WORD.match(t))
    numbers = sum(1 for t in tokens if _PROSE_NUMBER.match(t))
    if plain >= PROSE_SHARE * len(tokens):
        return True
    # "Version 1.2 ratified on October 1st, 2022.": numbers read as words in a sentence
    return plain >= MIN_PROSE_WORDS and plain + numbers >= PROSE_SHARE * len(tokens)


def join_marked(sentences: Sequence[str], n: int) -> str:
    """Sentences of one passage, each with `[n]`; a lead-in ending in ':' runs into the
    sentence after it, which carries the marker for both."""
    out: list[str] = []
    for i, raw in enumerate(sentences):
        s = without_anchors(_FOOTNOTE.sub("", raw))  # a page's footnote marks read as citations
        lead_in = s.rstrip().endswith(":") and i + 1 < len(sentences)
        out.append(s.rstrip() if lead_in else attach_marker(s, (n,)))
    return " ".join(out)


def entry_name(section: str) -> tuple[str, str] | None:
    """The API entry a section's last heading documents, as shown ("os.cpu_count()",
    "KeyError") and as its bare name ("cpu_count"); None for a heading of prose."""
    heading = last_heading(section)
    match = _ENTRY.match(heading) or _OPTION_ENTRY.match(heading)
    if match is None:
        return None
    name = match.group("name")
    signature = match.groupdict().get("signature")
    if not signature and (name not in identifiers(name) or _ACRONYM.fullmatch(name)):
        return None  # "Tuples", "hooks", "FAQ": a word, not code
    shown = heading[match.start("name") :]
    if len(shown) > MAX_ENTRY_CHARS:
        shown = f"{name}()" if signature else name
    return shown, name.rsplit(".", 1)[-1]


def with_subject(sentence: str, section: str) -> str:
    """A sentence documenting an API entry without naming it ("Return the number of CPUs in
    the system.") gets the entry as its subject: "os.cpu_count(): Return the number …"."""
    entry = entry_name(section)
    if entry is None or _LIST_ITEM.match(sentence) or _CODE.match(sentence):
        return sentence
    if _LABELLED.match(sentence):
        return sentence  # "subprocess.CalledProcessError: Command …" names its own subject
    shown, bare = entry
    if re.search(rf"(?<![\w-]){re.escape(bare)}(?!\w)", sentence):
        return sentence
    return f"{shown}: {sentence}"
