"""Every response's security headers, requests for another site's names and writes from
other sites refused, request bodies capped, and HEAD answered as GET where that is cheap.

The pages load scripts, styles and data from the site alone (``CSP``); the API documentation
pages, whose Swagger UI comes from its own assets, run inline scripts but load nothing from
elsewhere either (``DOCS_CSP``). The API's answers are not stored by browsers or caches
between (a game's view names the game, and once it is over its secret). A body longer than
``MAX_BODY`` bytes is refused with 413 before it is parsed, whether it says its length or
streams. A request that fails with no answer sent gets a coded 500 with the same headers
(the error goes on to the server's log).

Names: a page of another site can have its own name resolve to this machine (DNS
rebinding) and then read the site as if it were its own. So a request that came over the
network must name the site by an address (127.0.0.1, [::1], 192.0.2.7: no other site's
page has an address for its name), by ``localhost`` or a name under ``.localhost``
(browsers keep those on the machine), or by one of the ``hosts`` the site is given
(``hamle serve --allow-host``); any other Host is refused with 403 ``site.wrong_host``,
outside the API as a short page. A request that did not come over the network (a Unix
socket, an in-process test client) is not asked for a name.

Writes from other sites: a POST, PUT, PATCH or DELETE that the browser says comes from
another site (``Sec-Fetch-Site: cross-site``), or whose ``Origin`` is not the site it is
sent to, is refused with 403 ``site.cross_site`` (a form on another page could otherwise
give up a game); the site's own pages never send one.

HEAD: the pages, static files, documentation and ``/api/health`` answer HEAD with their
GET's status and headers, and no body. The API's other routes answer GET alone (405,
``Allow: GET``): many work out their answer (a replay, a suggestion, the heat map), which a
HEAD would do only to throw it away.
"""

from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

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
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# A Host header's form: an IPv6 address in brackets or a name without them, then a port.
WELL_FORMED_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^\[\]:/@\s]+)(:[0-9]*)?", re.IGNORECASE)
HEAD_AS_GET = "/api/health"  # the one API route that answers HEAD (as monitors ask)
WRONG_HOST_PAGE = (Path(__file__).parent / "static" / "wrong-host.html").read_bytes()
# The documentation pages run inline scripts and styles, and ReDoc's search a worker made
# from a blob; all else is held to the site (ReDoc would fetch its logo from the network).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class Guard:
    """ASGI middleware: the headers above on every HTTP response, no ``server`` header,
    403 for another site's name or another site's write, 413 for bodies over
    ``MAX_BODY``, HEAD answered as GET outside the API. ``hosts``: names the site answers
    to besides addresses and localhost."""

    def __init__(self, app, hosts=()) -> None:
        self.app = app
        self.hosts = frozenset(_name_of(host) for host in hosts)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        api = scope["path"].startswith("/api/")
        host = headers.get(b"host", b"").decode("latin-1")
        if _over_network(scope) and host and not self._ours(host):
            await _wrong_host(send, host, api)
            return
        if scope["method"] in WRITES and (other := _other_site(headers, host, self.hosts)):
            said = f"a request from another site ({other}) may not change anything here"
            await _problem(send, 403, said, code="site.cross_site", origin=other)
            return
        declared = headers.get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            await _refuse(send)
            return
        extra = [*HEADERS, _policy(DOCS_CSP if scope["path"].startswith(DOCS) else CSP)]
        head = scope["method"] == "HEAD"
        # The routes are declared for GET only, so that the API lists each once; the API's
        # own (but health) are left to refuse a HEAD.
        if head and (not api or scope["path"] == HEAD_AS_GET):
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

    def _ours(self, host: str) -> bool:
        """Whether ``host`` (a Host header) names this site: an address, localhost or a
        name under it, or one of ``hosts``, with a port or none (a Host that is no name and
        port, such as ``[::1`` or ``localhost:abc``, names nothing)."""
        if not WELL_FORMED_HOST.fullmatch(host.strip()):
            return False
        name = _name_of(host)
        if name == "localhost" or name.endswith(".localhost") or name in self.hosts:
            return True
        return _is_address(name)


def _over_network(scope) -> bool:
    """Whether the request came over the network (the server's end is an IP address)."""
    server = scope.get("server")
    return bool(server) and _is_address(str(server[0]))


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _name_of(host: str) -> str:
    """The name or address of a Host header, lower-case, without its port, brackets or
    final dot.

    >>> _name_of("LocalHost.:8000"), _name_of("[::1]:8000"), _name_of("192.0.2.7")
    ('localhost', '::1', '192.0.2.7')
    """
    return _split_host(host)[0]


def _split_host(host: str) -> tuple[str, str]:
    """A Host header's name (as ``_name_of``) and port (empty if it gives none)."""
    host = host.strip().lower()
    if host.startswith("["):
        name, _, port = host[1:].partition("]")
        port = port.removeprefix(":")
    else:
        name, _, port = host.partition(":")
    return name.removesuffix("."), port


def _other_site(headers: dict, host: str, hosts=frozenset()) -> str:
    """The other site a write comes from, as its origin (``cross-site`` where the browser
    says so without one); empty if it comes from this site (the ``host`` it names, or one
    of the ``hosts`` it was given, which a proxy that sends its own Host serves it under)
    or says nothing of where."""
    origin = headers.get(b"origin", b"").decode("latin-1")
    if headers.get(b"sec-fetch-site") == b"cross-site":
        return origin or "cross-site"
    if b"origin" in headers and not (_same_site(origin, host) or _origin_name(origin) in hosts):
        return origin or "an empty origin"
    return ""


def _origin_name(origin: str) -> str:
    """The name of an Origin header, lower-case, without its final dot (empty if none).

    >>> _origin_name("https://Games.Example.:8443"), _origin_name("null")
    ('games.example', '')
    """
    try:
        return (urlsplit(origin.strip()).hostname or "").removesuffix(".")
    except ValueError:  # (an address in brackets left open)
        return ""


def _same_site(origin: str, host: str) -> bool:
    """Whether ``origin`` (an Origin header) names the site at ``host`` (the Host header):
    the same name and port, a missing port being the origin's scheme's.

    >>> _same_site("http://127.0.0.1:8000", "127.0.0.1:8000")
    True
    >>> _same_site("https://games.example", "games.example"), _same_site("null", "x")
    (True, False)
    """
    try:
        parts = urlsplit(origin.strip())
        default = {"http": "80", "https": "443"}.get(parts.scheme)
        port = str(parts.port or default)
    except ValueError:  # a port that is not one, an address in brackets left open
        return False
    name, host_port = _split_host(host)
    return bool(default and parts.hostname) and (parts.hostname.removesuffix("."), port) == (
        name,
        host_port or default,
    )


async def _wrong_host(send, host: str, api: bool) -> None:
    """The refusal of a request naming the site by a name it was not given (or by a Host
    that is no name and port)."""
    name = _name_of(host)
    said = (
        f"this site is not served under the name {name!r}; open it at its address or "
        f"localhost, or start it with --allow-host {name}"
    )
    if not WELL_FORMED_HOST.fullmatch(host.strip()):
        name = host.strip()
        said = f"{name!r} is no host name and port; open the site at its address or localhost"
    if api:
        await _problem(send, 403, said, code="site.wrong_host", host=name)
        return
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-length", str(len(WRONG_HOST_PAGE)).encode()),
        (b"cache-control", b"no-store"),
    ]
    headers += [*HEADERS, _policy(CSP)]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": WRONG_HOST_PAGE})


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
