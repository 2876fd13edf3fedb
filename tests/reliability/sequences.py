"""How the refund state machines run their random operation sequences (one set of Hypothesis settings), and
where their PostgreSQL sequences take new schemas from."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings

from tests.postgres_schemas import set_up_schema


def sequence_settings(max_examples: int, steps: int) -> hypothesis_settings:
    """``max_examples`` sequences of up to ``steps`` operations, the same on every run (derandomized, no
    example database), shrunk when one fails; slow steps (kills, subprocesses) are no health problem."""
    return hypothesis_settings(
        max_examples=max_examples,
        stateful_step_count=steps,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        print_blob=False,
    )


class SchemasAhead:
    """New set-up PostgreSQL schemas (as tests/conftest.py makes them, copies of a schema the store set up),
    each made in a thread while the sequence before it runs, and dropped in that thread after its sequence:
    making and dropping a schema waits on the server, not on this process."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="schemas-ahead")
        self._next: Future[tuple[ExitStack, str]] | None = None

    @staticmethod
    def _make() -> tuple[ExitStack, str]:
        made = ExitStack()
        try:
            url = made.enter_context(set_up_schema())  # its tables made: opened as a restarted process would
        except BaseException:
            made.close()
            raise
        return made, url

    @contextmanager
    def fresh(self) -> Iterator[str]:
        """The next new schema's URL (the one after it is made meanwhile); dropped afterwards."""
        ready = self._next or self._thread.submit(self._make)
        made, url = ready.result()
        self._next = self._thread.submit(self._make)
        try:
            yield url
        finally:
            self._thread.submit(made.close)

    def close(self) -> None:
        """Drops the schema made for no sequence, after every drop asked for (the thread runs them in order)."""
        if self._next is not None:
            self._thread.submit(lambda made=self._next: made.result()[0].close())
        self._thread.shutdown(wait=True)
