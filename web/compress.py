"""Gzip for the pages and their JSON twins when the phone accepts it.

A page of the history or a score pad is text that compresses five to ten times; on a phone at
the edge of the Wi-Fi that is what makes it quick. Static files (already cached for a day)
and small answers are sent as they are.
"""

from __future__ import annotations

import gzip

from flask import Response, request

MIN_BYTES = 512  # below this, gzip's header costs more than it saves
TYPES = frozenset({"text/html", "application/json", "text/css", "text/javascript"})


def gzip_response(response: Response) -> Response:
    """`response` gzipped when the client accepts gzip and compressing it is worth it."""
    if (
        response.direct_passthrough  # a file sent from disk (static)
        or response.is_streamed  # sent in pieces: never gathered whole here
        or response.status_code < 200
        or "Content-Encoding" in response.headers
        or response.mimetype not in TYPES
        or request.accept_encodings.quality("gzip") <= 0
    ):
        return response
    data = response.get_data()
    if len(data) < MIN_BYTES:
        return response
    response.set_data(gzip.compress(data, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response
