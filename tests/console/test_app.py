"""The console's HTTP side through Starlette's test client, with the real broker and Redis behind it."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from lab.broker import EmbeddedBroker
from tests.console.helpers import fresh_settings, outputs, review_request, seed
from workers.console.app import COOKIE, ReviewConsole
from workers.console.auth import Session, SessionCodec, check_password, hash_password
from workers.settings import Settings

pytestmark = pytest.mark.integration

SCRIPT = "<script>alert('pwned')</script>"
GLOBEX = "Globex confidential merger figure"


class Clock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def settings(broker: EmbeddedBroker, redis_url: str, redis_prefix: str) -> Settings:
    reviewers = {"acme": {"rita": hash_password("rita-pw")}, "globex": {"gus": hash_password("gus-pw")}}
    return fresh_settings(
        broker.bootstrap, redis_url, redis_prefix, reviewers=reviewers, secret_key="k" * 32, session_ttl_s=600
    )


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    import asyncio

    hostile = review_request(
        "a1", "acme", answer=f"Northwind reported revenue of $4.8 billion in fiscal 2023. {SCRIPT}"
    )
    items = [
        hostile,
        review_request("a/2?#", "acme"),
        review_request("gx-secret-id", "globex", answer=f"{GLOBEX} $4.8 billion."),
    ]
    asyncio.run(seed(settings, items))
    console = ReviewConsole(settings, bootstrap=settings.kafka.bootstrap or "", clock=clock)
    with TestClient(console.app, base_url="http://testserver", follow_redirects=False) as test_client:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if asyncio.run(_count(settings)) == 3:
                break
            time.sleep(0.2)
        yield test_client


async def _count(settings: Settings) -> int:
    from workers.console.store import open_store

    store = open_store(settings)
    try:
        return await store.pending_count(tenant="acme") + await store.pending_count(tenant="globex")
    finally:
        await store.client.aclose()


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def _sign_in(client: TestClient, tenant: str, reviewer: str, password: str) -> str:
    page = client.get("/login")
    response = client.post(
        "/login",
        data={"tenant": tenant, "reviewer": reviewer, "password": password, "csrf": _csrf(page.text)},
    )
    assert response.status_code == 303, response.text
    return _csrf(client.get("/").text)


def test_passwords_are_hashed_and_sessions_signed() -> None:
    stored = hash_password("s3cret")
    assert "s3cret" not in stored and check_password("s3cret", stored) and not check_password("other", stored)
    assert not check_password("s3cret", "plain-text") and not check_password("s3cret", "scrypt$1$2$3$x$y")
    codec = SessionCodec(secret=b"key", ttl_s=60)
    session = Session.anonymous(ttl_s=60).sign_in(tenant="acme", reviewer="rita", ttl_s=60)
    cookie = codec.dump(session)
    assert codec.load(cookie) == session
    signature = cookie.split(".")[1]
    forged = codec.dump(session.sign_in(tenant="globex", reviewer="rita", ttl_s=60)).split(".")[0]
    assert codec.load(f"{forged}.{signature}") is None
    assert codec.load(cookie, now=time.time() + 61) is None
    assert SessionCodec(secret=b"other", ttl_s=60).load(cookie) is None


def test_sign_in_csrf_and_expiry(client: TestClient, clock: Clock) -> None:
    assert client.get("/").headers["location"].endswith("/login")
    page = client.get("/login")
    assert page.status_code == 200 and 'for="password"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert (
        "httponly" in page.headers["set-cookie"].lower()
        and "samesite=strict" in page.headers["set-cookie"].lower()
    )
    token = _csrf(page.text)
    bad = client.post(
        "/login", data={"tenant": "acme", "reviewer": "rita", "password": "nope", "csrf": token}
    )
    assert bad.status_code == 401 and "Unknown tenant, reviewer or password" in bad.text
    wrong_tenant = {"tenant": "globex", "reviewer": "rita", "password": "rita-pw", "csrf": token}
    assert client.post("/login", data=wrong_tenant).status_code == 401
    no_csrf = client.post("/login", data={"tenant": "acme", "reviewer": "rita", "password": "rita-pw"})
    assert no_csrf.status_code == 403
    csrf = _sign_in(client, "acme", "rita", "rita-pw")
    assert client.get("/").status_code == 200
    # A state change without the session's token is refused, and publishes nothing.
    assert client.post("/decide/a1", data={"action": "approve"}).status_code == 403
    assert client.post("/decide/a1", data={"action": "approve", "csrf": "x" * 32}).status_code == 403
    # A tampered cookie is no session at all.
    [jarred] = [c for c in client.cookies.jar if c.name == COOKIE]
    good = jarred.value or ""
    client.cookies.set(COOKIE, good[:-3] + "AAA", domain=jarred.domain, path=jarred.path)
    assert client.get("/").status_code == 303
    client.cookies.set(COOKIE, good, domain=jarred.domain, path=jarred.path)
    assert client.get("/").status_code == 200 and csrf
    clock.offset = 601  # the session has expired
    assert client.get("/").headers["location"].endswith("/login")


def test_a_tenant_sees_and_touches_only_its_own_items(client: TestClient, settings: Settings) -> None:
    import asyncio

    csrf = _sign_in(client, "acme", "rita", "rita-pw")
    queue = client.get("/").text
    assert "2 pending" in queue and "a1" in queue and "a/2?#" in queue
    assert "gx-secret-id" not in queue and GLOBEX not in queue
    assert queue.index(">a1<") < queue.index(">a/2?#<")  # oldest first
    missing = client.get("/items/gx-secret-id")
    assert missing.status_code == 404 and GLOBEX not in missing.text
    assert client.post("/decide/gx-secret-id", data={"action": "approve", "csrf": csrf}).status_code == 404
    assert client.get("/items/nope").status_code == 404
    # An id with "/", "?" and "#" is one item of its own.
    odd = client.get("/items/a%2F2%3F%23")
    assert odd.status_code == 200 and "a/2?#" in odd.text
    assert asyncio.run(outputs(settings)) == []


def test_text_is_escaped_and_deciding_publishes_once(client: TestClient, settings: Settings) -> None:
    import asyncio

    csrf = _sign_in(client, "acme", "rita", "rita-pw")
    page = client.get("/items/a1")
    assert page.status_code == 200
    assert SCRIPT not in page.text and "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in page.text
    assert '<mark id="ev-c0-0" class="evidence"' in page.text
    assert (
        "CONTRADICTED" in page.text and "REPLACE" in page.text and "figure $4.8 billion in claim" in page.text
    )
    done = client.post("/decide/a1", data={"action": "edit", "text": "Edited <b>answer</b>.", "csrf": csrf})
    assert done.status_code == 303 and "decided=a1&as=edited" in done.headers["location"]
    again = client.post("/decide/a1", data={"action": "reject", "note": "late", "csrf": csrf})
    assert again.status_code == 409 and "already edited by rita" in again.text
    [out] = asyncio.run(outputs(settings))
    assert out.id == "a1" and out.corrected == "Edited <b>answer</b>." and not out.needs_review
    decided = client.get("/items/a1").text
    assert "Edited &lt;b&gt;answer&lt;/b&gt;." in decided and "approve-form" not in decided
