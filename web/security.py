"""Who may change a game: the pairing code the OLED shows, and same-origin form posts.

Reading is open to anyone on the network. A mutation needs the pairing code (header
`X-Pairing-Code`, or the form field `pairing_code`), compared in constant time: 8 characters
of 32 (40 bits, "K7QM-4XRT"), new at each start and whenever the box's phone screen renews it,
never written to the log. Too many wrong codes in a minute from one address lock that address
out for the rest of the minute; the players' phones, at other addresses, keep their right code
working.

Every request must name the box itself in its `Host` header (an IP address, `localhost`, or
the box's host name): a page of another site whose name was made to point at the box (DNS
rebinding) is refused before anything is read. Costly downloads refuse a browser's request that
another site started (`Sec-Fetch-Site`); a photo to read is a form post and must come from our
own page (Origin or Referer). Form posts must also come from our own pages: the `Origin` (or,
without it, the `Referer`) must be this server, and the form must carry the CSRF token that
only our pages hold. API calls with the custom header cannot be sent cross-site by a browser
without a CORS preflight, which this server never grants.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import socket
import threading
import time
from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from werkzeug.exceptions import BadRequest, Forbidden, TooManyRequests

HEADER = "X-Pairing-Code"
FIELD = "pairing_code"
CSRF_FIELD = "csrf_token"
MAX_ADDRESSES = 1024  # addresses remembered at once; the oldest guesser is forgotten first
_failures_lock = threading.Lock()


CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 symbols, none mistaken for another
CODE_LENGTH = 8  # 8 x 5 bits: 40 bits


def new_pairing_code() -> str:
    """A fresh pairing code for the OLED to show: 8 characters of 32 (40 bits), "K7QM-4XRT"."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{code[:4]}-{code[4:]}"


def renew_pairing(app: Flask) -> str:
    """Give `app` a new pairing code (the box's phone screen asks for one) and return it; the
    old one stops working at once, and the count of wrong codes starts again."""
    code = new_pairing_code()
    app.config["PAIRING_CODE"] = code
    with _failures_lock:
        app.extensions["duel"].get("failures", {}).clear()
    return code


def _plain_code(code: str) -> bytes:
    """A code as compared: capitals, without the dash or spaces a person may type."""
    return "".join(code.split()).replace("-", "").upper().encode("utf-8", "replace")


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
    if not hmac.compare_digest(_plain_code(given), _plain_code(expected)):
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
    require_same_origin_post()
    token = request.form.get(CSRF_FIELD, "") if request.mimetype in _FORMS else ""
    if not hmac.compare_digest(token.encode(), csrf_token().encode()):
        raise Forbidden("Cross-site request refused: missing or wrong form token")


def require_same_origin_post() -> None:
    """Refuse a post that a browser did not send from one of our pages (its `Origin`, or
    without one its `Referer`, must be this server; a script's fetch sends the Origin).

    Raises:
        Forbidden: another origin, or no Origin nor Referer.
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
        raise Forbidden(f"Cross-site request refused: {origin[:100]} is not {ours}")


def require_same_origin_api() -> None:
    """Refuse an API call that a browser sent from another site (an Origin not ours).

    Raises:
        Forbidden: an `Origin` header naming another site.
    """
    origin = request.headers.get("Origin")
    ours = f"{request.scheme}://{request.host}"
    if origin is not None and origin != ours:
        raise Forbidden(f"Cross-site request refused: {origin} is not {ours}")


def require_not_cross_site() -> None:
    """Refuse a costly download that a browser fetched for a page of another site (its
    `Sec-Fetch-Site` header says so; a link on our pages, a typed address or a script without
    a browser pass).

    Raises:
        Forbidden: `Sec-Fetch-Site` is "cross-site" or "same-site".
    """
    if request.headers.get("Sec-Fetch-Site", "") in ("cross-site", "same-site"):
        raise Forbidden("Cross-site request refused: open this from the companion's own pages")


LOCAL_SUFFIXES = ("", ".local", ".lan", ".home", ".home.arpa", ".localdomain", ".internal",
                  ".fritz.box")  # fmt: skip
"""How home routers and mDNS name a machine of the network: `<host name><suffix>`."""


def own_names() -> frozenset[str]:
    """The names this box answers to besides its addresses: localhost, and its host name as
    the home network names it (`LOCAL_SUFFIXES`). No lookup is made (a Pi without a name
    server would wait on it)."""
    name = socket.gethostname().lower().split(".")[0]
    return frozenset({"localhost", *(f"{name}{suffix}" for suffix in LOCAL_SUFFIXES if name)})


def host_name(host: str) -> str:
    """The name or address in a `Host` header, without its port or IPv6 brackets, lowercase."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_own_host(host: str, names: Iterable[str]) -> bool:
    """Whether a `Host` header names this box: an IP address, or one of `names`."""
    name = host_name(host)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name.removesuffix(".") in names


def check_host() -> None:
    """Refuse a request whose `Host` is not this box (DNS rebinding), before any route runs.
    The names allowed: app config `HOSTS` (default: `own_names()`).

    Raises:
        BadRequest: no Host, or another name (400).
    """
    names = current_app.config.get("HOSTS")
    if names is None:
        names = current_app.config["HOSTS"] = own_names()
    host = request.headers.get("Host", "")
    if not is_own_host(host, names):
        shown = host[:60].encode("ascii", "replace").decode()
        raise BadRequest(f"Unknown host {shown!r}: open the companion by its address")
