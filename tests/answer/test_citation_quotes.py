from __future__ import annotations

from answer_factories import passage
from citewise.answer.citations import build_citations
from citewise.answer.quotes import MAX_QUOTE_CHARS, best_quote

HANDBOOK = (
    "Every full-time employee gets 28 days of paid annual leave per year. "
    "Part-time employees get paid annual leave in proportion to the days per week they work "
    "for the employee year."
)


def test_quote_holds_the_fact_sentence_when_the_answer_cites_several_sentences() -> None:
    answer = (
        "Every full-time employee gets 28 days of paid annual leave per year [1]. "
        "Part-time employees get paid annual leave in proportion to the days per week they "
        "work for the employee year [1]."
    )
    (citation,) = build_citations(answer, [passage(1, HANDBOOK)])
    assert "28 days of paid annual leave" in citation.quote


def test_quote_of_a_single_claim_is_its_own_sentence() -> None:
    answer = "Every full-time employee gets 28 days of paid annual leave per year [1]."
    (citation,) = build_citations(answer, [passage(1, HANDBOOK)])
    assert citation.quote == "Every full-time employee gets 28 days of paid annual leave per year."


MPL = (
    "Moreover, Your grants from a particular Contributor are reinstated on an ongoing basis if "
    "such Contributor notifies You of the non-compliance by some reasonable means, this is the "
    "first time You have received notice of non-compliance with this License from such "
    "Contributor, and You become compliant prior to 30 days after Your receipt of the notice. "
    "Termination is effective immediately."
)


def test_a_long_sentence_the_claim_recites_is_quoted_whole() -> None:
    sentence = MPL.split(" Termination")[0]
    assert len(sentence) > MAX_QUOTE_CHARS
    (citation,) = build_citations(f"{sentence[:-1]} [1].", [passage(1, MPL)])
    assert citation.quote == sentence
    assert "30 days" in citation.quote


def test_a_paraphrase_of_a_long_sentence_is_quoted_where_its_words_are() -> None:
    text = "Padding " + "filler " * 60 + "and the retention period is 30 days for audit logs."
    quote = best_quote("Audit logs are kept for a retention period of 30 days.", text)
    assert len(quote) <= MAX_QUOTE_CHARS
    assert "30 days" in quote and quote in text


def test_a_claim_reciting_a_lead_in_and_its_items_quotes_them_all() -> None:
    text = "Formats differ:\n- JSON is a text format.\n- Pickle is a binary format.\nMore later."
    claim = "Formats differ: - JSON is a text format. - Pickle is a binary format. [1]"
    (citation,) = build_citations(claim, [passage(1, text)])
    assert citation.quote == "Formats differ: - JSON is a text format. - Pickle is a binary format."


def test_claims_citing_neighbouring_sentences_are_quoted_as_one_run_of_the_passage() -> None:
    text = "Alpha comes first. Beta sets the size to 64 bytes. Gamma doubles it. Delta is last."
    answer = "Beta sets the size to 64 bytes [1]. Gamma doubles it [1]."
    (citation,) = build_citations(answer, [passage(1, text)])
    assert citation.quote == "Beta sets the size to 64 bytes. Gamma doubles it."


def test_an_entry_signature_the_claim_opens_with_is_quoted_with_its_sentence() -> None:
    text = "os.cpu_count()\nReturn the number of CPUs in the system. Returns None if unknown."
    answer = "os.cpu_count(): Return the number of CPUs in the system [1]."
    (citation,) = build_citations(answer, [passage(1, text)])
    assert citation.quote == "os.cpu_count() Return the number of CPUs in the system."


def test_a_claim_running_on_past_a_line_without_a_full_stop_quotes_both_places() -> None:
    text = (
        "The cache keeps a maxsize of 128 by default:\n@lru_cache\ndef count(x):\n"
        "return x\nIf maxsize is set to None, the cache can grow without bound."
    )
    answer = (
        "The cache keeps a maxsize of 128 by default: @lru_cache [1] If maxsize is set to "
        "None, the cache can grow without bound [1]."
    )
    (citation,) = build_citations(answer, [passage(1, text)])
    assert "128" in citation.quote and "None" in citation.quote
    assert "def count" not in citation.quote
