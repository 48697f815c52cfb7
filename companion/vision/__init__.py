"""Reading QR stickers: payloads, decoders, the frame tracker, test frames."""

from __future__ import annotations
