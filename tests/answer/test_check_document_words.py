"""With an LLM, the answer check reads the document's words: the party an answer names short
("EFJ") held by the role its passage gives it, names matched as whole words, each part of a
multi-part sentence held on its own passage (the judge confirming a paraphrased part), and
the flow handing the documents' aliases to the check."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from answer_factories import document_answerer, hit, passage
from citewise.answer.generate import answer_with_fallback
from citewise.answer.grounding import check_answer
from citewise.answer.lexical import Evidence
from citewise.answer.request import AnswerRequest
from citewise.answer.support import document_aliases, name_forms
from citewise.retrieve.passages import PassageReader
from citewise.testing.fakes import FakeLLM
from citewise.types import DocumentFields, DocumentInfo, Passage, SearchFilter

NON_COMPETE = passage(
    1,
    "The Employee agrees that during the term of this Agreement he will not, within fifty "
    "miles of any office in which Employee works, operate a business that competes with the "
    "Company. The Employee worked at EFJohnson before.",
    source="employment-agreement.html",
)
CAUSE_1 = passage(
    1,
    "(ii) The Executive has failed to follow a lawful instruction of the Board, and has not "
    "cured that failure within thirty (30) days of notice.",
    source="executive-agreement.pdf",
)
CAUSE_2 = passage(
    2,
    "(iii) The Executive has breached a material term of this Agreement, which is not cured "
    "within ninety (90) days.",
    source="executive-agreement.pdf",
)


class Judge:
    """Says `verdict` to every claim and remembers what it was asked."""

    def __init__(self, verdict: bool) -> None:
        self.verdict = verdict
        self.claims: list[str] = []

    def judge(self, sentence: str, evidence: str) -> bool | None:
        self.claims.append(sentence)
        return self.verdict


def test_a_party_named_without_its_company_form_is_held_by_its_role() -> None:
    text = "EFJ's employee may not operate a competing business within fifty miles [1]."
    alone = check_answer(text, [NON_COMPETE], terms=True, repair=True)
    assert alone.sentences[0].verdict == "unsupported"  # "EFJ" is in no passage
    aliased = check_answer(
        text, [NON_COMPETE], terms=True, repair=True, aliases={"EFJ Inc": ("Company",)}
    )
    assert aliased.sentences[0].verdict != "unsupported"
    assert aliased.supported_text == text


def test_a_name_inside_a_longer_word_is_not_the_name() -> None:
    ev = Evidence.of([NON_COMPETE.context])
    assert ev.has_literal("EFJ") and not ev.has_phrase("EFJ")
    assert ev.has_phrase("fifty   miles")


def test_the_short_forms_of_a_name_drop_company_forms_only() -> None:
    assert name_forms("Identive Group, Inc.") == [
        "Identive Group, Inc.",
        "Identive Group",
        "Identive",
    ]
    assert name_forms("Melvin Denton-Thompson") == ["Melvin Denton-Thompson"]
    assert name_forms("Group Inc.") == ["Group Inc."]  # no name is left without the forms


def test_each_part_of_a_sentence_is_held_on_its_own_passage_with_the_judge() -> None:
    text = (
        "A failure to follow a lawful instruction must be cured within thirty (30) days of "
        "notice; a breach of a material term within ninety (90) days [2]."
    )
    judge = Judge(True)
    report = check_answer(text, [CAUSE_1, CAUSE_2], judge, terms=True, repair=True)
    s = report.sentences[0]
    assert s.verdict == "supported" and s.cited == (1, 2)
    assert report.supported_text.endswith("ninety (90) days [1, 2].")
    assert judge.claims  # a part only a paraphrase states went to the judge
    rejected = check_answer(text, [CAUSE_1, CAUSE_2], Judge(False), terms=True, repair=True)
    assert rejected.sentences[0].verdict == "unsupported"


def test_the_items_of_a_list_of_conditions_are_parts() -> None:
    text = (
        "He may be dismissed if he fails to follow a lawful instruction within thirty (30) days "
        "of notice, or breaches a material term not cured within ninety (90) days [1]."
    )
    report = check_answer(text, [CAUSE_1, CAUSE_2], Judge(True), terms=True, repair=True)
    assert report.sentences[0].verdict == "supported"
    assert report.sentences[0].cited == (1, 2)


def test_the_documents_aliases_are_name_to_terms() -> None:
    fields = [
        DocumentFields(aliases=(("Acme Corp", "Distributor"), ("Acme Corp", "Seller"))),
        None,
        DocumentFields(aliases=(("European Medicines Agency", "EMA"), ("EMA", "ema"))),
    ]
    assert document_aliases(fields) == {
        "Acme Corp": ("Distributor", "Seller"),
        "European Medicines Agency": ("EMA",),
    }


EXHIBITIONS = passage(
    1,
    "Distributor shall demonstrate the Products at the following exhibitions: CeBIT and Computex.",
    source="distribution-agreement.pdf",
)


def _info(doc_id: int, fields: DocumentFields) -> DocumentInfo:
    return DocumentInfo(
        doc_id, "default", f"doc{doc_id}.pdf", "", "pdf", "", (), "", 0.0, 0, "ready", None, 0,
        0.0, fields=fields,
    )  # fmt: skip


class _Documents:
    """A reader that only lists the collection's documents."""

    vectors = None

    def documents(self, collection: str) -> list[DocumentInfo]:
        return [
            _info(1, DocumentFields(aliases=(("Acme Corp", "Distributor"),))),
            _info(2, DocumentFields(aliases=(("Other Ltd", "Supplier"),))),
        ]


def test_the_flow_reads_the_aliases_of_the_documents_shown() -> None:
    answerer = document_answerer(cast(PassageReader, _Documents()))
    shown: Sequence[Passage] = [EXHIBITIONS]  # its hit is document 1's
    assert hit().doc_id == 1
    found = answerer._aliases(shown, AnswerRequest("What must Acme show?", SearchFilter()))
    assert found == {"Acme Corp": ("Distributor",)}


def test_the_verified_answer_keeps_a_party_the_passage_names_by_its_role() -> None:
    said = "Acme Corp shall demonstrate the Products at CeBIT and Computex [1]."
    llm = FakeLLM(said)
    gen = answer_with_fallback(
        llm,
        "What must Acme show?",
        [EXHIBITIONS],
        lambda: "",
        aliases={"Acme Corp": ("Distributor",)},
    )
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            made = stop.value
            break
    assert made.fallback is None and made.text == said


VENUE = passage(
    1,
    "- Ana: so the agreement is to use the harbour hall location.",
    source="minutes/2025-01-08.md",
)
ROOMS = passage(
    2,
    "- Ben has booked the largest room in the harbour hall, which seats ~60 people.",
    source="minutes/2025-01-08.md",
)


def test_an_aside_in_parentheses_is_a_part_held_on_its_own_passage() -> None:
    text = "The harbour hall location (its largest room, which seats about 60 people) [1]."
    report = check_answer(text, [VENUE, ROOMS], Judge(True), terms=True, repair=True)
    s = report.sentences[0]
    assert s.verdict == "supported" and s.cited == (1, 2)
    invented = "The harbour hall location (its largest room, which seats about 90 people) [1]."
    wrong = check_answer(invented, [VENUE, ROOMS], Judge(True), terms=True, repair=True)
    assert "90" not in wrong.supported_text  # the aside's value is in no passage: cut


def test_the_words_of_a_linked_file_name_are_the_passages_words() -> None:
    shown = passage(
        1, "- The policy was approved https://example.org/files/OpenDocs_Remote_Work_Policy.pdf."
    )
    text = "The board approved the policy (the OpenDocs Remote Work Policy) [1]."
    report = check_answer(text, [shown], Judge(True), terms=True, repair=True)
    assert report.sentences[0].verdict == "supported" and not report.sentences[0].missing


class Recorder(Judge):
    def __init__(self) -> None:
        super().__init__(True)
        self.evidence: list[str] = []

    def judge(self, sentence: str, evidence: str) -> bool | None:
        self.evidence.append(evidence)
        return super().judge(sentence, evidence)


def test_the_judge_reads_the_claim_as_written_and_the_passages_names_for_its_parties() -> None:
    text = "Acme Corp has to present the Products at the trade fairs CeBIT and Computex [1]."
    judge = Recorder()
    report = check_answer(
        text, [EXHIBITIONS], judge, terms=True, aliases={"Acme Corp": ("Distributor",)}
    )
    assert report.sentences[0].judged
    assert judge.claims == [text.replace(" [1]", "")]
    assert judge.evidence[0].endswith('(In these passages "Distributor" is Acme Corp.)')
