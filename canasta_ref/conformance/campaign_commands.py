"""The command line of campaigns: ``conform``'s options for a part of a campaign and for workers, and
``canasta-ref report merge``, which joins the JSON reports of a campaign's parts into the report of one run."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..cliargs import add_command, count, input_file, output_file
from ..errors import CanastaError
from ..files import NotRegularFile, read_regular_bytes

if TYPE_CHECKING:  # imported by the functions that use them: building the command line needs none of them
    from .campaign_report import GeneratedReport
    from .deviations import Mask
    from .engines import Engine, EngineInfo
    from .runner import Result


def games_range(text: str) -> tuple[int, int]:
    """``FIRST:LAST``: games numbered from 1, both included."""
    first, colon, last = text.partition(":")
    if not colon or not first.isdigit() or not last.isdigit() or not 1 <= int(first) <= int(last):
        raise argparse.ArgumentTypeError(f"expected FIRST:LAST, game numbers from 1 with FIRST <= LAST, not {text!r}")
    return int(first), int(last)


def shard(text: str) -> tuple[int, int]:
    """``I/N``: the I-th of N parts, from 1."""
    index, slash, parts = text.partition("/")
    if not slash or not index.isdigit() or not parts.isdigit() or not 1 <= int(index) <= int(parts):
        raise argparse.ArgumentTypeError(f"expected I/N with 1 <= I <= N (the I-th of N shards), not {text!r}")
    return int(index), int(parts)


def add_campaign_arguments(conform: argparse.ArgumentParser) -> None:
    """``conform``'s options for playing part of a campaign, and for spreading it over workers."""
    part = conform.add_mutually_exclusive_group()
    part.add_argument(
        "--games-range",
        metavar="FIRST:LAST",
        type=games_range,
        help="play only games FIRST to LAST (both included) of the --games of --seed: each game is the same as in "
        "a whole run; reports of parts join with 'canasta-ref report merge'",
    )
    part.add_argument(
        "--game", metavar="N", type=int, help="play only game N of the --games of --seed (and shrink what it shows)"
    )
    part.add_argument(
        "--shard", metavar="I/N", type=shard, help="play the I-th of N equal runs of consecutive games of the campaign"
    )
    spread = conform.add_mutually_exclusive_group()
    spread.add_argument(
        "--workers", type=count, default=0, help="play the games in this many processes, an engine each (default: one)"
    )
    spread.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on the workers of the Dask scheduler at ADDRESS (needs canasta-ref[dask])",
    )
    saved = conform.add_mutually_exclusive_group()
    saved.add_argument(
        "--saved-games",
        metavar="DIR",
        help="keep failing games (shrunk scenarios) here, a folder an engine, and replay them first next time "
        "(default: $CANASTA_REF_DIR, else .canasta-ref/failing-games)",
    )
    saved.add_argument("--no-saved-games", action="store_true", help="neither replay nor keep failing games")
    conform.add_argument(
        "--shrink-runs",
        type=count,
        default=400,
        help="play at most this many smaller games to shrink each deviation (default 400)",
    )


def numbers(args: argparse.Namespace) -> range:
    """The game numbers this run plays, out of ``--games``; a part outside the campaign is a mistake."""
    games = int(args.games)
    if args.game is not None:
        first = last = int(args.game)
    elif args.games_range is not None:
        first, last = args.games_range
    elif args.shard is not None:
        index, parts = args.shard
        first, last = (index - 1) * games // parts + 1, index * games // parts
    else:
        return range(1, games + 1)
    if not 1 <= first <= last <= games:
        raise CanastaError(f"games {first} to {last} are not among the campaign's --games {games} (numbered from 1)")
    return range(first, last + 1)


def run_campaign(
    args: argparse.Namespace, engine: Engine, masks: Sequence[Mask], variants: list[str] | None
) -> GeneratedReport:
    """The generated games of ``conform``: on ``engine``, or spread over ``--workers`` or ``--dask``. The campaign's
    modules are imported here: they draw on Hypothesis, a test tool the command line does not otherwise need."""
    from .campaign import CampaignOptions, run_part

    options = CampaignOptions(
        variants=tuple(variants or ()),
        masks=tuple(masks),
        shrink_seconds=args.shrink_seconds,
        max_shrink_runs=args.shrink_runs,
        max_shrunk=args.max_shrunk,
    )
    wanted = numbers(args)
    if not args.workers and not args.dask:
        return run_part(engine, args.seed, args.games, wanted, options)
    from .workers import CampaignProgress, EngineSpec, dask_executors, process_pool, run_spread

    spec = EngineSpec(args.impl, args.timeout)
    progress = None if args.no_progress else CampaignProgress(len(wanted), sys.stderr)
    if args.dask:
        with dask_executors(args.dask) as (make, workers):
            return run_spread(spec, args.seed, args.games, wanted, options, make, workers=workers, progress=progress)
    pool = process_pool(args.workers, options.variants)
    return run_spread(spec, args.seed, args.games, wanted, options, pool, workers=args.workers, progress=progress)


def campaign_with_saved(
    args: argparse.Namespace, engine: Engine, masks: Sequence[Mask], variants: list[str] | None
) -> tuple[GeneratedReport, list[Result], list[str]]:
    """The campaign, after the failing games saved by earlier runs are replayed; its failing games saved. The
    report, the replayed games' results, and the lines that say what became of the saved games."""
    from .saved_games import replay_saved, save_failing, saved_folder, saved_lines

    folder = None if args.no_saved_games else saved_folder(args.saved_games, engine.info.name)
    replayed = replay_saved(engine, folder, masks) if folder is not None else []
    report = run_campaign(args, engine, masks, variants)
    saved = save_failing(report, folder) if folder is not None else 0
    return report, replayed, saved_lines(replayed, saved, folder) if folder is not None else []


# -- canasta-ref report merge ------------------------------------------------------------------------------------------
#: The fields of a conform report that merging computes again; the others are taken from the first report.
COMPUTED = ("engine", "counts", "results", "checks", "generated", "summary")


#: The largest report merged (a campaign of 100,000 games writes about 20 MiB).
MAX_REPORT_BYTES = 512 * 1024 * 1024


def _load(path: str) -> dict[str, Any]:
    try:
        raw = read_regular_bytes(path, MAX_REPORT_BYTES)
    except (OSError, NotRegularFile) as error:
        raise CanastaError(f"{path}: cannot read the report: {error}") from None
    if len(raw) > MAX_REPORT_BYTES:
        raise CanastaError(f"{path}: the report is larger than {MAX_REPORT_BYTES // 2**20} MiB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise CanastaError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise CanastaError(f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    if not isinstance(data, dict):
        raise CanastaError(f"{path}: expected a JSON object (a report of 'canasta-ref conform --json')")
    return data


def _engine_info(data: Mapping[str, Any], where: str) -> EngineInfo:
    from .campaign_report import JsonReader
    from .engines import EngineInfo

    reader = JsonReader(where)
    engine = reader.get(data, "engine", dict, "")
    variants = engine.get("variants", [])
    return EngineInfo(
        name=reader.get(engine, "name", str, "engine."),
        version=reader.get(engine, "version", str, "engine."),
        protocol=reader.get(engine, "protocol", int, "engine."),
        variants=[str(v) for v in variants] if isinstance(variants, list) else [],
    )


def _other_results(data: Mapping[str, Any], label: str | None, where: str) -> list[Result]:
    """A report's results of scenarios and deal-perft files (those of its generated games left out)."""
    from .campaign_report import JsonReader, result_from_json

    reader = JsonReader(where)
    results = reader.items(data, "results", "", lambda item, path: result_from_json(reader, item, path))
    return [r for r in results if label is None or (not r.scenario.startswith(f"{label}-") and r.scenario != label)]


def merge_files(paths: Sequence[str]) -> tuple[list[Result], EngineInfo, GeneratedReport | None, dict[str, Any]]:
    """The reports of ``paths`` joined: scenario and deal-perft results once each (the first report's), the
    campaigns' parts merged, the engine of the first report; other fields of the first report kept."""
    from .campaign_report import campaign_label, merge_reports, report_from_json

    loaded = [(path, _load(path)) for path in paths]
    info = _engine_info(loaded[0][1], paths[0])
    parts = [report_from_json(data["generated"], path) for path, data in loaded if "generated" in data]
    if parts and len(parts) != len(loaded):
        raise CanastaError("some reports have generated games and some have none: merge the parts of one campaign")
    label = campaign_label(parts[0].seed) if parts else None
    results: list[Result] = []
    seen: set[str] = set()
    for path, data in loaded:
        for result in _other_results(data, label, path):
            if result.key not in seen:
                seen.add(result.key)
                results.append(result)
    extra = {k: v for k, v in loaded[0][1].items() if k not in COMPUTED}
    return results, info, merge_reports(parts) if parts else None, extra


def _merge(args: argparse.Namespace, out: TextIO) -> int:
    from .report import failed, json_report, summary

    results, info, campaign, extra = merge_files(args.reports)
    if campaign is not None:
        results.extend(campaign.results)
        extra["generated"] = campaign.to_json()
    lines = summary(
        results, info, campaign.campaign() if campaign else None, extra=campaign.headline_lines() if campaign else ()
    )
    out.writelines(line + "\n" for line in lines)
    if args.output:
        report = json_report(results, info, extra, campaign.campaign() if campaign else None)
        Path(args.output).write_text(report, encoding="utf-8")
    return 1 if failed(results) else 0


def add_report_commands(sub: Any) -> None:
    report = add_command(sub, "report", "work with the JSON reports of conform")
    actions = report.add_subparsers(dest="report_command", required=True, metavar="ACTION", help="what to do")
    merge = add_command(
        actions,
        "merge",
        "join the JSON reports of a campaign's parts (--shard, --games-range) into the report of one run",
        "The games are joined, each deviation counted once, and the summary printed as one run prints it.",
    )
    merge.add_argument("reports", nargs="+", type=input_file, help="JSON reports of 'canasta-ref conform --json'")
    merge.add_argument("-o", "--output", metavar="FILE", type=output_file, help="write the merged JSON report here")
    merge.set_defaults(run=_merge)


__all__ = [
    "add_campaign_arguments",
    "add_report_commands",
    "games_range",
    "merge_files",
    "numbers",
    "run_campaign",
    "shard",
]
