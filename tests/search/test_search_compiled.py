"""The compiled search (mypyc, built with the engine) and the pure-Python one give the very
same answers: the search draws from one seeded generator, so any difference in a rollout
would show in the ranking, its visits or its chances."""

from __future__ import annotations

from companion import engine_loader
from tests.engine.test_engine_compiled import run_engine

ANSWERS_SCRIPT = """
import json, random
from companion.engine.catalog import default_catalog
from companion.engine.events import event_to_record
from companion.engine_loader import engine_is_compiled
from companion.search.player import Level, suggest
from companion.play.simulate import play
catalog = default_catalog()
answers = []
for seed in range(2):
    states = play(catalog, random.Random(seed), check=False).states
    for state in states[2:-1:9]:
        if state.structure is None or state.pending is not None and state.pending.kind.value \\
                == "great_library":
            continue
        answer = suggest(state, Level("quick", 60), seed)
        answers.append([[event_to_record(m.event), m.win, m.visits] for m in answer.moves])
print(json.dumps({"compiled": engine_is_compiled(), "answers": answers}))
"""


def test_the_compiled_and_the_pure_search_give_the_same_answers() -> None:
    pure = run_engine(pure=True, script=ANSWERS_SCRIPT)
    default = run_engine(pure=False, script=ANSWERS_SCRIPT)
    assert pure["compiled"] is False
    assert default["compiled"] is engine_loader.compiled_is_current()
    assert len(pure["answers"]) >= 10
    assert default["answers"] == pure["answers"]
