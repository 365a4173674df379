"""Tenant isolation through a real `citewise serve`: two tenants' clients ask about their
own and each other's made-up facts through /chat/, /api/query and /v1/chat/completions;
no response to one tenant ever holds the other's passages, facts or document names."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from api.live_server import LiveServer, serve
from citewise.assistant import Assistant
from citewise.auth.passwords import hash_password
from citewise.auth.store import AuthStore

pytestmark = pytest.mark.integration
FACTS_PER_TENANT = 18  # each asked by the other tenant through 6 routes: 216 probes
OWN_CHECKS = 6
TENANTS = ("tenant-a", "tenant-b")
SYLLABLES = [
    "ka",
    "zo",
    "vri",
    "mel",
    "tor",
    "quen",
    "dax",
    "lu",
    "pim",
    "sor",
    "ve",
    "nix",
    "gal",
    "hob",
    "rut",
    "fe",
]


@dataclass(frozen=True)
class Fact:
    tenant: str
    source: str
    device: str
    place: str
    value: str

    @property
    def sentence(self) -> str:
        return f"The {self.device} pump at {self.place} is calibrated to {self.value} kilopascals."

    @property
    def question(self) -> str:
        return f"What is the {self.device} pump at {self.place} calibrated to?"

    @property
    def markers(self) -> tuple[str, ...]:
        """What would show this fact leaked: its invented names, value and file name."""
        return (self.device.lower(), self.place.lower(), self.value, self.source.lower())


def _made_up_facts() -> dict[str, list[Fact]]:
    rng = random.Random(20)
    used: set[str] = set()

    def word() -> str:
        while True:
            made = "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()
            if made not in used:
                used.add(made)
                return made

    values = rng.sample(range(10000, 99999), 2 * FACTS_PER_TENANT)
    return {
        tenant: [
            Fact(tenant, f"{tenant}-{word().lower()}.md", word(), word(), str(values.pop()))
            for _ in range(FACTS_PER_TENANT)
        ]
        for tenant in TENANTS
    }


HANDBOOK = (
    "# Pumps\n\nEvery pump is calibrated in kilopascals by the site engineer. "
    "The engineer Ravenholt signs every calibration sheet.\n"
)
COMMON = "# Valves\n\nThe common valve torque is 5127 newton metres for every site.\n"


@dataclass(frozen=True)
class World:
    server: LiveServer
    facts: dict[str, list[Fact]]
    headers: dict[str, dict[str, str]]  # tenant → its client's credential


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data = tmp_path_factory.mktemp("isolation-data")
    facts = _made_up_facts()
    with Assistant(data_dir=data, embedder="hashing") as assistant:
        for tenant, tenant_facts in facts.items():
            folder = tmp_path_factory.mktemp(tenant)
            for fact in tenant_facts:
                (folder / fact.source).write_text(
                    f"# {fact.device} pump\n\n{fact.sentence} It is checked every spring.\n",
                    encoding="utf-8",
                )
            if tenant == "tenant-a":  # a passage the global collection holds too
                (folder / "torque.md").write_text(COMMON, encoding="utf-8")
            assistant.ingest([folder], collection=tenant)
        shared = tmp_path_factory.mktemp("global")
        (shared / "handbook.md").write_text(HANDBOOK, encoding="utf-8")
        (shared / "torque-global.md").write_text(COMMON, encoding="utf-8")
        assistant.ingest([shared], collection="default")
    store = AuthStore(data / "citewise.db")
    for tenant, user in zip(TENANTS, ("alice", "bert"), strict=True):
        store.create_group(tenant)
        store.create_collection(tenant, owner_group=tenant)
        store.create_user(user, hash_password(f"{user}-password"), home_collection=tenant)
        store.set_member(tenant, user, member=True)
    store.close()
    env = {"CITEWISE_AUTH_REQUIRED": "true", "CITEWISE_RATE_LIMIT": ""}
    with serve(data, env) as server:
        token = httpx.post(
            f"{server.url}/auth/token", data={"username": "alice", "password": "alice-password"}
        ).json()["access_token"]
        bert = httpx.post(
            f"{server.url}/auth/token", data={"username": "bert", "password": "bert-password"}
        ).json()["access_token"]
        key = httpx.post(
            f"{server.url}/auth/keys", headers={"Authorization": f"Bearer {bert}"},
            json={"scopes": ["read"]},
        ).json()["key"]  # fmt: skip
        headers = {  # one tenant by access token, the other by API key (as OpenAI clients send it)
            "tenant-a": {"Authorization": f"Bearer {token}"},
            "tenant-b": {"Authorization": f"Bearer {key}"},
        }
        yield World(server, facts, headers)


def _ask(client: httpx.Client, route: str, question: str, session: str) -> str:
    """The whole response body of one route, as text."""
    if route in ("/chat/", "/chat/stream"):
        body = {"message": question, "session_id": session, "create_session": True}
        reply = client.post(route, json=body)
    elif route == "/api/query":
        reply = client.post(route, json={"query": question})
    elif route == "/search":
        reply = client.get(route, params={"q": question})
    else:
        messages = [{"role": "user", "content": question}]
        stream = route.endswith("#stream")
        reply = client.post(
            route.removesuffix("#stream"),
            json={"model": "citewise", "messages": messages, "stream": stream},
        )
    assert reply.status_code == 200, f"{route}: {reply.status_code} {reply.text[:300]}"
    return reply.text


# the SSE faces too: a stream is read to its end and searched like a body
ROUTES = (
    "/chat/", "/chat/stream", "/api/query", "/v1/chat/completions", "/v1/chat/completions#stream",
    "/search",
)  # fmt: skip


def _other(tenant: str) -> str:
    return TENANTS[1 - TENANTS.index(tenant)]


@pytest.mark.parametrize("tenant", TENANTS)
def test_no_client_ever_receives_another_tenants_passages_or_document_names(
    world: World, tenant: str
) -> None:
    foreign = world.facts[_other(tenant)]
    foreign_markers = {m for fact in foreign for m in fact.markers} | {_other(tenant)}
    probes = 0
    with httpx.Client(base_url=world.server.url, headers=world.headers[tenant], timeout=60) as c:
        for i, fact in enumerate(foreign):
            for route in ROUTES:
                body = _ask(c, route, fact.question, session=f"probe-{i}").lower()
                # the question's own names may be echoed back (status events, rewrites)
                asked = {fact.device.lower(), fact.place.lower()}
                leaked = sorted(m for m in foreign_markers - asked if m in body)
                assert not leaked, f"{tenant} got {leaked} through {route} for {fact.question!r}"
                probes += 1
        for route in ROUTES:  # the document list command names documents
            body = _ask(c, route, "list documents", session="listing").lower()
            assert not [m for m in foreign_markers if m in body], route
            assert world.facts[tenant][0].source.lower() in body or route != "/chat/"
    assert probes == FACTS_PER_TENANT * len(ROUTES)


@pytest.mark.parametrize("tenant", TENANTS)
def test_each_client_is_answered_from_its_own_collection(world: World, tenant: str) -> None:
    """The control that makes the probes meaningful: the same server and questions do
    return passages, the client's own."""
    own = world.facts[tenant][:OWN_CHECKS]
    with httpx.Client(base_url=world.server.url, headers=world.headers[tenant], timeout=60) as c:
        for fact in own:
            for route in ROUTES:
                body = _ask(c, route, fact.question, session="own").lower()
                assert fact.value in body, f"{route} did not answer {fact.question!r}: {body[:300]}"


def test_collections_models_and_documents_of_another_tenant_are_out_of_reach(
    world: World,
) -> None:
    url = world.server.url
    alice = world.headers["tenant-a"]
    models = httpx.get(f"{url}/v1/models", headers=alice).json()
    names = {c["name"] for c in httpx.get(f"{url}/collections", headers=alice).json()}
    assert names == {"tenant-a", "user-alice", "default"}
    assert {m["id"] for m in models["data"]} == names  # granted ones too, never tenant-b
    question = world.facts["tenant-b"][0].question
    for method, path, body in (
        ("GET", "/documents?collection=tenant-b", None),
        ("POST", "/api/query", {"query": question, "collection": "tenant-b"}),
        ("POST", "/chat/", {"message": question, "collection": "tenant-b"}),
        ("POST", "/v1/chat/completions",
         {"model": "tenant-b", "messages": [{"role": "user", "content": question}]}),
    ):  # fmt: skip
        reply = httpx.request(method, f"{url}{path}", headers=alice, json=body)
        assert reply.status_code in (403, 404), f"{path}: {reply.status_code}"
        assert world.facts["tenant-b"][0].value not in reply.text


def test_the_same_session_id_is_a_different_conversation_per_client(world: World) -> None:
    url = world.server.url
    a_fact = world.facts["tenant-a"][1]
    with httpx.Client(base_url=url, headers=world.headers["tenant-a"], timeout=60) as alice:
        _ask(alice, "/chat/", a_fact.question, session="same-id")
    reply = httpx.get(f"{url}/chat/history/same-id", headers=world.headers["tenant-b"])
    text = json.dumps(reply.json()) if reply.status_code == 200 else reply.text
    assert a_fact.device.lower() not in text.lower() and a_fact.value not in text
    listed = httpx.get(f"{url}/sessions", headers=world.headers["tenant-b"]).json()
    assert "same-id" not in [s["session_id"] for s in listed]


def _wait_for_job(client: httpx.Client, job_id: str) -> dict[str, object]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(f"/jobs/{job_id}").json()
        if job["state"] in ("done", "failed"):
            return dict(job)
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


def test_chat_documents_are_seen_in_that_chat_only(world: World) -> None:
    note = b"# Locker\n\nThe quenvrimel locker code is 80417.\n"
    question = {"message": "What is the quenvrimel locker code?"}
    url = world.server.url
    alice = httpx.Client(base_url=url, headers=world.headers["tenant-a"], timeout=60)
    bert = httpx.Client(base_url=url, headers=world.headers["tenant-b"], timeout=60)
    with alice, bert:
        uploaded = alice.post("/chat/c1/documents", files={"files": ("locker.md", note)})
        assert uploaded.status_code == 202, uploaded.text
        assert _wait_for_job(alice, uploaded.json()["job_id"])["state"] == "done"
        assert "80417" in alice.post("/chat/c1/stream", json=question).text
        assert [d["source"] for d in alice.get("/chat/c1/documents").json()["documents"]] == [
            "locker.md"
        ]
        for client, path in (
            (alice, "/chat/c2/stream"),
            (alice, "/chat/"),
            (bert, "/chat/c1/stream"),
        ):
            reply = client.post(path, json=question)
            assert reply.status_code == 200, reply.text
            assert "80417" not in reply.text and "locker.md" not in reply.text, path
        assert bert.get("/chat/c1/documents").json()["documents"] == []
        job = uploaded.json()["job_id"]
        assert bert.get(f"/jobs/{job}").status_code == 404  # its file names are alice's
        assert job not in bert.get("/jobs").text


def test_a_client_cannot_upload_into_another_tenants_collection(world: World) -> None:
    with httpx.Client(
        base_url=world.server.url, headers=world.headers["tenant-a"], timeout=60
    ) as alice:
        reply = alice.post(
            "/documents", params={"collection": "tenant-b"},
            files={"files": ("planted.md", b"# Planted\n\nPlanted text for tenant b.\n")},
        )  # fmt: skip
        assert reply.status_code == 403, reply.text


@pytest.mark.parametrize("tenant", TENANTS)
def test_a_question_searches_the_own_collection_then_the_global_one(
    world: World, tenant: str
) -> None:
    with httpx.Client(base_url=world.server.url, headers=world.headers[tenant], timeout=60) as c:
        for route in ("/chat/", "/api/query", "/v1/chat/completions"):
            body = _ask(c, route, "Who signs every calibration sheet?", session="global")
            assert "Ravenholt" in body, f"{route}: {body[:300]}"
        hits = c.get("/search", params={"q": "common valve torque newton metres"}).json()["hits"]
    torque = [h["source"] for h in hits if "5127" in h["text"]]
    # the same passage in both: once, from the client's own collection when it has it
    assert torque == (["torque.md"] if tenant == "tenant-a" else ["torque-global.md"])
