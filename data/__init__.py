"""Card facts: the TOML files of this folder, read by companion.engine.catalog."""
