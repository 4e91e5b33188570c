"""A campaign spread over workers (processes of this machine, or a Dask cluster) reports what a serial run
reports; a worker that dies costs its games, reported, never the campaign."""

from __future__ import annotations

import functools
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from test_campaign_parts import SMALL, same_games
from test_generated import LosesTheBottomOfThePile

from canasta_ref.cli import main
from canasta_ref.conformance.campaign import CampaignOptions, playable_variants, run_part
from canasta_ref.conformance.choices import random_choices
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.conformance.setup import deal_request
from canasta_ref.conformance.strategies import pick_setup
from canasta_ref.conformance.workers import (
    CampaignProgress,
    EngineSpec,
    chunks,
    dask_executors,
    process_pool,
    run_spread,
)

VARIANTS = ("classic-2p", "fournier")
OPTIONS = CampaignOptions(
    variants=VARIANTS,
    max_prefix=SMALL["max_prefix"],
    checked_steps=SMALL["checked_steps"],
    shrink_seconds=SMALL["shrink_seconds"],
    max_shrink_runs=4,
)
GAMES, SEED = 4, 2


def wrong_engine() -> InProcessEngine:
    """The engine each worker opens (a module-level function: it is sent to the workers by name)."""
    return InProcessEngine(LosesTheBottomOfThePile())


@functools.cache
def serial() -> dict[str, Any]:
    """The serial run's report (computed once a process)."""
    return same_games(run_part(wrong_engine(), SEED, GAMES, range(1, GAMES + 1), OPTIONS))


def test_games_are_cut_into_chunks_of_consecutive_numbers() -> None:
    assert chunks(1, 10, 2) == [(1, 2), *((n, n) for n in range(3, 11))]
    assert chunks(5, 5, 4) == [(5, 5)]
    assert chunks(1, 1000, 2, size=25)[:2] == [(1, 25), (26, 50)]
    assert chunks(3, 2, 2) == []


@pytest.mark.parametrize(("first", "last", "workers"), [(1, 200, 2), (7, 10_000, 2), (1, 1000, 8), (3, 40, 1)])
def test_chunks_shrink_towards_the_end_so_that_workers_finish_together(first: int, last: int, workers: int) -> None:
    cut = chunks(first, last, workers)
    assert [n for start, end in cut for n in range(start, end + 1)] == list(range(first, last + 1))
    sizes = [end - start + 1 for start, end in cut]
    assert sizes == sorted(sizes, reverse=True) and max(sizes) <= 25 and sizes[-1] == 1
    assert len(cut) >= 4 * workers  # every worker has several
    assert sum(sizes[-2 * workers :]) <= 2 * workers  # the last round of chunks is of single games


def test_two_worker_processes_give_the_serial_report() -> None:
    spread = run_spread(
        EngineSpec(factory=wrong_engine), SEED, GAMES, range(1, GAMES + 1), OPTIONS, process_pool(2), workers=2
    )
    assert spread.deviations, spread.report_lines()
    assert same_games(spread) == serial()


def test_a_local_dask_cluster_of_two_workers_gives_the_serial_report() -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        dask_executors(cluster.scheduler_address) as (make, workers),
    ):
        assert workers == 2
        spread = run_spread(
            EngineSpec(factory=wrong_engine), SEED, GAMES, range(1, GAMES + 1), OPTIONS, make, workers=2
        )
    assert same_games(spread) == serial()


def test_no_dask_scheduler_is_one_clear_error() -> None:
    pytest.importorskip("distributed")
    from canasta_ref.errors import CanastaError

    with pytest.raises(CanastaError) as error, dask_executors("tcp://127.0.0.1:9", timeout=1.0):
        pass
    assert str(error.value).startswith("--dask: no Dask scheduler answers at 'tcp://127.0.0.1:9'")


#: The game whose deal kills the worker playing it.
DEADLY = 3


def deadly_deck() -> str:
    variants, _ = playable_variants(InProcessEngine().info, VARIANTS)
    setup = pick_setup(random_choices(SEED, DEADLY), variants)
    return str(deal_request(setup.variant, setup.deck, setup.first_seat)["deck"])


class KillsItsWorker(ReferenceSession):
    """Ends the process it runs in when dealt the deck of game DEADLY (a worker dying mid-campaign)."""

    def _cmd_setup(self, request: Any) -> dict[str, Any]:
        if request.get("deck") == deadly_deck():
            os._exit(3)
        return super()._cmd_setup(request)


def deadly_engine() -> InProcessEngine:
    return InProcessEngine(KillsItsWorker())


def test_a_worker_that_dies_costs_its_games_and_the_campaign_goes_on() -> None:
    options = CampaignOptions(variants=VARIANTS, max_prefix=10, checked_steps=2)
    spread = run_spread(
        EngineSpec(factory=deadly_engine), SEED, 4, range(1, 5), options, process_pool(2), workers=2, chunk_games=1
    )
    statuses = {r.scenario: r.status for r in spread.results}
    assert statuses == {
        "generated-2-1": "passed",
        "generated-2-2": "passed",
        "generated-2-3": "errored",
        "generated-2-4": "passed",
    }
    lost = next(r for r in spread.results if r.status == "errored")
    assert lost.message.startswith("the worker playing games 3 to 3 was lost (BrokenProcessPool")


def test_conform_with_two_workers_reports_what_a_serial_run_does(tmp_path: Path) -> None:
    argv = ["conform", "--no-scenarios", "--no-progress", "--variant", "fournier", "--games", "4", "--seed", "4"]
    reports = []
    for name, extra in (("serial", []), ("workers", ["--workers", "2"])):
        path = tmp_path / f"{name}.json"
        assert main([*argv, *extra, "--json", str(path)], out=io.StringIO()) == 0
        data = json.loads(path.read_text())
        del data["generated"]["seconds"], data["generated"]["games_per_second"]
        reports.append(data)
    assert reports[0] == reports[1]


@pytest.mark.parametrize(
    ("command", "wanted"),
    [("false", "the engine did not start: "), ("/nonexistent/engine", "the engine '/nonexistent/engine' cannot be")],
)
def test_an_engine_that_does_not_start_errs_each_game_of_its_worker(command: str, wanted: str) -> None:
    spread = run_spread(EngineSpec(command, timeout=30), SEED, 2, range(1, 3), OPTIONS, process_pool(2), workers=2)
    assert [r.status for r in spread.results] == ["errored", "errored"]
    assert all(r.message.startswith(wanted) for r in spread.results), spread.results[0].message


def test_a_long_campaign_says_how_far_it_got() -> None:
    said = io.StringIO()
    progress = CampaignProgress(10_000, said, every=0.0)
    progress(1200)
    line = said.getvalue()
    assert line.startswith("1200 of 10000 games played in ") and line.endswith(" games a second)\n")
    quiet = io.StringIO()
    CampaignProgress(10, quiet)(4)  # within the first minute: nothing said
    assert quiet.getvalue() == ""


def test_progress_counts_the_games_of_each_chunk_as_it_comes_back() -> None:
    counts: list[int] = []
    run_spread(
        EngineSpec(factory=wrong_engine),
        SEED,
        GAMES,
        range(1, GAMES + 1),
        OPTIONS,
        process_pool(2, VARIANTS),
        workers=2,
        progress=counts.append,
    )
    assert counts == sorted(counts) and counts[-1] == GAMES and len(counts) == len(chunks(1, GAMES, 2))


def test_a_forking_pool_loads_the_reference_s_rules_before_its_workers_start(monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta_ref.conformance.workers as workers

    loaded: list[str] = []
    monkeypatch.setattr(workers, "reference_rules", loaded.append)
    monkeypatch.setattr(workers, "_forks", lambda: True)
    workers.process_pool(2, VARIANTS)().shutdown()
    assert loaded == list(VARIANTS)
    monkeypatch.setattr(workers, "_forks", lambda: False)  # spawned workers would not inherit them
    workers.process_pool(2, VARIANTS)().shutdown()
    assert loaded == list(VARIANTS)
