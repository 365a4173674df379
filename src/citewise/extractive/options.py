"""What the extractive answerer weighs, and by how much (calibrated on the dev set)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from citewise.extractive.late_interaction import LateInteraction
from citewise.rules import RulePack, rule_pack

# Between answerable questions and near misses on the dev set (docs/history/tuning-log.md); raise it
# to refuse more.
ABSTAIN_BELOW = 0.5
# A capitalised name in the question ("with Poetry") that no passage contains lowers the best
# score by this much: usually the documents are about something else.
MISSING_NAME_PENALTY = 0.1


@dataclass(frozen=True, slots=True)
class ExtractiveOptions:
    threshold: float = ABSTAIN_BELOW
    max_sentences: int = 3
    # sentences embedded per question: more cost time without better answers
    max_candidates: int = 32
    # the reranker orders passages well, so their rank counts too, but not so much that a top
    # passage alone clears the abstention threshold (docs/history/tuning-log.md)
    cosine_weight: float = 0.7
    lexical_weight: float = 0.3
    rank_weight: float = 0.2
    # the best sentence must clear this share of the threshold by what it says and where it
    # stands in its document (all but its passage's rank bonus), not only by standing in the
    # top passage (the rank bonus alone once carried an unrelated list over the threshold)
    content_share: float = 0.76
    # "What is X?" / "What does X do?": a sentence that defines X ("A descriptor is …", the
    # opening sentence under a heading naming X) gets this much on top
    definition_weight: float = 0.1
    # a question naming an identifier: sentences under a heading naming it (the entry that
    # documents it) get this much on top of those that only mention it
    heading_weight: float = 0.1
    # a sentence gets up to this much by the share of the other passages that come from its
    # document: the page most passages come from is usually the page about the question. It
    # picks between sentences and does not count toward the abstention threshold
    document_weight: float = 0.2
    # how much lower a part's best sentence from the first pick's document may score and
    # still be preferred to another document's
    same_source_margin: float = 0.1
    # a later part of a multi-part question leans on the earlier ones ("… and in which mode
    # must *the file* be opened?"): its sentences are scored this share by the whole question
    later_part_context: float = 0.3
    # a runner-up for a one-part question must score this share of the best one
    relative_floor: float = 0.85
    # … or this share, when it stands right before or after the best one in its passage
    adjacent_floor: float = 0.75
    near_duplicate: float = 0.6  # Jaccard of stems above which two sentences say the same
    min_words: int = 4
    # what was already said, as `norm_sentence` gives it. "Tell me more" wants something new
    # from the same source ("exclude"): sentences contained in it are left out, only the
    # passages it was taken from are read on (their documents when those passages have
    # little left; all passages when none is among them), any of their sentences above
    # `threshold` may join the best one, and the few right after a said sentence, which
    # continue where the answer stopped, get `said_bonus`. "Simplify that" restates it: its
    # sentences get `said_bonus` ("prefer").
    already_said: str = ""
    said_mode: Literal["exclude", "prefer"] = "exclude"
    said_bonus: float = 0.15
    # "Changed in version 3.10: …" notes answer questions about versions, not what a thing is
    # now: they lose this much unless the question asks about versions or changes
    version_note_penalty: float = 0.1
    # release notes describe things as they were; their sentences lose this much unless the
    # question is about versions or changes (the reranker demotes their passages likewise)
    release_notes_penalty: float = 0.1
    # "simplify that": per word beyond `short_words`, a sentence loses this much
    length_penalty: float = 0.0
    short_words: int = 20
    max_embed_chars: int = 300
    # a sentence whose form fits the answer the question expects (a value, a number, a
    # decision, a date, a cause, a place: `extractive.scoring.type_fit`) gets this much on
    # top; like `document_weight` it picks between sentences and does not count toward the
    # abstention threshold
    type_weight: float = 0.1
    # a sentence whose document is titled by the names the question asks about ("Spanner" in
    # "How many tablets is a Spanner server responsible for?") gets up to this much: another
    # paper's sentence may say the same of its own system. Like `type_weight` it picks between
    # sentences and does not count toward the abstention threshold
    name_weight: float = 0.1
    # a sentence speaking of the question's case ("non-billable" for "if it isn't billable")
    # gets this much, one speaking of the opposite case loses it (`extractive.polarity`); a
    # prior like `type_weight`. Off: it gained tuning-half answers and lost test-half ones
    # (docs/check-sets.md, sentence choice)
    polarity_weight: float = 0.0
    # a sentence naming the weekday, month or year the question asks about gets this much,
    # one naming only others of that kind ("on Fridays" for "on Mondays?") loses it
    # (`calendar_fit`); like `type_weight` it picks between sentences, not the threshold
    calendar_weight: float = 0.3
    # each of the question's content words that no passage holds lowers the evidence by this
    # much ("the yearly budget" asked of documents that never mention one). Off: paraphrased
    # questions use words their answers do not, and it refused them (docs/history/answer-quality.md)
    unseen_word_penalty: float = 0.0
    # the sentence right after the best one joins it when only that one states the value,
    # number, date or cause asked for (a contiguous span of the passage). Off: it moved no
    # tuning half's answer, and extra value-bearing sentences risk stating values
    stated_neighbour: bool = False
    # a sentence of at most `terse_words` words also matches the question as read after the
    # sentence before it (or its heading), at this share (`answer.terse`; 0: off)
    terse_context_share: float = 1.0
    terse_words: int = 12
    # an answer drawn from other passages also quotes the top passage's best sentence
    anchor_top: bool = True
    # a sentence that leans on what came before ("It …", "This release …") is embedded after
    # its passage's heading path, which names what it refers to
    anaphor_heading: bool = False
    # the closest passage is the first passage's window around its best sentence (else the
    # window around the best sentence of any passage)
    passage_from_first: bool = True
    # an answer to a one-part question that the answer calibration doubts
    # (`outcome.states_confidently`) is shown as the labelled closest passage
    doubt_answers: bool = True
    # token-level evidence: the top passages' sentences gain `late_weight` × (their MaxSim of
    # the question's tokens − the mean over those sentences) (`extractive.late_interaction`;
    # None: off). Like `type_weight` it picks between sentences and does not count toward
    # the abstention threshold
    late_interaction: LateInteraction | None = None
    late_weight: float = 0.0
    # a candidate joining several clauses (`extractive.clauses`: ";", ": ", ", and …",
    # ", which …", a dash, a long aside, a lead-in's items) is also matched by its best clause:
    # its cosine gains `clause_share` × (the best clause's cosine − its own, when higher);
    # 1: the better of the two. 0: off (no clause is embedded). Off, like the two below: no
    # setting helped most tuning halves (docs/check-sets.md, clauses inside a sentence)
    clause_share: float = 0.0
    # … the gain as a prior (like `type_weight`: it picks between sentences and does not count
    # toward the abstention threshold) rather than part of the sentence's match
    clause_prior: bool = False
    # a pick whose clause matches better than the whole sentence shows that clause alone
    # (`clauses.as_span`); the citation still quotes the sentence
    clause_answer: bool = False
    # the question's names that named the passages' documents (retrieval found them in those
    # documents' titles, parties or text), and the roles those documents give them: not
    # missing from passages that use the roles instead ("Distributor shall …"), so they cost
    # no `MISSING_NAME_PENALTY`, and left out of the word overlap, which reads the ask
    document_names: frozenset[str] = frozenset()
    # the question's words in a passage's own heading count for every sentence under it in
    # the word overlap, spelt there or not: they are the subject all of them share, so the
    # ask's words choose between them (a slide titled "A03:2025 Software Supply Chain
    # Failures" for "Why is supply chain ranked third?": "It is ranked #3 because: …"). Like
    # `type_weight` it picks between sentences and does not count toward the threshold
    heading_is_subject: bool = True
    # the genre rules in use (`citewise.rules`): none by default
    rules: RulePack = field(default_factory=lambda: rule_pack(None))
