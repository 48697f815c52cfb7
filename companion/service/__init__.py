"""The running box: the loop (`loop`), the bridge between the phone pages and the loop
(`bridge`), the script language (`script`), the demo's playback of a recorded game
(`playback`), the search threads (`pondering`), systemd's watchdog (`watchdog`), and the one
composition root that wires camera, buttons, OLED, journal and web (`root.run_service`).

The only package that imports `hardware/` and `web/`; `companion/device/` decides, says and
draws, and imports neither."""
