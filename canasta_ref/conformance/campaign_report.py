"""A campaign's report: its games' results and deviations, and the merging of the reports of its parts.

A campaign may be played in parts (shards, workers, machines), each a range of its game numbers. A part's report
keeps what merging needs: every game's result by number, each deviation with the games that show it, the
scenario of the first game it was seen in and, when the part shrank it, the shrunk one. ``merge_reports`` joins
parts into the report one run would have given: the same games, each deviation once (its games joined, its first
game the earliest of all, its scenario that game's), the same deviations shrunk (the first ``max_shrunk`` in the
order first seen) and the same summary. ``finish`` derives the results and scenarios from that state, so a
merged report and a serial one are finished alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import CanastaError
from .deviations import Deviation, DeviationKey, Mask, best_mask, masks_from
from .findings import Campaign
from .plaintext import plural
from .report import ORDER, disagreeing, nothing_ran
from .runner import Result


@dataclass
class GeneratedScenario:
    """A disagreement turned into a scenario file's text."""

    id: str
    variant: str
    message: str
    yaml: str
    steps: int


@dataclass
class ScenarioText:
    """A deviation's game written as a scenario: what differed, the file's text, its steps, its variant."""

    message: str
    yaml: str
    steps: int
    variant: str


@dataclass
class Example:
    """What a campaign keeps of one deviation for its scenario: the game it was first seen in, as a scenario
    (and where in that game it was seen, after how many other deviations), and the shrunk game if shrunk."""

    first: ScenarioText
    order: int = 0
    shrunk: ScenarioText | None = None
    shrink_tried: bool = False
    shrink_runs: int = 0


def campaign_label(seed: int) -> str:
    """The prefix of the results of a campaign's games: ``generated-<seed>`` (``m`` for a minus)."""
    return f"generated-{seed}" if seed >= 0 else f"generated-m{-seed}"


@dataclass
class GeneratedReport:
    """What a campaign (or a part of it: games ``first`` to ``last``) found; ``finish`` fills ``results`` and
    ``scenarios`` from the rest."""

    seed: int
    requested: int
    first: int = 1
    last: int = 0
    max_shrunk: int = 8
    masks: list[Mask] = field(default_factory=list)
    #: Each game's result by number (a deviating game has none: its deviations tell it); 0: nothing was playable.
    game_results: dict[int, Result] = field(default_factory=dict)
    steps: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: The distinct deviations found, in the order first seen (masked ones included).
    deviations: list[Deviation] = field(default_factory=list)
    examples: dict[DeviationKey, Example] = field(default_factory=dict)
    #: The games played, by variant.
    played: Counter[str] = field(default_factory=Counter)
    results: list[Result] = field(default_factory=list)
    scenarios: list[GeneratedScenario] = field(default_factory=list)
    shrink_runs: int = 0
    shrink_notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return campaign_label(self.seed)

    @property
    def games(self) -> int:
        """How many games were played (passed, deviated, skipped or ended by an engine failure)."""
        return len(self.numbers())

    def numbers(self) -> set[int]:
        """The numbers of the games played."""
        return (self.game_results.keys() - {0}) | self.disagreeing_games()

    def campaign(self) -> Campaign:
        """What a run's summary needs of these games."""
        return Campaign(self.results, self.deviations, dict(self.played))

    @property
    def disagreements(self) -> int:
        """How many distinct deviations not known failures were found (a scenario each; the JSON's name)."""
        return len(self.scenarios)

    def disagreeing_games(self) -> set[int]:
        """The numbers of the games that show a deviation (known or not)."""
        return set().union(*(d.games for d in self.deviations))

    def finish(self) -> GeneratedReport:
        """The results and scenarios: each game's result, then a failed result and a scenario for each unmasked
        deviation (shrunk for the first ``max_shrunk``), a known failure for each masked one, and each mask no
        game needed as stale."""
        self.deviations.sort(key=lambda d: (d.first_game, self.examples[d.key].order))
        self.results = [self.game_results[n] for n in sorted(self.game_results)]
        self.scenarios, self.shrink_runs, self.shrink_notes = [], 0, []
        unmasked = [d for d in self.deviations if d.mask is None]
        for index, group in enumerate(unmasked):
            self._add_scenario(group, self.examples[group.key], shrunk=index < self.max_shrunk)
        for group in self.deviations:
            if group.mask is not None:
                self.results.append(self._known_result(group))
        if self.games > 0:
            used = {id(d.mask) for d in self.deviations if d.mask is not None}
            self.results.extend(self._stale_result(mask) for mask in self.masks if id(mask) not in used)
        return self

    def _add_scenario(self, group: Deviation, example: Example, *, shrunk: bool) -> None:
        """A deviation's result and its game (shrunk, if it was among those to shrink) as a scenario file."""
        chosen = example.first
        if shrunk and example.shrink_tried:
            self.shrink_runs += example.shrink_runs
            if example.shrunk is None:
                self.shrink_notes.append(f"the deviation {group.key} was not seen again when its game was played again")
            else:
                chosen = example.shrunk
        scenario_id = scenario_id_of(self.label, group)
        group.scenario_id, group.steps, group.scenario_yaml = scenario_id, chosen.steps, chosen.yaml
        games = len(group.games)
        message = (
            f"{chosen.message}\n({group.key}; in {games} game{plural(games)}, first game {group.first_game})"
            f"\n(shrunk to {chosen.steps} steps; the scenario is printed with the generated games)"
        )
        self.scenarios.append(GeneratedScenario(scenario_id, chosen.variant, chosen.message, chosen.yaml, chosen.steps))
        self.results.append(Result(scenario_id, chosen.variant, "failed", message, rule=group.key.rule))

    def _known_result(self, group: Deviation) -> Result:
        assert group.mask is not None
        return Result(
            f"{self.label}-{group.key.slug}",
            self.examples[group.key].first.variant,
            "known failure",
            f"{group.mask.reason} (was: {group.message}; in {len(group.games)} game(s))",
            rule=group.key.rule,
        )

    def _stale_result(self, mask: Mask) -> Result:
        return Result(
            f"{self.label}-known-deviation",
            "*",
            "unexpected pass",
            f"a known deviation ({mask.describe()}: {mask.reason}) was not seen in {self.games} games; "
            "remove it from the known failures",
        )

    def summary(self) -> dict[str, Any]:
        seconds = round(self.seconds, 3)
        return {
            "seed": self.seed,
            "games": self.games,
            "steps": self.steps,
            "disagreements": self.disagreements,
            "games_disagreeing": len(self.disagreeing_games()),
            "seconds": seconds,
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds > 0 else 0.0,
            "shrink_runs": self.shrink_runs,
            "deviations": [d.to_json() for d in self.deviations],
        }

    def headline_lines(self) -> list[str]:
        """The run in a line, with its notes (for the summary: the deviations are among the run's findings)."""
        s = self.summary()
        which = "" if (self.first, self.last) == (1, self.requested) else f", games {self.first} to {self.last}"
        lines = [
            f"generated games (seed {self.seed}{which}): {s['games']} of {self.last - self.first + 1} played, "
            f"{s['steps']} steps, {self.disagreeing_words()}, {s['seconds']:.1f} s ({s['games_per_second']} games/s)"
        ]
        lines.extend(f"  {note}" for note in [*self.notes, *self.shrink_notes])
        if self.requested > 0 and nothing_ran(self.results):
            reasons = sorted({r.message for r in self.results}) or ["no game was played"]
            lines.append(f"  nothing was tested: no generated game was played ({'; '.join(reasons[:3])})")
        if self.scenarios:
            lines.append("  each deviation shrunk to a scenario: --verbose prints them, the JSON report holds them")
        return lines

    def disagreeing_words(self) -> str:
        """How many games disagree and by how many distinct deviations, e.g. "48 disagree (7 deviations, 2 of them
        known)": a game shows one or more deviations, a deviation is seen in one or more games."""
        games = len(self.disagreeing_games())
        if games == 0:
            return disagreeing(0)
        found = len(self.deviations)
        known = sum(d.mask is not None for d in self.deviations)
        of_them = f", {known} of them known" if known else ""
        return f"{disagreeing(games)} ({found} deviation{plural(found)}{of_them})"

    def report_lines(self) -> list[str]:
        """Everything: the headline, engine failures, each deviation's key, and each shrunk scenario's file."""
        lines = self.headline_lines()
        for result in self.results:
            if result.status in ("errored", "timed out", "unexpected pass"):
                lines.append(f"  {result.status.upper()}: {result.key}: {result.message}")
        if self.deviations:
            lines.append(f"  {len(self.deviations)} distinct deviation(s), by check / rule / action:")
        for deviation in self.deviations:
            games = len(deviation.games)
            known = f" [known: {deviation.mask.reason}]" if deviation.mask is not None else ""
            lines.append(f"    {deviation.key}: {games} game{plural(games)}, first game {deviation.first_game}{known}")
        for scenario in self.scenarios:
            lines.append(f"DISAGREEMENT {scenario.id}@{scenario.variant}: {scenario.message}")
            lines.append(
                f"  shrunk to {scenario.steps} step{plural(scenario.steps)}; as a scenario (the "
                f"reference's verdicts), save as conformance/scenarios/{scenario.id}.yaml:"
            )
            lines.append(f"# ---- {scenario.id}.yaml ----")
            lines.extend(scenario.yaml.rstrip("\n").splitlines())
            lines.append(f"# ---- end of {scenario.id}.yaml ----")
        return lines

    def to_json(self) -> dict[str, Any]:
        """The summary, and under ``campaign`` everything a merge needs."""
        out = self.summary()
        out["campaign"] = {
            "requested": self.requested,
            "first": self.first,
            "last": self.last,
            "max_shrunk": self.max_shrunk,
            "masks": [m.to_json() for m in self.masks],
            "notes": self.notes,
            "played": dict(self.played),
            "game_results": [{"game": n, **r.to_json()} for n, r in sorted(self.game_results.items())],
            "deviations": [_deviation_state(d, self.examples[d.key]) for d in self.deviations],
        }
        return out


def scenario_id_of(label: str, group: Deviation) -> str:
    """The id of a deviation's scenario: the campaign, the game it was first seen in, its key."""
    return f"{label}-{group.first_game}-{group.key.slug}"


# -- merging ---------------------------------------------------------------------------------------------------------
def merge_reports(parts: Sequence[GeneratedReport]) -> GeneratedReport:
    """The report one run of all the parts' games would have given (see the module docstring); parts of other
    campaigns, or sharing a game, are refused."""
    if not parts:
        raise CanastaError("no report to merge")
    head = parts[0]
    for part in parts[1:]:
        if (part.seed, part.requested) != (head.seed, head.requested):
            raise CanastaError(
                f"the reports are of different campaigns: seed {head.seed} of {head.requested} games and "
                f"seed {part.seed} of {part.requested} games"
            )
    out = GeneratedReport(head.seed, head.requested, max_shrunk=head.max_shrunk, masks=list(head.masks))
    out.first = min(p.first for p in parts)
    out.last = max(p.last for p in parts)
    for part in parts:
        _join_games(out, part)
        for group in part.deviations:
            _join_deviation(out, group, part.examples[group.key])
    played = out.numbers()
    missing = [n for n in range(out.first, out.last + 1) if n not in played]
    if missing and played:
        out.notes.append(f"{len(missing)} game(s) of games {out.first} to {out.last} are in no report")
    return out.finish()


def _join_games(out: GeneratedReport, part: GeneratedReport) -> None:
    """A part's games, counts and notes added to ``out``; a game in two parts is a mistake."""
    twice = sorted((part.game_results.keys() - {0}) & out.game_results.keys())
    if twice:
        raise CanastaError(f"game {twice[0]} of seed {part.seed} is in two of the reports: merge each part once")
    out.game_results.update(part.game_results)
    out.played.update(part.played)
    out.steps += part.steps
    out.seconds += part.seconds
    out.notes.extend(note for note in part.notes if note not in out.notes)


def _join_deviation(out: GeneratedReport, group: Deviation, example: Example) -> None:
    """A part's deviation joined to the same key's: its games added; the earlier first game, and its example,
    kept."""
    known = next((d for d in out.deviations if d.key == group.key), None)
    if known is None:
        known = Deviation(group.key, group.message, group.first_game, mask=group.mask)
        out.deviations.append(known)
        out.examples[group.key] = example
    elif (group.first_game, example.order) < (known.first_game, out.examples[group.key].order):
        known.first_game, known.message = group.first_game, group.message
        out.examples[group.key] = example
    known.games |= group.games
    for variant, games in group.by_variant.items():
        known.by_variant.setdefault(variant, set()).update(games)


# -- reading a report back ---------------------------------------------------------------------------------------------
class JsonReader:
    """Fields of a JSON report, each checked: a missing or mistyped one is an error naming the file and field."""

    def __init__(self, where: str) -> None:
        self.where = where

    def get(self, data: Any, name: str, kind: type | tuple[type, ...], path: str) -> Any:
        if not isinstance(data, Mapping) or name not in data:
            raise CanastaError(f"{self.where}: field {path}{name} is missing")
        value = data[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise CanastaError(f"{self.where}: field {path}{name} should be of type {names}")
        return value

    def optional(self, data: Mapping[str, Any], name: str, kind: type, path: str, default: Any) -> Any:
        return self.get(data, name, kind, path) if name in data else default

    def items(self, data: Any, name: str, path: str, read: Callable[[Any, str], Any]) -> list[Any]:
        values = self.get(data, name, list, path)
        return [read(value, f"{path}{name}[{index}].") for index, value in enumerate(values)]


def result_from_json(reader: JsonReader, data: Any, path: str) -> Result:
    """A result as ``Result.to_json`` wrote it."""
    status = reader.get(data, "status", str, path)
    if status not in ORDER:
        raise CanastaError(f"{reader.where}: field {path}status: unknown status {status!r}")
    return Result(
        reader.get(data, "scenario", str, path),
        reader.get(data, "variant", str, path),
        status,
        reader.optional(data, "message", str, path, ""),
        rule=reader.optional(data, "rule", str, path, None),
        stderr=reader.optional(data, "stderr", str, path, ""),
        file=reader.optional(data, "file", str, path, ""),
        checks=reader.optional(data, "checks", dict, path, {}),
        failures=reader.optional(data, "failures", list, path, []),
        skips=reader.optional(data, "skips", dict, path, {}),
    )


def report_from_json(data: Any, where: str) -> GeneratedReport:
    """A campaign report as ``GeneratedReport.to_json`` wrote it (``where`` names the file, for errors)."""
    reader = JsonReader(where)
    state = reader.get(data, "campaign", dict, "generated.")
    path = "generated.campaign."
    report = GeneratedReport(
        seed=reader.get(data, "seed", int, "generated."),
        requested=reader.get(state, "requested", int, path),
        first=reader.get(state, "first", int, path),
        last=reader.get(state, "last", int, path),
        max_shrunk=reader.get(state, "max_shrunk", int, path),
        steps=reader.get(data, "steps", int, "generated."),
        seconds=float(reader.get(data, "seconds", (int, float), "generated.")),
        notes=[str(note) for note in reader.get(state, "notes", list, path)],
        played=Counter({str(k): int(v) for k, v in reader.get(state, "played", dict, path).items()}),
    )
    report.masks = masks_from(reader.items(state, "masks", path, lambda m, p: _mask_entry(reader, m, p)))
    for number, result in reader.items(state, "game_results", path, lambda r, p: _game_result(reader, r, p)):
        report.game_results[number] = result
    for group, example in reader.items(state, "deviations", path, lambda d, p: _deviation(reader, d, p, report)):
        report.deviations.append(group)
        report.examples[group.key] = example
    return report


def _mask_entry(reader: JsonReader, data: Any, path: str) -> dict[str, Any]:
    reader.get(data, "reason", str, path)
    return dict(data)


def _game_result(reader: JsonReader, data: Any, path: str) -> tuple[int, Result]:
    return reader.get(data, "game", int, path), result_from_json(reader, data, path)


def _deviation_state(group: Deviation, example: Example) -> dict[str, Any]:
    """A deviation with its games and its example, for a merge."""
    out: dict[str, Any] = {
        "check": group.key.check,
        "rule": group.key.rule,
        "action": group.key.action,
        "cause": group.key.cause,
        "message": group.message,
        "first_game": group.first_game,
        "games": sorted(group.games),
        "variants": {variant: sorted(games) for variant, games in group.by_variant.items()},
        "order": example.order,
        "first": text_json(example.first),
        "shrink_tried": example.shrink_tried,
        "shrink_runs": example.shrink_runs,
    }
    if example.shrunk is not None:
        out["shrunk"] = text_json(example.shrunk)
    return out


def text_json(text: ScenarioText) -> dict[str, Any]:
    return {"message": text.message, "yaml": text.yaml, "steps": text.steps, "variant": text.variant}


def _text(reader: JsonReader, data: Any, path: str) -> ScenarioText:
    return ScenarioText(
        reader.get(data, "message", str, path),
        reader.get(data, "yaml", str, path),
        reader.get(data, "steps", int, path),
        reader.get(data, "variant", str, path),
    )


def _numbers(reader: JsonReader, data: Any, name: str, path: str) -> set[int]:
    values = reader.get(data, name, list, path)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise CanastaError(f"{reader.where}: field {path}{name} should list game numbers")
    return set(values)


def _deviation(reader: JsonReader, data: Any, path: str, report: GeneratedReport) -> tuple[Deviation, Example]:
    key = DeviationKey(
        reader.get(data, "check", str, path),
        reader.get(data, "rule", (str, type(None)), path),
        reader.get(data, "action", (str, type(None)), path),
        reader.get(data, "cause", (str, type(None)), path),
    )
    group = Deviation(
        key,
        reader.get(data, "message", str, path),
        reader.get(data, "first_game", int, path),
        games=_numbers(reader, data, "games", path),
        mask=best_mask(report.masks, key),
    )
    variants = reader.get(data, "variants", dict, path)
    group.by_variant = {str(v): _numbers(reader, variants, v, f"{path}variants.") for v in variants}
    shrunk = data.get("shrunk")
    example = Example(
        _text(reader, reader.get(data, "first", dict, path), f"{path}first."),
        order=reader.get(data, "order", int, path),
        shrunk=None if shrunk is None else _text(reader, shrunk, f"{path}shrunk."),
        shrink_tried=reader.get(data, "shrink_tried", bool, path),
        shrink_runs=reader.get(data, "shrink_runs", int, path),
    )
    return group, example


__all__ = [
    "Example",
    "GeneratedReport",
    "GeneratedScenario",
    "JsonReader",
    "ScenarioText",
    "campaign_label",
    "merge_reports",
    "report_from_json",
    "result_from_json",
    "scenario_id_of",
    "text_json",
]
