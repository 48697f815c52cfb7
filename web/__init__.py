"""The phone pages: final scoring, the live game, the log and the history, with a JSON API.

`create_app(config)` builds the Flask app over the journal that the device loop writes; it
opens the journal read-only per request. Anything that changes a game goes through a
`Control` (web/control.py): by default one that opens the journal for writing and uses
`companion.records.game.Game`; the run loop passes its own (`CONTROL=...`) so that the one `Game` it
holds stays the only writer. `serve` runs the app under waitress, never Flask's dev server.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import (
    Flask,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import HTTPException, NotFound, RequestEntityTooLarge
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers import Response

from companion.config import Config
from companion.engine.catalog import default_catalog
from companion.engine.plural import noun_for, plural
from companion.records.journal import JournalError
from companion.records.reader import MAX_RECORD_BYTES

from . import (
    api,
    bgstats,
    compress,
    history,
    live,
    players,
    review,
    scorepad,
    scoring,
    security,
    stats,
)
from .access import close_journal, get_journal, wants_json
from .control import JournalControl
from .present import Unreplayable

MAX_BODY = MAX_RECORD_BYTES  # a whole game record is about 10 KB
SQLITE_MAX_ID = 2**63 - 1
STATIC_MAX_AGE = 3600  # seconds a phone keeps style.css and live.js without asking again


class GameIdConverter(IntegerConverter):
    """A game id in a URL: a non-negative integer SQLite can hold (else no route: 404)."""

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, min=1, max=SQLITE_MAX_ID)


def create_app(config: Config, **overrides: Any) -> Flask:
    """The phone pages, reading the journal that the device loop writes.

    Overrides (Flask config keys): `JOURNAL`, `LANGUAGE`, `CATALOG`, `PAIRING_CODE`,
    `CONTROL`, `POLL_SECONDS`, `COACH_LEVEL`, `OVERHEAD` (a callable giving the last
    overhead reading as PNG bytes, or None: the live page shows it), `TESTING`,
    `STATS_WARM_UP` (count the statistics in a background thread at start; default: when
    not testing), ...
    """
    app = Flask(__name__)
    catalog = overrides.pop("CATALOG", None) or default_catalog()
    app.config.from_mapping(
        JOURNAL=str(config.journal),
        LANGUAGE=config.language,
        PAIRING_CODE=security.new_pairing_code(),
        SECRET_KEY=secrets.token_hex(32),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SEND_FILE_MAX_AGE_DEFAULT=STATIC_MAX_AGE,  # else Flask sends "no-cache" for static
        POLL_SECONDS=2.0,
        PAIRING_FAILURES_PER_MINUTE=10,
        COACH_LEVEL=config.coach_level,
        BOX_NAME=config.name,
    )
    app.config.update(overrides)
    app.config.setdefault("CONTROL", JournalControl(app.config["JOURNAL"], catalog))
    app.extensions["duel"] = {"catalog": catalog, "cache": OrderedDict(), "lock": threading.Lock()}
    app.url_map.converters["game"] = GameIdConverter
    app.teardown_appcontext(close_journal)
    app.register_blueprint(scoring.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(scorepad.bp)
    app.register_blueprint(bgstats.bp)
    app.register_blueprint(api.bp, url_prefix="/api")
    app.before_request(security.check_host)  # DNS rebinding: only the box's own names
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(JournalError, _journal_error)
    app.register_error_handler(Unreplayable, _unreplayable)
    app.context_processor(_template_globals)
    app.add_template_filter(plural)  # "{{ n|plural('game') }}": 1 game, 3 games
    app.add_template_filter(noun_for)  # the noun alone, beside a number shown apart
    app.after_request(_headers)
    app.after_request(compress.gzip_response)
    app.add_url_rule("/", "index", _index)
    if app.config.get("STATS_WARM_UP", not app.testing):
        stats.warm_up(app)
    return app


def _index() -> Response:
    journal = get_journal()
    current = journal.current_game() if journal is not None else None
    if current is not None:
        return redirect(url_for("live.board", game_id=current))
    return redirect(url_for("history.games"))


def _template_globals() -> dict[str, Any]:
    return {
        "csrf_token": security.csrf_token(),
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "overhead": current_app.config.get("OVERHEAD") is not None,
    }


def _headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
    )
    if request.path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", f"public, max-age={STATIC_MAX_AGE}")
    else:
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _error(status: int, message: str) -> tuple[Response | str, int]:
    if wants_json():
        return jsonify({"error": message, "status": status}), status
    return render_template("error.html", status=status, message=message), status


def _http_error(error: HTTPException) -> Any:
    if error.code is None or error.code < 400:
        return error
    message = error.description or error.name
    if error.code == 413 and message == RequestEntityTooLarge.description:
        limit = request.max_content_length or MAX_BODY  # a route may allow more
        size = f"{limit // 2**20} MB" if limit % 2**20 == 0 else f"{limit // 1024} KB"
        message = f"The request body is larger than {size}"
    elif error.code == 404 and message == NotFound.description:
        message = f"Nothing here: {request.path}"
    response = make_response(_error(error.code, str(message)))
    if error.code == 405:  # pages and API alike: a 405 must say what is allowed
        response.headers["Allow"] = ", ".join(error.valid_methods or [])  # type: ignore[attr-defined]
    return response


def _journal_error(error: JournalError) -> Any:
    return _error(503, f"The journal cannot be read now: {error}")


def _unreplayable(error: Unreplayable) -> Any:
    return _error(409, f"This game no longer replays: {error}")


def serve(
    app: Flask,
    host: str,
    port: int,
    threads: int,
    ready: Callable[[int], object] | None = None,
) -> None:
    """Serve `app` with waitress until the process ends (or call it in a thread beside the
    loop); `ready(port)` is called once the socket listens.

    Raises:
        OSError: the address cannot be bound (in use, not ours).
    """
    server = _create_server(app, host, port, threads)
    if ready is not None:
        ready(int(server.effective_port))
    try:
        server.run()
    finally:
        server.close()


# Waitress reads requests in one thread and hands only whole ones to the workers, so a slow
# client holds a connection, not a worker. Its defaults (100 connections, idle ones closed after
# 120 s, checked every 30 s) let about 100 half-sent requests shut every phone out for minutes:
# more connections, idle ones closed sooner, and at most `PER_ADDRESS` from one address.
CONNECTION_LIMIT = 400
CHANNEL_TIMEOUT = 10  # seconds a connection may stay silent (a request half sent)
CLEANUP_INTERVAL = 2  # seconds between the checks for silent connections
PER_ADDRESS = 32  # open connections from one address (a phone opens about 6)
MAX_HEADER_BYTES = 64 * 1024  # all the request's headers (waitress: 256 KB)


def _create_server(app: Flask, host: str, port: int, threads: int) -> Any:
    """A listening waitress server, with the limits above.

    Raises:
        OSError: the address cannot be bound, or the host is no address at all (waitress
            says so with a ValueError, which callers expecting OSError would not catch).
    """
    import waitress.server

    try:
        server = waitress.server.create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            ident="duel-companion",
            connection_limit=CONNECTION_LIMIT,
            channel_timeout=CHANNEL_TIMEOUT,
            cleanup_interval=CLEANUP_INTERVAL,
            max_request_header_size=MAX_HEADER_BYTES,
        )
    except ValueError:
        raise OSError(f"{host!r} is not an address of this machine") from None
    server.channel_class = _per_address(server, server.channel_class)
    return server


def _per_address(server: Any, channel_class: Any) -> Callable[..., Any]:
    """Waitress's channel maker, refusing (closing at once) a connection from an address
    that already holds `PER_ADDRESS` of them."""

    def channel(owner: Any, conn: Any, addr: Any, adj: Any, map: Any = None) -> Any:
        peer = _peer(addr)
        open_here = sum(
            1 for c in list(server._map.values()) if _peer(getattr(c, "addr", None)) == peer
        )
        if open_here >= PER_ADDRESS:
            with contextlib.suppress(OSError):
                conn.close()
            return None
        return channel_class(owner, conn, addr, adj, map=map)

    return channel


def _peer(addr: object) -> object:
    """The address part of a socket address (the host of a TCP peer)."""
    return addr[0] if isinstance(addr, tuple) and addr else addr


def url_host(host: str) -> str:
    """The host as a URL writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class WebServer:
    """A waitress server running in a daemon thread; `close()` stops it."""

    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        self._server: Any = _create_server(app, host, port, threads)
        self.port: int = int(self._server.effective_port)
        self.url = f"http://{url_host(host)}:{self.port}"
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with contextlib.suppress(OSError, ValueError):  # sockets closed under it on close()
            self._server.run()

    def close(self) -> None:
        """Stop serving: let the workers finish their requests, then close every socket from
        the server's own loop thread (its trigger runs the closing there), and wait."""
        self._server.task_dispatcher.shutdown()
        sockets = self._server._map

        def close_all() -> None:
            for channel in list(sockets.values()):
                channel.close()

        self._server.trigger.pull_trigger(close_all)
        self._thread.join(timeout=5)

    def __enter__(self) -> WebServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
