"""A campaign of generated games: games ``first`` to ``last`` of a seed played on one engine, then shrunk.

Each game is named by the campaign's seed and its number and played from its own choices (``choices``), so a
part of a campaign (a shard, a worker's chunk, one game alone) plays exactly the games one run would. A game that
ends in an engine failure is reported as errored or timed out, the engine is restarted, and the run goes on; it
stops after ``MAX_FAILED_IN_A_ROW`` such games in a row, or when the engine cannot be restarted.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..spec import list_variants
from .campaign_report import Example, GeneratedReport, ScenarioText, scenario_id_of
from .choices import random_choices
from .deviations import Mask
from .engines import Engine, EngineFailure, EngineInfo
from .failures import scenario_yaml
from .generated_game import GameSkipped, Runner
from .runner import Result, failure_status, unnamed_melds
from .session import variant_newer_than
from .shrinking import shrink_deviation, to_shrink
from .variants import reference_rules

#: The run stops after this many games in a row end with an engine failure.
MAX_FAILED_IN_A_ROW = 5


@dataclass(frozen=True)
class CampaignOptions:
    """How a campaign's games are played and shrunk: the same for each of its parts (see
    ``run_generated_games`` for each)."""

    variants: tuple[str, ...] = ()
    masks: tuple[Mask, ...] = ()
    max_prefix: int = 300
    checked_steps: int = 20
    illegal: int = 15
    probes: int = 10
    shrink_seconds: float = 20.0
    max_shrink_runs: int = 400
    max_shrunk: int = 8


#: Said once when games deviated and the engine could not be set at the reference's position: a line each, so that
#: each fits the summary's screen width.
NO_RESYNC_NOTES = (
    "no written-out set-up: after a disagreement each game was dealt again and the reference's actions replayed",
    "a game whose replayed actions the engine did not all take ended there",
)


def playable_variants(info: EngineInfo, variants: Sequence[str]) -> tuple[list[str], str]:
    """The variants the games may play (the engine's, among those asked for, that its version can play), and
    the variants left out because its version is older than they need, said in words (empty if none)."""
    played = [v for v in list_variants() if v in info.variants and (not variants or v in variants)]
    needs = {v: variant_newer_than(info.protocol, reference_rules(v)) for v in played}
    too_old = "; ".join(
        unnamed_melds(info.protocol, since, *[v for v in played if needs[v] == since])
        for since in sorted(set(needs.values()) - {0})
    )
    return [v for v in played if not needs[v]], too_old


def new_runner(engine: Engine, variants: list[str], options: CampaignOptions) -> Runner:
    return Runner(
        engine,
        variants,
        max_prefix=options.max_prefix,
        checked_steps=options.checked_steps,
        illegal=options.illegal,
        probes=options.probes,
        masks=options.masks,
    )


def play_part(
    engine: Engine, seed: int, requested: int, numbers: range, options: CampaignOptions
) -> tuple[GeneratedReport, Runner | None]:
    """Games ``numbers`` of the campaign played (not shrunk): the part's report, and its runner (None when no
    game could be played)."""
    report = GeneratedReport(seed, requested, numbers.start, numbers.stop - 1, options.max_shrunk, list(options.masks))
    started = time.monotonic()
    playable, too_old = playable_variants(engine.info, options.variants)
    if not playable or not numbers:
        if numbers:
            wanted = ", ".join(options.variants) if options.variants else "any bundled variant"
            listed = ", ".join(engine.info.variants) or "none"
            message = too_old or f"the engine plays none of: {wanted} (the variants its hello lists: {listed})"
            report.game_results[0] = Result(report.label, ",".join(options.variants) or "-", "skipped", message)
        return report, None
    if too_old:
        report.notes.append(f"not played: {too_old}")
    runner = new_runner(engine, playable, options)
    play_games(runner, report, numbers)
    if runner.log.groups and not runner.can_resync:
        report.notes.extend(NO_RESYNC_NOTES)
    keep_examples(runner, report)
    report.seconds = time.monotonic() - started
    return report, runner


def play_games(runner: Runner, report: GeneratedReport, numbers: Iterable[int]) -> None:
    """Each game of ``numbers`` from its own choices; a game that deviated is told by its deviations."""
    in_a_row = 0
    for number in numbers:
        runner.game_number = number
        key = f"{report.label}-{number}"
        try:
            variant, steps, deviated = runner.game(random_choices(report.seed, number))
        except GameSkipped as skipped:
            report.game_results[number] = Result(key, "-", "skipped", str(skipped))
            continue
        except EngineFailure as failure:
            runner.channel.reset()
            message = f"engine {failure.kind}: {failure.detail}"
            report.game_results[number] = Result(key, "-", failure_status(failure), message, stderr=failure.stderr)
            in_a_row += 1
            if not restarted(runner.engine, report):
                return
            if in_a_row >= MAX_FAILED_IN_A_ROW:
                report.notes.append(f"stopped after {in_a_row} games in a row ended with an engine failure")
                return
            continue
        in_a_row = 0
        report.played[variant] += 1
        report.steps += steps
        if not deviated:
            report.game_results[number] = Result(key, variant, "passed", f"{steps} steps")


def restarted(engine: Engine, report: GeneratedReport) -> bool:
    """The engine restarted after a failure; False (and a note) if it could not be."""
    try:
        engine.restart()
    except EngineFailure as failure:
        report.notes.append(f"the engine could not be restarted: {failure.detail}")
        return False
    return True


def keep_examples(runner: Runner, report: GeneratedReport) -> None:
    """The part's deviations, each with the game it was first seen in written as a scenario."""
    report.deviations = list(runner.log.groups.values())
    for group in report.deviations:
        failure = runner.first[group.key]
        failure.game_number = group.first_game
        text = (
            "" if group.mask is not None else scenario_yaml(failure, scenario_id_of(report.label, group), report.seed)
        )
        first = ScenarioText(failure.message, text, len(failure.steps), failure.setup.variant)
        report.examples[group.key] = Example(first, order=runner.first_order[group.key])


def shrink_part(runner: Runner, report: GeneratedReport, options: CampaignOptions) -> None:
    """The deviations a campaign shrinks, among this part's, shrunk (each from its first game, alone)."""
    for group in to_shrink(report):
        if not report.examples[group.key].shrink_tried:
            shrink_deviation(runner, report, group, seconds=options.shrink_seconds, max_runs=options.max_shrink_runs)


def run_part(engine: Engine, seed: int, requested: int, numbers: range, options: CampaignOptions) -> GeneratedReport:
    """Games ``numbers`` of the campaign played and their deviations shrunk: a part a merge can join (a shard's
    own first ``max_shrunk`` deviations include every one of the campaign's first ``max_shrunk`` it first saw)."""
    report, runner = play_part(engine, seed, requested, numbers, options)
    if runner is not None:
        started = time.monotonic()
        shrink_part(runner, report, options)
        report.seconds += time.monotonic() - started
    return report.finish()


def run_generated_games(
    engine: Engine,
    games: int,
    seed: int,
    *,
    variants: list[str] | None,
    masks: Sequence[Mask] = (),
    max_prefix: int = CampaignOptions.max_prefix,
    checked_steps: int = CampaignOptions.checked_steps,
    illegal: int = CampaignOptions.illegal,
    probes: int = CampaignOptions.probes,
    shrink_seconds: float = CampaignOptions.shrink_seconds,
    max_shrink_runs: int = CampaignOptions.max_shrink_runs,
    max_shrunk: int = CampaignOptions.max_shrunk,
    games_range: tuple[int, int] | None = None,
) -> GeneratedReport:
    """Play games 1 to ``games`` of the campaign of ``seed`` (or games ``first`` to ``last`` of ``games_range``)
    on ``engine`` against the reference; see ``generated``'s docstring.

    ``max_prefix``: the most steps a game plays before its checked part (only verdicts compared);
    ``checked_steps``: steps checked in full after that; ``illegal`` and ``probes``: how many steps in a hundred
    try a move meant to be refused, or first send the chosen legal action for a wrong seat; ``masks``: known
    deviations (not shrunk, reported as known failures); ``shrink_seconds`` and ``max_shrink_runs``: the budget for
    shrinking each deviation (the smallest failing game found so far is kept); ``max_shrunk``: how many distinct
    deviations are shrunk (the others keep the game they were first found in).
    """
    options = CampaignOptions(
        variants=tuple(variants or ()),
        masks=tuple(masks),
        max_prefix=max_prefix,
        checked_steps=checked_steps,
        illegal=illegal,
        probes=probes,
        shrink_seconds=shrink_seconds,
        max_shrink_runs=max_shrink_runs,
        max_shrunk=max_shrunk,
    )
    first, last = games_range or (1, games)
    return run_part(engine, seed, games, range(first, last + 1), options)


__all__ = [
    "MAX_FAILED_IN_A_ROW",
    "CampaignOptions",
    "play_part",
    "run_generated_games",
    "run_part",
    "shrink_part",
]
