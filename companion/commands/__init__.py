"""One module per `duel-companion` subcommand, imported only when that subcommand runs."""

from __future__ import annotations
