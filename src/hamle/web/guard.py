"""Every response's security headers, request bodies capped, and HEAD answered as GET.

The pages load scripts, styles and data from the site alone (``CSP``); the API documentation
pages, whose Swagger UI comes from its own assets, run inline scripts but load nothing from
elsewhere either (``DOCS_CSP``). The API's answers are not stored by browsers or caches
between (a game's view names the game, and once it is over its secret). A body longer than
``MAX_BODY`` bytes is refused with 413 before it is parsed, whether it says its length or
streams. A HEAD request gets its GET's status and headers, and no body. A request that fails
with no answer sent gets a coded 500 with the same headers (the error goes on to the
server's log).
"""

from __future__ import annotations

import json

MAX_BODY = 256 * 1024  # the largest request the site sends is a few kilobytes
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
DOCS = ("/docs", "/redoc")
# The documentation pages run inline scripts and styles, and ReDoc's search a worker made
# from a blob; all else is held to the site (ReDoc would fetch its logo from the network).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class Guard:
    """ASGI middleware: the headers above on every HTTP response, no ``server`` header,
    413 for bodies over ``MAX_BODY``, every GET route answering HEAD too."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            await _refuse(send)
            return
        extra = [*HEADERS, _policy(DOCS_CSP if scope["path"].startswith(DOCS) else CSP)]
        head, api = scope["method"] == "HEAD", scope["path"].startswith("/api/")
        if head:  # the routes are declared for GET only, so that the API lists each once
            scope = {**scope, "method": "GET"}
        received, started, refused = 0, False, False

        async def counted():
            nonlocal received, refused
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY and not refused:
                refused = True
                if not started:
                    await _refuse(send)
            return {"type": "http.disconnect"} if refused else message

        async def guarded(message) -> None:
            nonlocal started
            if refused:  # the 413 went out instead
                return
            if message["type"] == "http.response.start":
                started = True
                kept = [h for h in message.get("headers", []) if h[0].lower() != b"server"]
                if api and not any(h[0].lower() == b"cache-control" for h in kept):
                    kept.append((b"cache-control", b"no-store"))
                message = {**message, "headers": [*kept, *extra]}
            elif head:
                if message.get("more_body"):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except Exception:
            if refused:
                return
            if not started:
                await _problem(send, 500, "the server failed on this request", code="site.failed")
            raise


def _policy(policy: str) -> tuple[bytes, bytes]:
    return (b"content-security-policy", policy.encode())


async def _refuse(send) -> None:
    said = f"the request body is over {MAX_BODY:,} bytes"
    await _problem(send, 413, said, code="site.too_large", limit=MAX_BODY)


async def _problem(send, status: int, detail: str, code: str, **params) -> None:
    """A refusal or failure as the site's problem JSON, with every response's headers."""
    body = json.dumps({"detail": detail, "code": code, "params": params}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [*HEADERS, _policy(CSP)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
