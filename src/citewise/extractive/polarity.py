"""Whether a sentence speaks of the question's case or its opposite (pure): "Who approves my
trip if it isn't billable?" is answered by "If your travel is non-billable, …", not by "If
your travel is billable, …", though both share the question's words."""

from __future__ import annotations

from citewise.text.sentences import is_content_word, stem, topic_stem, words

_NEGATORS = frozenset({"not", "no", "never", "without", "cannot", "non", "nor"})
AFTER = 2  # content words after a negation that it negates ("not given", "no default value")
BEFORE = 1  # … and before it, within `REACH` words ("default is not given")
REACH = 3
# a sentence negating a word the question affirms clashes half as much: the answer to "Do
# dictionaries keep order?" may be "… does not affect the order", though rarely
AFFIRMED_CLASH = 0.5


def negated(text: str) -> set[str]:
    """The topic stems of the words `text` negates: those next to a negation ("not",
    "isn't", "non-", "without") and words negated by "un-" ("unbounded")."""
    tokens = words(text)
    out = {topic_stem(w) for w in tokens if topic_stem(w) != stem(w)}  # "unbounded": "bound"
    for k, token in enumerate(tokens):
        is_negation = token in _NEGATORS or (token == "t" and k and tokens[k - 1].endswith("n"))
        if not is_negation:
            continue
        after = [w for w in tokens[k + 1 : k + 1 + REACH] if is_content_word(w)][:AFTER]
        before = [w for w in tokens[max(0, k - REACH) : k] if is_content_word(w)][-BEFORE:]
        out |= {topic_stem(w) for w in (*after, *before)}
    return out


def polarity(question: str, sentence: str) -> float:
    """+1 when the sentence negates what the question negates, −1 when it states the
    opposite case (a word the question negates affirmed; a word it affirms negated counts
    `AFFIRMED_CLASH`), 0 when neither negates the words they share."""
    asked = {topic_stem(w) for w in words(question) if is_content_word(w)}
    said = {topic_stem(w) for w in words(sentence) if is_content_word(w)}
    q_neg, s_neg = negated(question) & asked, negated(sentence) & said
    agree = len(q_neg & s_neg)
    clash = len(q_neg & (said - s_neg)) + AFFIRMED_CLASH * len((asked - q_neg) & s_neg)
    return float(max(-1, min(1, agree - clash)))
