"""The table loop: the controller (decides), the presenter (game state -> views), the words
(every sentence the OLED and the phone pages say), the screens (views -> 128x64 images) and
the run loop that wires the hardware adapters (app).

Imports point one way: `controller` -> `present` -> `choices` (the options of each screen)
-> `words`, `ui` (inputs and the UI state) and `views`; `playback` plays a recorded game
through the whole device (the demo, tests and benchmarks).
"""

from __future__ import annotations
