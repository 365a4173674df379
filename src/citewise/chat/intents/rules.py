"""Layer 1 of the intent router: hard rules read from the message's surface (pure).

Rules only fire on whole utterances ("simplify that", not "how do I simplify a fraction?"),
so a real question that merely contains a trigger word goes on to the next layer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from citewise.chat.intents.mash import is_mash

_POLITE = re.compile(
    r"^(?:(?:ok(?:ay)?|so|well|um+|hmm+|please)\b[\s,]*)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|i\s+(?:want|need)\s+you\s+to\s+)?"
)
_TAIL = re.compile(r"(?:[\s,]+(?:please|thanks|thank you|pls))+$")
_PUNCT = re.compile(r"[\s.!?,;:…]+$")
_SEGMENTS = re.compile(r"[,.!?;:…]+|\s+-+\s+")

_GREET = re.compile(
    r"(?:hi|hii+|hello|hey|heya|hiya|howdy|yo|greetings|hola|good\s+(?:morning|afternoon|evening|day)"
    r"|morning|evening)(?:\s+(?:there|all|everyone|folks|friend|again|bot|assistant|citewise))?"
)
_SMALLTALK = re.compile(
    r"how(?:\s+are\s+(?:you|u)(?:\s+doing)?(?:\s+today)?|\s+is\s+it\s+going|'?s\s+it\s+going"
    r"|\s+do\s+you\s+do)|what(?:'s|s|\s+is)\s+up|nice\s+to\s+meet\s+you|sup|are\s+you\s+there"
)
# what a thank-you or a closing remark is about: "… with these agreements", "… on the contracts"
_ABOUT_THEM = (
    r"(?:\s+(?:with|on|for|regarding|about|in)\s+(?:the|these|those|this|that|my|our|all\s+(?:the"
    r"|these|those|my|our)|all)(?:\s+[\w'-]+){1,5})?"
)
# what the thanks are for, done: "… for explaining the non-compete", "… for checking the leases"
_FOR_DOING = (
    r"\s+for\s+(?:explaining|clarifying|checking|summari[sz]ing|answering|finding|reading"
    r"|looking\s+(?:at|into|through)|going\s+(?:over|through)|helping(?:\s+(?:me|us))?(?:\s+with)?)"
    r"(?:\s+[\w'-]+){0,5}"
)
_THANKS = re.compile(
    r"(?:many\s+)?(?:thanks?|thank\s+(?:you|u)|thx|ty|tysm|cheers|ta|much\s+appreciated"
    r"|(?:i\s+)?appreciate\s+(?:it|that|your\s+help|the\s+help))(?:\s+(?:a\s+lot|so\s+much"
    r"|very\s+much|again|a\s+bunch|a\s+million|for\s+(?:all\s+)?(?:the|your)\s+(?:help|answers?"
    r"|explanations?|time|support|assistance)|mate|buddy))*(?:"
    + _FOR_DOING
    + "|"
    + _ABOUT_THEM
    + ")"
)
# a remark about what the user did or is about to do, asking nothing: "I just uploaded a batch
# of contracts", "here are our supplier agreements", "I'll be asking about the leases"
_REMARK = re.compile(
    r"(?:(?:i|we)(?:'ve|'ll|\s+have|\s+will)?(?:\s+just|\s+now|\s+also)?\s+(?:uploaded|added|shared"
    r"|attached|loaded|imported|dropped|indexed|ingested|put\s+in|(?:sent|given)\s+you)"
    r"|here\s+(?:are|is)\s+(?:my|our|the|some|a)|(?:these\s+are|this\s+is)\s+(?:my|our)"
    r"|(?:i|we)(?:'m|\s+am|\s+are|'re)\s+(?:going\s+to|about\s+to|here\s+to)\s+(?:ask|look)"
    r"|(?:i|we)(?:'ll|\s+will)\s+(?:be\s+)?ask(?:ing)?|(?:i|we)\s+(?:have|'ve\s+got)\s+(?:some|a\s+few"
    r"|a\s+couple\s+of)\s+questions)(?:\s+[\w'-]+)*"
)
_CLOSING = re.compile(
    # "that's all", "that summary of the licence was exactly what I needed"
    r"(?:(?:that|this|those|these|it)(?:\s+[\w'-]+){0,2}?(?:\s+(?:of|on|about)(?:\s+[\w'-]+){1,4}?)?"
    r"(?:'s|s|\s+is|\s+was|\s+are|\s+were)\s+"
    r"(?:(?:very|super|really|so|exactly|just)\s+)?(?:all|it|everything|helpful|great|perfect"
    r"|useful|clear|excellent|what\s+i\s+(?:needed|wanted|was\s+looking\s+for))"
    r"(?:\s+(?:i\s+needed|i\s+wanted|for\s+now|thanks))*|(?:good)?bye|see\s+you|later"
    r"|perfect|great|awesome|brilliant|excellent|nice|cool|got\s+it|ok(?:ay)?|makes\s+sense"
    r"|that\s+helps|(?:very|super|really)\s+helpful|you(?:'re|\s+are)\s+(?:great|the\s+best))"
    + _ABOUT_THEM
)
# what the answer did for the user, said beside a thank-you ("Thanks, that clears up the
# warranty question."): alone, "That covers the lease" could still be a statement to check
_ACKNOWLEDGES = re.compile(
    r"(?:that|this|it|you)(?:'s|\s+(?:has|have))?\s+(?:really\s+|totally\s+)?(?:clears?\s+(?:it|that"
    r"|things|everything)?\s*up|cleared\s+(?:it|that|things|everything)?\s*up|answers?|answered"
    r"|explains?|explained|settles?|settled|sorts?|sorted|solves?|solved|covers?|covered)"
    r"(?:\s+[\w'-]+){0,6}"
)
# asking for help in general, not with anything yet: "can you help?", "could you help me out?"
_HELP_OFFER_RE = re.compile(r"(?:can|could|would|will)\s+you\s+help(?:\s+(?:me|us))?(?:\s+out)?")
_PHRASE = rf"(?:{_GREET.pattern}|{_SMALLTALK.pattern}|{_THANKS.pattern}|{_CLOSING.pattern})"
_SOCIAL = re.compile(rf"{_PHRASE}(?:[\s,]+{_PHRASE})*")
_GREETS = re.compile(rf"\b(?:{_GREET.pattern}|{_SMALLTALK.pattern})\b")
_THANKS_WORD = re.compile(r"\b(?:thank|thanks|thx|ty|tysm|cheers|ta|appreciated?)\b")

# how a request or a question opens ("what …", "is …", "tell me …", "I need …")
_ASKS = re.compile(
    r"(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could"
    r"|would|will|should|shall|may|might|must|has|have|had|tell|show|give|list|explain|find"
    r"|summari[sz]e|describe|compare|get|check|look|help|please|i\s+(?:want|need|would\s+like)"
    r"|i'd\s+like|let\s+me|any)\b"
)

_COMMANDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "clear_history",
        re.compile(
            r"(?:clear|reset|wipe|erase|delete|forget)\s+(?:the\s+|my\s+|our\s+|this\s+|all\s+)?"
            r"(?:chat\s+|conversation\s+)?(?:history|conversation|chat|memory|context|session)"
            r"|start\s+(?:over|again|a\s+new\s+conversation)|new\s+(?:conversation|chat|topic)"
            r"|forget\s+(?:everything|what\s+i\s+said)"
        ),
    ),
    (
        "list_documents",
        re.compile(
            r"(?:list|show)(?:\s+me)?\s+(?:the\s+|all\s+|your\s+|my\s+)*(?:documents|docs|files|sources)"
            r"(?:\s+you\s+have)?|(?:what|which)\s+(?:documents|docs|files|sources)\s+(?:do\s+you\s+have"
            r"|have\s+you\s+got|can\s+you\s+(?:see|search|read|access)|are\s+(?:loaded|indexed"
            r"|available\s+to\s+you|in\s+your\s+(?:index|library)))"
        ),
    ),
    (
        "help",
        re.compile(
            r"/?help|help\s+me|what\s+can\s+(?:you\s+do|i\s+ask(?:\s+you)?)|how\s+do\s+i\s+use\s+"
            r"(?:you|this(?:\s+assistant)?)|who\s+are\s+you|what\s+are\s+you"
        ),
    ),
)

_SIMPLIFY = re.compile(
    r"simplify(?:\s+(?:that|it|this|the\s+answer))?|simpler|eli5|(?:explain|say|put)\s+(?:it|that|this)"
    r"(?:\s+(?:more\s+)?(?:simply|plainly|clearly)|\s+in\s+(?:simpler|plain|easier)\s+\w+|\s+(?:like|as\s+if)\s+i(?:'m|\s+am"
    r"|\s+was|\s+were)\s+(?:five|5|a\s+child|a\s+kid|a\s+beginner|new\s+to\s+this)|\s+to\s+a\s+(?:child"
    r"|kid|beginner))|in\s+(?:simpler|plain|easier|layman'?s)\s+(?:terms|words|english|language)"
    r"|dumb\s+it\s+down|too\s+(?:complicated|complex|technical)|i\s+(?:don'?t|didn'?t|do\s+not)\s+"
    r"(?:understand|get\s+it)(?:\s+(?:that|it|this))?"
)
_DEEPEN = re.compile(
    r"tell\s+me\s+more(?:\s+about\s+(?:it|that|this|them))?|(?:go|dig|dive)\s+deeper|more\s+"
    r"(?:details?|depth|info|information|technical)|elaborate(?:\s+on\s+(?:that|this|it))?"
    r"|expand\s+on\s+(?:that|this|it)|go\s+on|continue|keep\s+going|what\s+else|(?:give\s+me\s+)?more"
    r"|in\s+(?:more\s+)?(?:depth|detail)|be\s+more\s+(?:specific|detailed|technical)"
)

_ARITH = re.compile(
    r"(?<![\w.])\d[\d,.]*\s*(?:[-+*/×÷^x]|\*\*|%\s*of|percent\s+of|times|plus|minus|divided\s+by"
    r"|multiplied\s+by|to\s+the\s+power\s+of|mod)\s*\(?\s*\d|(?:sqrt|square\s+root|cube\s+root"
    r"|log|ln|factorial)\s*(?:of\s*)?\(?\s*\d"
)
_CALC_FILLER = re.compile(
    r"\b(?:what(?:'s|\s+is)|how\s+much\s+is|calculate|compute|work\s+out|evaluate|equals?|is"
    r"|the|of|percent|times|plus|minus|divided|multiplied|by|to|power|sqrt|square|cube|root"
    r"|log|ln|factorial|mod|please|me|can|you|answer|result)\b|[\d,.%+*/×÷^()=?x\s-]"
)
_DATETIME = re.compile(
    r"\b(?:what(?:'s|\s+is)\s+(?:today'?s\s+date|the\s+(?:current\s+)?(?:date|time|day|year)"
    r"(?:\s+(?:today|now|right\s+now))?|today|the\s+date\s+today)|what\s+(?:time|day|date|year"
    r"|month)\s+is\s+it(?:\s+(?:today|now|right\s+now))?|current\s+(?:date|time)|date\s+today"
    r"|time\s+now|what\s+day\s+of\s+the\s+week\s+is\s+(?:it|today))\b"
)

_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class RuleMatch:
    """What a hard rule decided: the intent and, for commands and tools, which one."""

    intent: str
    reason: str
    command: str | None = None
    tool: str | None = None


def normalise(text: str) -> str:
    """Lower-cased, single-spaced, curly quotes straightened, trailing punctuation removed."""
    t = " ".join(text.lower().replace("’", "'").replace("‘", "'").split())
    return _PUNCT.sub("", t)


def core(text: str) -> str:
    """The normalised utterance without politeness around it ("could you …, please")."""
    t = _POLITE.sub("", normalise(text))
    return _PUNCT.sub("", _TAIL.sub("", t)).strip()


def match_rules(text: str, known_word: Callable[[str], bool] | None = None) -> RuleMatch | None:
    """The hard-rule verdict on `text`, or None when no rule applies."""
    if is_garbage(text, known_word):
        return RuleMatch("garbage", "no recognisable words")
    social = _social(text)
    if social:
        return RuleMatch(social, f"{social} phrase")
    c = core(text)
    for name, pattern in _COMMANDS:
        if _whole(pattern, c):
            return RuleMatch("command", f"command phrase: {name}", command=name)
    if _whole(_SIMPLIFY, c):
        return RuleMatch("simplify", "asks for a simpler explanation")
    if _whole(_DEEPEN, c):
        return RuleMatch("deepen", "asks for more detail")
    tool = tool_hint(text)
    if tool:
        return RuleMatch("question", f"{tool} question", tool=tool)
    return None


def tool_hint(text: str) -> str | None:
    """'calculator' for plain arithmetic, 'datetime' for today's date or time, else None."""
    t = normalise(text)
    if _DATETIME.search(t):
        return "datetime"
    if _ARITH.search(t) and not _WORD.search(_CALC_FILLER.sub(" ", t)):
        return "calculator"
    return None


def _social(text: str) -> str | None:
    """ "greeting" or "gratitude" when every part of `text` is a social phrase or a remark
    that asks nothing ("Hi there! I just uploaded a batch of contracts.")."""
    raw = [normalise(s) for s in _SEGMENTS.split(text.lower())]
    helps = {core(p) for p in raw if _HELP_OFFER_RE.fullmatch(p)}  # as `core` leaves them
    # a remark that is asked is a question ("I uploaded it?"); "can you help?" asks nothing yet
    remarks_allowed = "?" not in text or _asks_only_for_help(text, helps)
    parts = [core(s) or s for s in _SEGMENTS.split(normalise(text))]
    parts = [p for p in parts if p.strip()]
    if not parts:
        return None
    if all(p in helps for p in parts):
        return None  # "Can you help?" alone asks for the help text
    social = [p for p in parts if _SOCIAL.fullmatch(p) or p in helps]
    thanked = bool(_THANKS_WORD.search(" ".join(social)))
    social += [p for p in parts if thanked and p not in social and _ACKNOWLEDGES.fullmatch(p)]
    remarks = [p for p in parts if remarks_allowed and p not in social and _REMARK.fullmatch(p)]
    if remarks_allowed and parts[0] in social and _GREETS.fullmatch(parts[0]):
        # after a greeting, what asks nothing is small talk ("Good morning! Lots on today.")
        remarks += [p for p in parts[1:] if p not in social and not _ASKS.match(p)]
    if len(social) + len(remarks) < len(parts):
        return None
    joined = " ".join(social)
    if _THANKS_WORD.search(joined) or (social and not _GREETS.search(joined)):
        return "gratitude"
    return "greeting"  # a greeting, or a remark alone: answered with the greeting's offer


def _asks_only_for_help(text: str, helps: set[str]) -> bool:
    """Whether every "?" of `text` closes a general request for help ("…, can you help?")."""
    asked = [normalise(m.group(1)) for m in re.finditer(r"([^,.!?;:…]+)\?", text.lower())]
    return bool(helps) and all(_HELP_OFFER_RE.fullmatch(a) for a in asked)


def _whole(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.fullmatch(text) is not None


def is_garbage(text: str, known_word: Callable[[str], bool] | None = None) -> bool:
    """True for empty input, bare punctuation or numbers, and keyboard mash."""
    t = normalise(text)
    if tool_hint(text):
        return False
    tokens = _WORD.findall(t)
    if not tokens:
        return True
    if len(tokens) == 1 and len(tokens[0]) == 1 and tokens[0] not in ("i", "a"):
        return True
    return is_mash(tokens, known_word)
