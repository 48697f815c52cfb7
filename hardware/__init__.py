"""Adapters to the physical kit: buttons, OLED, camera."""

from __future__ import annotations
