"""Fixtures shared by every test area."""

from __future__ import annotations

import pytest

from companion.catalog import default_catalog
from companion.engine.cards import Catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The catalog of the shipped data/ folder."""
    return default_catalog()
