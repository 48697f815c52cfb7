"""Fixtures shared by every test area."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from companion.engine.cards import Catalog
from companion.engine.catalog import default_catalog

# Property tests run beside other work on small machines: no deadline, no flaky slowness.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("default")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The catalog of the shipped data/ folder."""
    return default_catalog()
