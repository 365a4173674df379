"""The router looks at the documents before turning a question away as off-topic: a small
handbook, the bundled model, the probe `services.build` wires in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.intents.probe import keyword_overlap

pytestmark = pytest.mark.slow

HANDBOOK = """# Employee handbook

## Equipment

Every new employee gets a laptop on their first day. You can get a new laptop every three
years, or sooner when yours is broken: ask the IT desk.

## Leave

Every full-time employee gets 28 days of paid annual leave per year.
"""


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("probe")
    docs = root / "docs"
    docs.mkdir()
    (docs / "handbook.md").write_text(HANDBOOK)
    with Assistant(data_dir=root / "data") as a:
        a.ingest([Path(docs)])
        yield a


def test_probe_measures_the_share_of_message_words_the_documents_hold(
    assistant: Assistant,
) -> None:
    overlap = keyword_overlap(lambda: inside(assistant).parts.conversation.get().answerer.reader)
    assert overlap("Can I get a new laptop?") == 1.0
    assert overlap("Who directed Jurassic Park?") == 0.0


def test_question_the_handbook_covers_is_not_off_topic(assistant: Assistant) -> None:
    probed = inside(assistant).parts.conversation.get().router  # as `services.build` wires it
    assert probed.route("Can I get a new laptop?", has_history=False).intent == "question"
    assert probed.route("Who directed Jurassic Park?", has_history=False).intent == "off_topic"


def test_the_assistant_answers_a_question_its_documents_cover(assistant: Assistant) -> None:
    answer = assistant.ask("Can I get a new laptop?")
    assert answer.intent == "question"
    assert answer.citations
