"""FinanceBench conversations and summaries, made from the set's own lookups (see
build_financebench.py): a conversation asks one question naming the company and period,
then another about the same report that names neither (the company's names become "the
company" or "its", the period "that year"); a summary asks for the gist of a short report
(an 8-K or an earnings release), its gold the evidence of the questions about it.

Everything here works on the items build_financebench.py made, so the text of the questions
and answers stays in the cache dir, as theirs does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

Item = dict[str, object]

# other names the questions use for a company
ALIASES = {
    "Johnson & Johnson": ("JnJ", "J&J", "Johnson and Johnson"),
    "American Express": ("AMEX", "AmEx"),
    "JPMorgan": ("JPM", "JP Morgan", "JPMorgan Chase"),
    "MGM Resorts": ("MGM",),
    "Block": ("Square", "formerly known as Square"),
    "PepsiCo": ("Pepsi",),
    "Coca-Cola": ("Coca Cola", "Coke"),
    "CVS Health": ("CVS",),
    "Activision Blizzard": ("Activision",),
}
_YEARS = re.compile(r"(?:19|20)\d\d|\bFY\s*'?\d\d\b|\bQ[1-4]\b", re.I)
# a period the question names, with the preposition that introduces it
_PERIOD = re.compile(
    r"\s*\b(?:(?:as\s+of|in|for|from|during|at\s+the\s+end\s+of|of)\s+(?:the\s+)?)?"
    r"(?:year[\s-]+end\s+)?(?:FY|fiscal(?:\s+year)?)\s*'?(?:(?:19|20)?\d\d)\b"
    r"|\s*\b(?:in|during)\s+(?:19|20)\d\d\b",
    re.I,
)
_OPENS = re.compile(r"(?:what|how|which|who|why|does|did|do|is|are|was|were|has|have|can)\b", re.I)
MAX_CONVERSATIONS = 12
MAX_SIMPLIFY = 3
MAX_SUMMARIES = 6
SHORT_KINDS = ("8K", "EARNINGS")


def company_forms(company: str) -> list[str]:
    """How a question may name `company`: its name, its first word when that is telling,
    and the aliases above; longest first."""
    forms = {company, company.replace(" ", ""), *ALIASES.get(company, ())}
    first = company.split()[0]
    if len(first) >= 4 and first.lower() not in {"american", "general"}:
        forms.add(first)
    return sorted(forms, key=len, reverse=True)


def without_company(question: str, company: str) -> str:
    """`question` with the company's names replaced: "X's" by "its", else "the company"."""
    text = question
    for form in company_forms(company):
        name = re.escape(form)
        text = re.sub(rf"\(\s*{name}\s*\)", "", text, flags=re.I)
        text = re.sub(rf"(?<![\w&]){name}(?:'s|’s|')(?![\w])", "its", text, flags=re.I)
        text = re.sub(rf"(?<![\w&]){name}(?![\w&])", "the company", text, flags=re.I)
    return text


def follow_up(question: str, company: str) -> str | None:
    """The question as a follow-up naming neither the company nor a period ("And …"), or
    None when it names several periods or keeps a name or year after rewriting."""
    if len(_YEARS.findall(question)) > 1:
        return None
    text = without_company(question, company)
    dated = bool(_PERIOD.search(text))
    text = _PERIOD.sub("", text)
    if dated:  # the period, now "that year", where the question ends
        end = text.find("?")
        text = f"{text[:end]} in that year{text[end:]}" if end >= 0 else f"{text} in that year"
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([?,.])", r"\1", text)
    if _YEARS.search(text) or any(
        re.search(rf"(?<![\w&]){re.escape(f)}(?![\w&])", text, re.I) for f in company_forms(company)
    ):
        return None
    if "the company" not in text and "its" not in text.split():
        return None  # the follow-up must lean on the first turn
    return "And " + text[0].lower() + text[1:] if _OPENS.match(text) else text


def _turn(item: Item, question: str, kind: str) -> Item:
    return {
        "q": question, "answer": item["answer"], "must_contain": item["must_contain"],
        "gold": item["gold"], "kind": kind,
    }  # fmt: skip


def conversations(lookups: Sequence[Item], company_of: dict[str, str], half: object) -> list[Item]:
    """Pairs of lookups about one report: the first names company and period, the second
    (rewritten by `follow_up`) neither; then a few "Simplify that." after a lookup whose
    answer states a number. One conversation a report, in the items' order."""
    by_report: dict[str, list[Item]] = {}
    for item in lookups:
        files = {str(g["file"]) for g in item["gold"]}  # type: ignore[attr-defined]
        if len(files) == 1:
            by_report.setdefault(files.pop(), []).append(item)
    out: list[Item] = []
    for _report, items in sorted(by_report.items()):
        company = company_of[str(items[0]["id"])]
        firsts = [i for i in items if i["names_document"]]
        pair = next(
            (
                (a, b, q)
                for a in firsts
                for b in sorted(items, key=lambda i: len(str(i["question"])))
                if b is not a and (q := follow_up(str(b["question"]), company))
            ),
            None,
        )
        if pair is None or len(out) >= MAX_CONVERSATIONS:
            continue
        a, b, q = pair
        out.append(_conversation(f"fbv-{b['id']}", a, b, q, "pronoun", half))
    simplified = 0
    for item in lookups:
        if simplified >= MAX_SIMPLIFY:
            break
        if item["names_document"] and item["must_contain"]:
            out.append(
                _conversation(f"fbs-{item['id']}", item, item, "Simplify that.", "simplify", half)
            )
            simplified += 1
    return out


def _conversation(item_id: str, a: Item, b: Item, question: str, kind: str, half: object) -> Item:
    return {
        "id": item_id, "type": "conversation", "question": question, "answer": b["answer"],
        "must_contain": b["must_contain"], "gold": [],
        "turns": [_turn(a, str(a["question"]), ""), _turn(b, question, kind)],
        "split": half(item_id),  # type: ignore[operator]
    }  # fmt: skip


def summary_question(report: str, company: str) -> str | None:
    """The summary question for a short report's file name (an 8-K or an earnings release):
    "Summarise PepsiCo's earnings release for the first quarter of 2023."; else None."""
    stem = report.removesuffix(".pdf")
    quarter = re.search(r"_(\d{4})Q([1-4])_EARNINGS", stem)
    if quarter:
        nth = ("first", "second", "third", "fourth")[int(quarter[2]) - 1]
        return f"Summarise {company}'s earnings release for the {nth} quarter of {quarter[1]}."
    dated = re.search(r"_8K_dated[-_](\d{4})-(\d\d)-(\d\d)", stem)
    if dated:
        months = (
            "January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December",
        )  # fmt: skip
        when = f"{months[int(dated[2]) - 1]} {int(dated[3])}, {dated[1]}"
        return f"Summarise the 8-K current report {company} filed on {when}."
    return None


def summaries(lookups: Sequence[Item], company_of: dict[str, str], half: object) -> list[Item]:
    """One summary a short report with questions: its gold their evidence, its answer their
    answers, its must_contain a figure of theirs its gold pages state."""
    by_report: dict[str, list[Item]] = {}
    for item in lookups:
        for g in item["gold"]:  # type: ignore[attr-defined]
            if any(kind in str(g["file"]).upper() for kind in SHORT_KINDS):
                by_report.setdefault(str(g["file"]), []).append(item)
                break
    out: list[Item] = []
    for report, items in sorted(by_report.items()):
        question = summary_question(report, company_of[str(items[0]["id"])])
        if question is None or len(out) >= MAX_SUMMARIES:
            continue
        gold = [g for i in items for g in i["gold"] if g["file"] == report]  # type: ignore[attr-defined]
        unique = list({(g["page"], g["quote"]): g for g in gold}.values())
        must = next((m for i in items for m in i["must_contain"]), None)  # type: ignore[attr-defined]
        item_id = f"fbsum-{report.removesuffix('.pdf').lower()}"
        out.append({
            "id": item_id, "type": "summary", "question": question,
            "answer": " ".join(str(i["answer"]).strip() for i in items),
            "must_contain": [must] if must else [], "gold": unique,
            "split": half(item_id),  # type: ignore[operator]
        })  # fmt: skip
    return out
