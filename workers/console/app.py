"""The review console as an ASGI app (Starlette): sign in, the tenant's queue, one item, decide.

Usage::

    console = ReviewConsole(settings, bootstrap="127.0.0.1:9092")
    uvicorn.run(console.app, host="127.0.0.1", port=8790)     # `woodpecker review serve` does this

    # Inside another ASGI server: mount the app and run the console's start/stop in that server's lifespan.
    parent = Starlette(routes=[Mount("/review", app=console.app)], lifespan=...)  # await console.start()

The app owns: the Redis store, the review topic consumer (`consume=True`), the decision publisher, and a
recovery loop for decisions whose console died. Every page and action is scoped to the session's tenant
on the server: another tenant's item id is a 404, like an id that does not exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from workers.console.auth import Session, SessionCodec, check_password, hash_password
from workers.console.decide import Conflict, Decider, NotFound
from workers.console.store import DecisionKind, Item, ReviewStore, open_store
from workers.console.sync import ReviewSync
from workers.console.views import age_text, claim_views, diff_segments, document_views
from workers.settings import Settings

__all__ = ["COOKIE", "ReviewConsole"]

COOKIE = "woodpecker_review"
_HERE = Path(__file__).resolve().parent
_MAX_FORM_BYTES = 1_000_000
_ACTIONS: dict[str, DecisionKind] = {"approve": "approved", "edit": "edited", "reject": "rejected"}
# The page runs nothing but its own script and style: an injected <script> could not run even unescaped.
_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


@functools.cache
def _dummy_hash() -> str:
    """Checked when the reviewer is unknown, so a wrong name takes as long as a wrong password."""
    return hash_password(secrets.token_urlsafe(12))


log = logging.getLogger(__name__)
Handler = Callable[[Request, Session], Awaitable[Response]]


class ReviewConsole:
    """The console's resources and its Starlette app (`app`); `start`/`stop` run in the app's lifespan."""

    def __init__(
        self,
        settings: Settings,
        *,
        bootstrap: str,
        consume: bool = True,
        store: ReviewStore | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.bootstrap = bootstrap
        self.consume = consume
        self.clock = clock
        self.store = store or open_store(settings)
        self.decider = Decider(settings, store=self.store, bootstrap=bootstrap, clock=clock)
        self.sync = ReviewSync(settings, store=self.store, bootstrap=bootstrap)
        secret = settings.review.secret_key
        if secret is None:
            log.warning("review.secret_key is not set: sessions end when this console restarts")
        key = secret.get_secret_value().encode() if secret else secrets.token_bytes(32)
        self.sessions = SessionCodec(secret=key, ttl_s=settings.review.session_ttl_s)
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(_HERE / "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        self.templates = Jinja2Templates(env=env)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.app = Starlette(routes=self._routes(), lifespan=self._lifespan)

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        await self.decider.start()
        await self.decider.recover()
        self._stop.clear()
        self._tasks.append(asyncio.create_task(self._recover_loop()))
        if self.consume:
            await self.sync.start()
            self._tasks.append(asyncio.create_task(self.sync.run_until(self._stop)))

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        await self.sync.stop()
        await self.decider.stop()
        await self.store.client.aclose()

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        await self.start()
        try:
            yield
        finally:
            await self.stop()

    async def _recover_loop(self) -> None:
        every = self.settings.review.lease_s / 2
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=every)
            try:
                await self.decider.recover()
            except Exception:
                log.exception("review recovery failed; trying again in %.0f s", every)

    # ---- plumbing ----------------------------------------------------------------------------

    def _routes(self) -> list[Route | Mount]:
        return [
            Route("/", self._wrap(self.queue, signed_in=True), name="queue"),
            Route("/login", self._wrap(self.login_page), methods=["GET"], name="login"),
            Route("/login", self._wrap(self.login), methods=["POST"], name="login_post"),
            Route("/logout", self._wrap(self.logout), methods=["POST"], name="logout"),
            Route("/items/{answer_id:path}", self._wrap(self.item, signed_in=True), name="item"),
            Route(
                "/decide/{answer_id:path}",
                self._wrap(self.decide, signed_in=True),
                methods=["POST"],
                name="decide",
            ),
            Route("/healthz", self.health, name="health"),
            Mount("/static", app=StaticFiles(directory=_HERE / "static"), name="static"),
        ]

    def _wrap(self, handler: Handler, *, signed_in: bool = False) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            now = self.clock()
            session = self.sessions.load(request.cookies.get(COOKIE), now=now)
            session = session or Session.anonymous(ttl_s=self.settings.review.session_ttl_s, now=now)
            if signed_in and not session.signed_in:
                response: Response = RedirectResponse(request.url_for("login"), status_code=303)
            elif request.method == "POST" and not session.check_csrf((await _form(request)).get("csrf")):
                response = PlainTextResponse(
                    "Invalid or missing CSRF token: reload the page.", status_code=403
                )
            else:
                response = await handler(request, session)
            return self._finish(request, response, getattr(request.state, "session", session))

        return endpoint

    def _finish(self, request: Request, response: Response, session: Session) -> Response:
        response.headers.update(_SECURITY_HEADERS)
        response.set_cookie(
            COOKIE,
            self.sessions.dump(session),
            max_age=max(0, int(session.expires - self.clock())),
            path=request.scope.get("root_path") or "/",
            httponly=True,
            secure=self.settings.review.secure_cookies,
            samesite="strict",
        )
        return response

    def _page(
        self, request: Request, session: Session, name: str, status: int = 200, **context: Any
    ) -> Response:
        base = {"session": session, "csrf": session.csrf, "item_url": lambda i: _item_url(request, i)}
        return self.templates.TemplateResponse(request, name, base | context, status_code=status)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok")

    # ---- pages -------------------------------------------------------------------------------

    async def login_page(self, request: Request, session: Session) -> Response:
        return self._page(request, session, "login.html", error=None, tenant="", reviewer="")

    async def login(self, request: Request, session: Session) -> Response:
        form = await _form(request)
        tenant, reviewer = form.get("tenant", "").strip(), form.get("reviewer", "").strip()
        stored = self.settings.review.reviewers.get(tenant, {}).get(reviewer)
        ok = check_password(form.get("password", ""), stored or _dummy_hash()) and stored is not None
        if not ok:
            error = "Unknown tenant, reviewer or password."
            return self._page(
                request, session, "login.html", 401, error=error, tenant=tenant, reviewer=reviewer
            )
        request.state.session = session.sign_in(
            tenant=tenant, reviewer=reviewer, ttl_s=self.settings.review.session_ttl_s, now=self.clock()
        )
        return RedirectResponse(request.url_for("queue"), status_code=303)

    async def logout(self, request: Request, session: Session) -> Response:
        request.state.session = Session.anonymous(ttl_s=self.settings.review.session_ttl_s, now=self.clock())
        return RedirectResponse(request.url_for("login"), status_code=303)

    async def queue(self, request: Request, session: Session) -> Response:
        tenant = session.tenant or ""
        items = await self.store.pending(tenant=tenant)
        decided = await self.store.decided(tenant=tenant, limit=20)
        now = self.now_ms()
        return self._page(
            request,
            session,
            "queue.html",
            items=items,
            decided=decided,
            age=lambda i: age_text(i.queued_ms, now),
            notice=_notice(request),
        )

    async def item(self, request: Request, session: Session) -> Response:
        tenant, answer_id = session.tenant or "", request.path_params["answer_id"]
        item = await self.store.get(tenant=tenant, answer_id=answer_id)
        if item is None:
            return self._page(request, session, "missing.html", 404, answer_id=answer_id)
        pending = [i.id for i in await self.store.pending(tenant=tenant)]
        here = pending.index(item.id) if item.id in pending else -1
        previous = pending[here - 1] if here > 0 else None
        # From a decided item, "next" is the oldest pending one.
        following = pending[here + 1] if 0 <= here < len(pending) - 1 else None
        following = pending[0] if here < 0 and pending else following
        corrected, age = item.request.corrected, age_text(item.queued_ms, self.now_ms())
        return self._page(
            request, session, "item.html", item=item, c=corrected, age=age,
            diff=diff_segments(corrected.original, corrected.corrected), claims=claim_views(item.request),
            documents=document_views(item.request), position=here + 1, pending=len(pending),
            prev=previous, next=following,
            decide_url=_item_url(request, item, route="decide"), notice=_notice(request),
        )  # fmt: skip

    async def decide(self, request: Request, session: Session) -> Response:
        tenant, answer_id = session.tenant or "", request.path_params["answer_id"]
        form = await _form(request)
        kind = _ACTIONS.get(form.get("action", ""))
        if kind is None:
            return PlainTextResponse("Unknown action.", status_code=400)
        text = form.get("text") if kind == "edited" else None
        if kind == "edited" and not (text or "").strip():
            return PlainTextResponse("The edited answer is empty.", status_code=400)
        try:
            await self.decider.decide(
                tenant=tenant, answer_id=answer_id, kind=kind, reviewer=session.reviewer or "unknown",
                note=form.get("note", "").strip()[:2000], text=text,
            )  # fmt: skip
        except NotFound:
            return self._page(request, session, "missing.html", 404, answer_id=answer_id)
        except Conflict as exc:
            item = await self.store.get(tenant=tenant, answer_id=answer_id)
            return self._page(
                request, session, "conflict.html", 409, answer_id=answer_id, item=item, message=str(exc)
            )
        following = await self.store.pending(tenant=tenant, limit=1)
        target = _item_url(request, following[0].id) if following else str(request.url_for("queue"))
        separator = "&" if "?" in target else "?"
        return RedirectResponse(
            f"{target}{separator}decided={quote(answer_id, safe='')}&as={kind}", status_code=303
        )


def _item_url(request: Request, answer_id: str | Item, *, route: str = "item") -> str:
    # Percent-encoded whole, so an id with "/", "?" or "#" stays one path segment of its own.
    value = answer_id.id if isinstance(answer_id, Item) else answer_id
    return str(request.url_for(route, answer_id=quote(value, safe="")))


def _notice(request: Request) -> str | None:
    decided, kind = request.query_params.get("decided"), request.query_params.get("as")
    if decided and kind in _ACTIONS.values():
        return f"{decided} {kind}; its answer is on the output topic."
    return None


async def _form(request: Request) -> dict[str, str]:
    """The urlencoded form of a POST (parsed once per request; no multipart needed)."""
    cached = getattr(request.state, "form", None)
    if cached is not None:
        return dict(cached)
    body = await request.body()
    if len(body) > _MAX_FORM_BYTES:
        body = b""
    parsed = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
    request.state.form = parsed
    return parsed
