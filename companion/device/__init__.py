"""The table loop: the controller (decides), the presenter (game state -> views), the screens
(views -> 128x64 images) and the run loop that wires the hardware adapters (app)."""

from __future__ import annotations
