"""Who may change a game: the pairing code the OLED shows, and same-origin form posts.

Reading is open to anyone on the network. A mutation needs the pairing code (header
`X-Pairing-Code`, or the form field `pairing_code`), compared in constant time. Too many wrong
codes in a minute from one address lock that address out for the rest of the minute (a 6-digit
code cannot be guessed at LAN speed then); the players' phones, at other addresses, keep
their right code working. Form posts must also come from our own pages: the `Origin` (or,
without it, the `Referer`) must be this server, and the form must carry the CSRF token that
only our pages hold. API calls with the custom header cannot be sent cross-site by a browser
without a CORS preflight, which this server never grants.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from urllib.parse import urlsplit

from flask import current_app, request
from werkzeug.exceptions import Forbidden, TooManyRequests

HEADER = "X-Pairing-Code"
FIELD = "pairing_code"
CSRF_FIELD = "csrf_token"
MAX_ADDRESSES = 1024  # addresses remembered at once; the oldest guesser is forgotten first
_failures_lock = threading.Lock()


def new_pairing_code() -> str:
    """A fresh 6-digit pairing code for the OLED to show."""
    return f"{secrets.randbelow(10**6):06d}"


def csrf_token() -> str:
    """The token our forms carry: derived from the app's secret, unknown to other sites."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"duel-companion form", hashlib.sha256).hexdigest()[:32]


def require_pairing(*, form: bool = True) -> None:
    """Refuse the request unless it carries the pairing code (in a form field too when
    `form`; the API takes only the header, which a browser cannot send cross-site unasked).

    Raises:
        Forbidden: no code or a wrong one (403).
        TooManyRequests: too many wrong codes from this address in the last minute (429).
    """
    by_address: dict[str, list[float]] = current_app.extensions["duel"].setdefault("failures", {})
    address = request.remote_addr or ""
    now = time.monotonic()
    limit = int(current_app.config["PAIRING_FAILURES_PER_MINUTE"])
    with _failures_lock:
        failures = [t for t in by_address.pop(address, []) if now - t < 60]
        if failures:
            by_address[address] = failures  # re-inserted: the dict stays oldest first
        if len(failures) >= limit:
            raise TooManyRequests("Too many wrong pairing codes from this address; wait a minute")
    given = request.headers.get(HEADER)
    if given is None and form and request.mimetype in _FORMS:
        given = request.form.get(FIELD)
    expected = str(current_app.config["PAIRING_CODE"])
    if not given:
        raise Forbidden("Changing a game needs the pairing code shown on the companion")
    if not hmac.compare_digest(given.strip().encode(), expected.encode()):
        with _failures_lock:
            by_address.setdefault(address, []).append(now)
            while len(by_address) > MAX_ADDRESSES:
                del by_address[next(iter(by_address))]
        raise Forbidden("Wrong pairing code: use the code shown on the companion")


_FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def require_same_origin_form() -> None:
    """Refuse a form post that does not come from one of our pages.

    Raises:
        Forbidden: another origin, no Origin nor Referer, or a missing or wrong CSRF token.
    """
    ours = f"{request.scheme}://{request.host}"
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        referer = request.headers.get("Referer")
        if not referer:
            raise Forbidden("Cross-site request refused: no Origin or Referer")
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    if origin != ours:
        raise Forbidden(f"Cross-site request refused: {origin} is not {ours}")
    token = request.form.get(CSRF_FIELD, "") if request.mimetype in _FORMS else ""
    if not hmac.compare_digest(token.encode(), csrf_token().encode()):
        raise Forbidden("Cross-site request refused: missing or wrong form token")


def require_same_origin_api() -> None:
    """Refuse an API call that a browser sent from another site (an Origin not ours).

    Raises:
        Forbidden: an `Origin` header naming another site.
    """
    origin = request.headers.get("Origin")
    ours = f"{request.scheme}://{request.host}"
    if origin is not None and origin != ours:
        raise Forbidden(f"Cross-site request refused: {origin} is not {ours}")
