"""The intent router on the bundled MiniLM embedder: chit-chat is recognised, and genuine
document questions from many domains are never turned away."""

from __future__ import annotations

import pytest

from citewise.chat.intents.router import IntentRouter

pytestmark = pytest.mark.slow

CHIT_CHAT = [
    ("hello", "greeting"),
    ("Hey! How's your day going?", "greeting"),
    ("good evening", "greeting"),
    ("yo what's good", "greeting"),
    ("hiya, nice to meet you", "greeting"),
    ("many thanks!", "gratitude"),
    ("much obliged", "gratitude"),
    ("great, that's exactly what I needed, thank you", "gratitude"),
    ("appreciate the help!", "gratitude"),
    ("thx, bye", "gratitude"),
    ("lkjhlkjh poiuy", "garbage"),
    ("...", "garbage"),
    ("zzzzzz", "garbage"),
    ("ghfjdk", "garbage"),
]

OFF_TOPIC = [
    "What's the capital city of Japan?",
    "Who directed Jurassic Park?",
    "How far is the moon from the earth?",
    "Any tips for a first date?",
    "Where can I find a cheap burger in Chicago?",
    "What's the best pasta recipe?",
    "What's the stock price of Apple?",
    "Tell me a funny story",
    "What's your favourite food?",
    "Which phone has the best camera?",
    "Who won the Champions League?",
    "What should I name my dog?",
    "How do I make a margarita?",
    "What's the best vegan restaurant in Paris?",
    "Do you dream?",
    "Will it be sunny in Madrid on Saturday?",
]

DOCUMENT_QUESTIONS = [
    "How do I configure logging to write to a file?",
    "What does the --force flag do in the install script?",
    "Which Python version is required?",
    "How do I create a foreign key in SQLite?",
    "What is the default page size in the REST API?",
    "How do I restart the nginx service?",
    "What does the error 'connection refused' mean in the troubleshooting guide?",
    "How can I enable TLS for the broker?",
    "What is the maximum number of retries before the job fails?",
    "How do I grant read-only access to a user in PostgreSQL?",
    "Which environment variables does the CLI read?",
    "How do I mount a network share on boot?",
    "What is the difference between a list and a tuple?",
    "How are passwords hashed before they are stored?",
    "Where are the log files written on macOS?",
    "What does json.loads do with duplicate keys?",
    "How many days of parental leave does the handbook allow?",
    "What is the reimbursement limit for client dinners?",
    "Who approves overtime requests?",
    "What does the travel policy say about flying business class?",
    "Is the company canteen open on weekends?",
    "What is the deadline for submitting timesheets?",
    "Which vaccines does the guide recommend before travelling abroad?",
    "What is the warranty period for the dishwasher?",
    "How do I descale the coffee machine?",
    "What temperature should chicken be cooked to according to the food safety manual?",
    "What were the main risks listed in the annual report?",
    "Who are the parties to the lease agreement?",
    "What does section 4.2 of the specification require?",
    "How is the bonus calculated in the compensation plan?",
    "What does the study conclude about sleep and memory?",
    "Which football pitches can employees book through the facilities portal?",
    "What is the weather sensor's sampling interval?",
    "Who won the award mentioned in the newsletter?",
    "Is it safe to delete the cache directory while the server runs?",
    "When should I use a generator instead of a list comprehension?",
    "Summarize the deployment guide.",
    "Why does the build fail when the lock file is missing?",
]


@pytest.fixture(scope="module")
def router() -> IntentRouter:
    from citewise.embed import create_embedder

    return IntentRouter(create_embedder("minilm"))


@pytest.mark.parametrize(("text", "intent"), CHIT_CHAT)
def test_chit_chat_is_recognised(router: IntentRouter, text: str, intent: str) -> None:
    assert router.route(text, has_history=False).intent == intent


def test_most_off_topic_requests_are_recognised(router: IntentRouter) -> None:
    missed = [t for t in OFF_TOPIC if router.route(t, has_history=False).intent != "off_topic"]
    assert len(missed) <= len(OFF_TOPIC) // 3, missed


@pytest.mark.parametrize("has_history", [False, True])
def test_document_questions_are_never_turned_away(router: IntentRouter, has_history: bool) -> None:
    assert len(DOCUMENT_QUESTIONS) >= 30
    wrong = {
        t: routed.intent
        for t in DOCUMENT_QUESTIONS
        if (routed := router.route(t, has_history=has_history)).intent != "question"
    }
    assert wrong == {}


def test_paraphrased_conversation_requests_are_recognised(router: IntentRouter) -> None:
    assert router.route("that's way over my head", has_history=True).intent == "simplify"
    assert router.route("give me the full technical picture", has_history=True).intent == "deepen"
    assert router.route("could you give a concrete example?", has_history=True).intent == "followup"
