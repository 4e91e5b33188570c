"""A campaign spread over workers: processes of this machine (``--workers N``) or a Dask cluster (``--dask``).

The games are cut into chunks of consecutive numbers; a worker plays a chunk on its own engine (one engine a
worker, started on its first chunk and kept) and sends back the chunk's report, which the parent merges
(``campaign_report.merge_reports``); the deviations the campaign shrinks are then shrunk, each by a worker, from
the game it was first seen in. As every game is named by the seed and its number, the merged report is the one a
serial run gives. A worker that dies costs its chunk: a process pool broken by a death is replaced and the
chunks it held are played once more, one at a time, so that only the chunk that kills its worker again is lost;
a chunk that cannot be played is reported game by game as errored, saying why, and the campaign goes on. An engine
that hangs is timed out by the worker (``--timeout``) and restarted, as in a serial run.

Dask is an optional extra (``pip install canasta-ref[dask]``): ``--dask ADDRESS`` points the run at a running
scheduler (``tcp://host:8786``); every worker needs canasta-ref and the engine's command.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import multiprocessing.util
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TextIO

from ..errors import CanastaError
from ..spec import list_variants
from .campaign import CampaignOptions, new_runner, play_part, playable_variants
from .campaign_report import Example, GeneratedReport, ScenarioText, merge_reports, report_from_json, text_json
from .deviations import Deviation, DeviationKey
from .engines import Engine, EngineFailure, InProcessEngine, SubprocessEngine
from .report import PROGRESS_SECONDS
from .runner import Result, Status, failure_status
from .shrinking import shrink_deviation, to_shrink
from .variants import reference_rules

#: The most games a chunk holds (a smaller chunk loses fewer games when its worker dies, costs more messages).
CHUNK_GAMES = 25


@dataclass(frozen=True)
class EngineSpec:
    """How a worker starts its engine: a command line, the reference in process (no command), or a factory
    (a module-level function, so that it can be sent to another process)."""

    command: str | None = None
    timeout: float = 10.0
    factory: Callable[[], Engine] | None = None

    def open(self) -> Engine:
        if self.factory is not None:
            return self.factory()
        if self.command is None:
            return InProcessEngine()
        return SubprocessEngine(self.command, timeout=self.timeout)


_LOCAL = threading.local()


def worker_engine(spec: EngineSpec) -> Engine:
    """This worker's engine for ``spec`` (one a thread: a Dask worker may run chunks in threads), started once
    and closed when the worker process ends."""
    engines: dict[EngineSpec, Engine] | None = getattr(_LOCAL, "engines", None)
    if engines is None:
        engines = _LOCAL.engines = {}
        multiprocessing.util.Finalize(None, _close_all, args=(engines,), exitpriority=10)
    engine = engines.get(spec)
    if engine is None:
        engine = engines[spec] = spec.open()
    return engine


def _close_all(engines: dict[EngineSpec, Engine]) -> None:
    for engine in engines.values():
        with contextlib.suppress(Exception):
            engine.close()


def play_chunk(spec: EngineSpec, seed: int, requested: int, first: int, last: int, options: CampaignOptions) -> Any:
    """A worker's task: games ``first`` to ``last`` played (not shrunk), as the JSON of their report (an engine
    that does not start errs each game, saying so: an exception would have to cross the process boundary)."""
    try:
        engine = worker_engine(spec)
    except EngineFailure as failure:
        message = f"the engine did not start: {failure.detail}"
        return _errored(seed, requested, (first, last), options, failure_status(failure), message).to_json()
    except OSError as error:
        message = f"the engine {spec.command!r} cannot be started: {error}"
        return _errored(seed, requested, (first, last), options, "errored", message).to_json()
    report, _ = play_part(engine, seed, requested, range(first, last + 1), options)
    return report.finish().to_json()


def shrink_task(
    spec: EngineSpec, seed: int, requested: int, options: CampaignOptions, key: DeviationKey, game: int
) -> tuple[dict[str, Any] | None, int]:
    """A worker's task: the deviation ``key`` shrunk from game ``game``; the shrunk scenario (None if the game
    did not show it again) and the runs it took."""
    try:
        engine = worker_engine(spec)
    except EngineFailure as failure:  # its own class may not cross back to the parent
        raise RuntimeError(f"the engine did not start: {failure.detail}") from None
    runner = new_runner(engine, playable_variants(engine.info, options.variants)[0], options)
    report = GeneratedReport(seed, requested, max_shrunk=options.max_shrunk)
    group = Deviation(key, "", game)
    report.examples[key] = Example(ScenarioText("", "", 0, ""))
    example = shrink_deviation(runner, report, group, seconds=options.shrink_seconds, max_runs=options.max_shrink_runs)
    return (None if example.shrunk is None else text_json(example.shrunk)), example.shrink_runs


def chunks(first: int, last: int, workers: int, size: int = CHUNK_GAMES) -> list[tuple[int, int]]:
    """Games ``first`` to ``last`` cut into chunks of consecutive numbers, each of at most ``size`` games and of
    at most a quarter of a worker's share of the games not yet cut: they shrink towards the end (to one game), so
    that the workers finish together rather than one playing a long last chunk while the others wait."""
    cut: list[tuple[int, int]] = []
    start = first
    while start <= last:
        left = last - start + 1
        per = max(1, min(size, -(-left // (4 * max(workers, 1)))))
        cut.append((start, start + per - 1))
        start += per
    return cut


class CampaignProgress:
    """How far a long campaign got, said on ``stream`` at most every ``every`` seconds, so that whoever waits for
    10,000 games sees them come (the games are counted as their chunks' reports come back)."""

    def __init__(self, total: int, stream: TextIO, every: float = PROGRESS_SECONDS) -> None:
        self.total = total
        self.stream = stream
        self.every = every
        self.started = self.said = time.monotonic()

    def __call__(self, played: int) -> None:
        now = time.monotonic()
        if now - self.said < self.every:
            return
        self.said = now
        seconds = max(now - self.started, 1e-9)
        self.stream.write(
            f"{played} of {self.total} games played in {seconds:.0f} s ({played / seconds:.2f} games a second)\n"
        )
        self.stream.flush()


class _Pool:
    """Submits tasks to an executor, replacing a process pool that a dying worker broke."""

    def __init__(self, make: Callable[[], Executor]) -> None:
        self.make = make
        self.executor = make()

    def submit(self, task: Callable[..., Any], *args: Any) -> Future[Any]:
        try:
            return self.executor.submit(task, *args)
        except BrokenProcessPool:
            self.renew()
            return self.executor.submit(task, *args)

    def renew(self) -> None:
        _shutdown(self.executor, wait=False)
        self.executor = self.make()

    def run_alone(self, task: Callable[..., Any], *args: Any) -> Any:
        """One task waited for; a pool it breaks is replaced before the error is raised."""
        try:
            return self.submit(task, *args).result()
        except BrokenProcessPool:
            self.renew()
            raise


def _shutdown(executor: Executor, *, wait: bool) -> None:
    """Stop an executor, its queued tasks cancelled (Dask's executor cancels nothing it was not asked to)."""
    try:
        executor.shutdown(wait=wait, cancel_futures=True)
    except TypeError:  # Dask's ClientExecutor takes no cancel_futures
        executor.shutdown(wait=wait)


def run_spread(
    spec: EngineSpec,
    seed: int,
    requested: int,
    numbers: range,
    options: CampaignOptions,
    make_executor: Callable[[], Executor],
    *,
    workers: int,
    chunk_games: int = CHUNK_GAMES,
    progress: Callable[[int], None] | None = None,
) -> GeneratedReport:
    """Games ``numbers`` of the campaign played by the workers of ``make_executor``'s executors, merged, and the
    deviations to shrink shrunk (see the module docstring); ``progress`` is told how many games were played each
    time a chunk's report comes back."""
    started = time.monotonic()
    pool = _Pool(make_executor)
    try:
        played = _Played(progress)
        parts = _play_chunks(pool, spec, seed, requested, numbers, options, workers, chunk_games, played)
        report = merge_reports(parts) if parts else GeneratedReport(seed, requested, numbers.start, numbers.stop - 1)
        _shrink_spread(pool, spec, report, options)
    finally:
        _shutdown(pool.executor, wait=True)
    report.seconds = time.monotonic() - started
    return report.finish()


def _play_chunks(
    pool: _Pool,
    spec: EngineSpec,
    seed: int,
    requested: int,
    numbers: range,
    options: CampaignOptions,
    workers: int,
    chunk_games: int,
    played: _Played,
) -> list[GeneratedReport]:
    """Every chunk's report; a chunk whose worker died is played again alone, then given up as lost."""
    pending = chunks(numbers.start, numbers.stop - 1, workers, chunk_games)
    futures = [(chunk, pool.submit(play_chunk, spec, seed, requested, *chunk, options)) for chunk in pending]
    again: list[tuple[int, int]] = []
    for chunk, future in futures:
        try:
            played.append(report_from_json(future.result(), f"the report of games {chunk[0]} to {chunk[1]}"))
        except BrokenProcessPool:
            again.append(chunk)
        except Exception as error:  # a task's error, or Dask's KilledWorker: the chunk is lost, the campaign not
            played.append(_lost(seed, requested, chunk, options, error))
    if again:
        pool.renew()
    for chunk in again:
        try:
            json = pool.run_alone(play_chunk, spec, seed, requested, *chunk, options)
            played.append(report_from_json(json, f"the report of games {chunk[0]} to {chunk[1]}"))
        except Exception as error:
            played.append(_lost(seed, requested, chunk, options, error))
    return played.parts


class _Played:
    """The chunks' reports as they come back, the games they hold told to ``progress``."""

    def __init__(self, progress: Callable[[int], None] | None) -> None:
        self.parts: list[GeneratedReport] = []
        self.games = 0
        self.progress = progress

    def append(self, part: GeneratedReport) -> None:
        self.parts.append(part)
        self.games += part.last - part.first + 1
        if self.progress is not None:
            self.progress(self.games)


def _lost(
    seed: int, requested: int, chunk: tuple[int, int], options: CampaignOptions, error: Exception
) -> GeneratedReport:
    """A chunk whose worker was lost: each of its games errored, saying why."""
    why = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    message = f"the worker playing games {chunk[0]} to {chunk[1]} was lost ({why})"
    return _errored(seed, requested, chunk, options, "errored", message)


def _errored(
    seed: int, requested: int, chunk: tuple[int, int], options: CampaignOptions, status: Status, message: str
) -> GeneratedReport:
    """A chunk none of whose games could be played: each of them ``status``, with ``message``."""
    first, last = chunk
    part = GeneratedReport(seed, requested, first, last, options.max_shrunk, list(options.masks))
    for number in range(first, last + 1):
        part.game_results[number] = Result(f"{part.label}-{number}", "-", status, message)
    return part


def _shrink_spread(pool: _Pool, spec: EngineSpec, report: GeneratedReport, options: CampaignOptions) -> None:
    """The deviations the campaign shrinks, one task each; one that cannot be shrunk keeps its first game."""
    groups = [g for g in to_shrink(report) if not report.examples[g.key].shrink_tried]
    args = (spec, report.seed, report.requested, options)
    futures = [(g, pool.submit(shrink_task, *args, g.key, g.first_game)) for g in groups]
    for group, future in futures:
        try:
            text, runs = future.result()
        except Exception as error:
            report.notes.append(f"the deviation {group.key} could not be shrunk: {type(error).__name__}: {error}")
            continue
        example = report.examples[group.key]
        example.shrink_tried, example.shrink_runs = True, runs
        if text is not None:
            example.shrunk = ScenarioText(**text)


def process_pool(workers: int, variants: Sequence[str] = ()) -> Callable[[], Executor]:
    """Executors of ``workers`` processes of this machine; where they are forked, the reference's rules of
    ``variants`` (every bundled one if none) are loaded first, so that each worker inherits them rather than
    loading and checking every spec again while its engine does the same."""

    def make() -> Executor:
        if _forks():
            for variant in variants or list_variants():
                reference_rules(variant)
        return ProcessPoolExecutor(max_workers=workers)

    return make


def _forks() -> bool:
    """Whether a process pool forks its workers (asked without fixing the start method, the first is the default)."""
    return (multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]) == "fork"


@contextlib.contextmanager
def dask_executors(address: str, timeout: float = 20.0) -> Iterator[tuple[Callable[[], Executor], int]]:
    """Executors on the Dask scheduler at ``address`` (the optional extra ``canasta-ref[dask]``), and how many
    workers it has (for the size of the chunks)."""
    try:
        distributed: Any = importlib.import_module("distributed")  # untyped, and an optional extra
    except ImportError:
        raise CanastaError("--dask needs Dask distributed: pip install 'canasta-ref[dask]'") from None
    try:
        client = distributed.Client(address, timeout=f"{timeout}s")
    except (OSError, TimeoutError) as error:
        raise CanastaError(f"--dask: no Dask scheduler answers at {address!r}: {error}") from None
    try:
        workers = len(client.scheduler_info().get("workers", {})) or 1
        yield (lambda: client.get_executor(pure=False)), workers
    finally:
        client.close()


__all__ = [
    "CHUNK_GAMES",
    "CampaignProgress",
    "EngineSpec",
    "chunks",
    "dask_executors",
    "play_chunk",
    "process_pool",
    "run_spread",
    "shrink_task",
    "worker_engine",
]
