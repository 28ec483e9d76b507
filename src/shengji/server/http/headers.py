"""Security headers on every HTTP response (pages, static files, the API, errors).

The pages get a Content-Security-Policy fitted to the browser table: scripts only from this
server (plus, by hash, the one inline import map each page needs: ES modules cannot name
``preact`` without it, and browsers cannot load an import map from a file), no inline
script or event handler, styles from files (the table sets element styles through the DOM,
which a policy does not restrict), images from the server and ``data:`` (the icon), and
network traffic, the room's WebSocket included, only to this origin (CSP 3 lets ``'self'``
match ``ws:``/``wss:`` of the same host). Nothing may frame a page (``frame-ancestors
'none'`` and ``X-Frame-Options: DENY``: no click-jacking of a seat). API answers get the
strictest policy (``default-src 'none'``), the OpenAPI pages (``/docs``, ``/redoc``) the
CDN and inline script they are built from.

>>> page_policy(["sha256-abc="]).split("; ")[1]
"script-src 'self' 'sha256-abc='"
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COMMON = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
"""Headers every response carries. ``no-referrer``: a private room's code is in the page's
address and must not leak to another site."""

API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
"""JSON answers load nothing and run nothing, even if a browser were told to render one."""

DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""FastAPI's own ``/docs`` and ``/redoc`` pages (static, no user content) load Swagger UI
or ReDoc from a CDN with an inline start-up script."""

DOCS_PATHS = ("/docs", "/redoc")


def page_policy(script_hashes: Iterable[str]) -> str:
    """The CSP of the browser table's pages; ``script_hashes`` (``sha256-…``) allow the
    inline import maps."""
    scripts = " ".join(["'self'", *(f"'{h}'" for h in sorted(set(script_hashes)))])
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class InlineScripts(HTMLParser):
    """Collects a page's inline scripts as ``(type, text)`` and its inline event handlers
    (``on…=`` attributes) and ``style`` attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[tuple[str, str]] = []
        self.handlers: list[str] = []
        self.styles: list[str] = []
        self._in: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k.lower(): v for k, v in attrs}
        self.handlers += [f"<{tag} {k}>" for k in names if k.startswith("on")]
        if "style" in names:
            self.styles.append(f"<{tag} style>")
        if tag == "script" and "src" not in names:
            self._in = (names.get("type") or "").lower()
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in is not None:
            self.scripts.append((self._in, "".join(self._text)))
            self._in = None


def scan_page(text: str) -> InlineScripts:
    """What a page holds inline."""
    parser = InlineScripts()
    parser.feed(text.replace("\r\n", "\n"))
    parser.close()
    return parser


def csp_hash(script: str) -> str:
    """The CSP source of one inline script: ``sha256-`` and the base64 of its digest.

    >>> csp_hash("")
    'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='
    """
    digest = hashlib.sha256(script.encode()).digest()
    return "sha256-" + base64.b64encode(digest).decode()


def import_map_hashes(static: Path) -> list[str]:
    """Hashes of the inline import maps of the pages in ``static`` (other inline scripts
    are never allowed: they are not hashed, so a browser refuses them)."""
    if not static.is_dir():
        return []
    out: list[str] = []
    for page in sorted(static.glob("*.html")):
        for kind, text in scan_page(page.read_text(encoding="utf-8")).scripts:
            if kind == "importmap":
                out.append(csp_hash(text))
    return out


class SecurityHeaders:
    """ASGI middleware: adds the headers to every HTTP response (those the app already set
    stay as they are)."""

    def __init__(self, app: ASGIApp, static: Path, api_prefixes: tuple[str, ...]) -> None:
        self.app = app
        self.page = page_policy(import_map_hashes(static))
        self.api_prefixes = api_prefixes

    def policy_for(self, path: str) -> str:
        """The CSP of one path."""
        if path.startswith(self.api_prefixes):
            return API_POLICY
        if path in DOCS_PATHS or path.startswith(tuple(p + "/" for p in DOCS_PATHS)):
            return DOCS_POLICY
        return self.page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = {**COMMON, "Content-Security-Policy": self.policy_for(scope["path"])}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    if name not in headers:
                        headers.append(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
