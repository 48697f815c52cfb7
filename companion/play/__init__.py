"""Games played without a table: random play-outs (the simulator's hot path, compiled), the
simulator that checks the engine's invariants over random games, and the arena where players
of the search meet. Pure like the engine: the standard library, the engine and the search."""
