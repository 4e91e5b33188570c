"""A pytest plugin: the conformance suite as pytest tests against an engine under test.

``pytest --canasta-impl "my-engine --protocol"`` collects every scenario (for each variant it applies to) as a
test named ``scenario-id[variant]`` and runs it against the engine through the protocol: one engine process for
the session, restarted after it crashes, hangs or prints garbage. A failure shows the runner's message (and
the engine's stderr); a scenario the engine cannot run (a capability or variant it lacks) is a pytest skip.

Options: ``--canasta-scenarios PATH`` (files or folders, repeatable; default: the bundled suite),
``--canasta-variant ID`` (repeatable; default: every variant a scenario applies to), ``--canasta-timeout S``
(seconds per answer; default 10). Without ``--canasta-impl`` the plugin does nothing. Items are named
``canasta::scenario-id[variant]``; ``-k`` also matches a scenario's rule ids, level and variant
(``-k "PILE.TAKE and not alternative"``). A session in which no scenario was found, or every scenario that
ran was skipped (an engine that plays none of the variants, say), tested nothing: it fails, saying so.

Generated games: ``--canasta-games N`` (with ``--canasta-seed S``, default 0) adds games 1 to N of the campaign of
seed S as items ``canasta::generated-S-n``, one a game; each is played alone (a game is named by its seed and
number, so it is the same whichever process plays it: ``pytest -n 4`` with pytest-xdist spreads them) and a game
that deviates fails with its deviations, each shrunk to a scenario (``--canasta-shrink-seconds``, default 5).

The plugin is registered through the ``pytest11`` entry point ``canasta``, so installing canasta-ref enables
it; ``-p no:canasta`` disables it.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from ..errors import CanastaError
from .campaign_report import GeneratedReport, campaign_label
from .engines import EngineFailure, SubprocessEngine
from .report import BAD, result_lines, stderr_lines
from .runner import Result, Selection, run_case
from .scenario import Scenario, load_scenarios

__all__ = ["CanastaSuite", "GameItem", "ScenarioFailed", "ScenarioItem", "pytest_addoption", "pytest_configure"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("canasta", "Canasta conformance suite (canasta-ref)")
    group.addoption(
        "--canasta-impl",
        metavar="COMMAND",
        help="run the conformance scenarios against this engine command (speaking conformance/PROTOCOL.md)",
    )
    group.addoption(
        "--canasta-scenarios",
        metavar="PATH",
        action="append",
        default=[],
        help="scenario files or folders (repeatable; default: the bundled suite)",
    )
    group.addoption(
        "--canasta-variant",
        metavar="ID",
        action="append",
        default=[],
        help="only this variant (repeatable; default: every variant a scenario applies to)",
    )
    group.addoption(
        "--canasta-timeout",
        metavar="SECONDS",
        type=float,
        default=10.0,
        help="seconds to wait for each answer of the engine (default 10)",
    )

    group.addoption(
        "--canasta-games",
        metavar="N",
        type=int,
        default=0,
        help="also run games 1 to N of a campaign of generated games, one item a game (default 0)",
    )
    group.addoption("--canasta-seed", metavar="S", type=int, default=0, help="the campaign's seed (default 0)")
    group.addoption(
        "--canasta-shrink-seconds",
        metavar="SECONDS",
        type=float,
        default=5.0,
        help="seconds to shrink each deviation of a failing generated game (default 5)",
    )


def pytest_configure(config: pytest.Config) -> None:
    command = config.getoption("canasta_impl", None)
    if command:
        config.addinivalue_line("markers", "canasta: a conformance scenario run against --canasta-impl")
        config.pluginmanager.register(ConformancePlugin(config, str(command)), "canasta-conformance")


#: How a failure's text introduces the engine's stderr.
ENGINE_STDERR = "stderr of the engine"


class EngineUnavailable(Exception):
    """The engine could not be started (or restarted): every scenario fails with this."""


class ConformancePlugin:
    """The active part, registered only when ``--canasta-impl`` is given: collection and the shared engine."""

    def __init__(self, config: pytest.Config, command: str) -> None:
        self.command = command
        self.timeout = float(config.getoption("canasta_timeout"))
        self.paths = [Path(p) for p in config.getoption("canasta_scenarios")]
        self.variants = list(config.getoption("canasta_variant"))
        self.games = int(config.getoption("canasta_games"))
        self.seed = int(config.getoption("canasta_seed"))
        self.shrink_seconds = float(config.getoption("canasta_shrink_seconds"))
        self._engine: SubprocessEngine | None = None
        self._broken: str | None = None
        self.collected: int | None = None
        self.statuses: list[str] = []
        self.nothing_tested: str | None = None

    def engine(self) -> SubprocessEngine:
        """The session's engine, started on first use; a start that failed is not tried again."""
        if self._broken is not None:
            raise EngineUnavailable(self._broken)
        if self._engine is None:
            try:
                self._engine = SubprocessEngine(self.command, timeout=self.timeout)
            except EngineFailure as failure:
                self._broken = "\n".join(
                    [f"the engine did not start: {failure}", *stderr_lines(failure.stderr, ENGINE_STDERR)]
                )
                raise EngineUnavailable(self._broken) from None
            except OSError as error:
                self._broken = f"the engine did not start: {self.command!r}: {error}"
                raise EngineUnavailable(self._broken) from None
        return self._engine

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        """Add the scenarios before -k, -m and --deselect look at the items."""
        suite = CanastaSuite.from_parent(session, name="canasta", nodeid="canasta", plugin=self)
        items.extend(session.genitems(suite))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Stop the engine; a session that tested nothing of the suite fails (it would otherwise pass)."""
        self.close()
        self.nothing_tested = self.nothing_tested_reason()
        if self.nothing_tested and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def nothing_tested_reason(self) -> str | None:
        """Why the suite tested nothing: no scenario found, or every scenario run was skipped (None otherwise;
        scenarios all deselected by -k or -m are the user's choice)."""
        if self.collected == 0:
            return "no scenario or game was found (check --canasta-scenarios, --canasta-variant, --canasta-games)"
        if self.statuses and all(status == "skipped" for status in self.statuses):
            return f"all {len(self.statuses)} scenarios run were skipped"
        return None

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.nothing_tested:
            terminalreporter.write_line(f"canasta: nothing was tested: {self.nothing_tested}", red=True)

    def pytest_report_header(self) -> list[str]:
        return [f"canasta engine: {self.command} (timeout {self.timeout:g} s)"]


class CanastaSuite(pytest.Collector):
    """The scenarios chosen by the options, one item per scenario and variant."""

    def __init__(self, *, plugin: ConformancePlugin, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plugin = plugin

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        scenarios = load_scenarios(self.plugin.paths or None)
        cases = Selection(variants=self.plugin.variants).cases(scenarios)
        self.plugin.collected = len(cases) + max(self.plugin.games, 0)
        for number in range(1, self.plugin.games + 1):
            yield GameItem.from_parent(self, name=f"{campaign_label(self.plugin.seed)}-{number}", number=number)
        for scenario, variant in cases:
            yield ScenarioItem.from_parent(
                self,
                name=f"{scenario.id}[{variant}]",
                path=Path(scenario.file).resolve(),
                scenario=scenario,
                variant=variant,
            )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, CanastaError):
            return f"the scenarios could not be loaded:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))


class SuiteItem(pytest.Item):
    """An item of the suite, run against the session's engine."""

    @property
    def plugin(self) -> ConformancePlugin:
        parent = self.parent
        assert isinstance(parent, CanastaSuite)
        return parent.plugin

    def engine(self) -> SubprocessEngine:
        """The session's engine; one that cannot be started fails the item, saying why."""
        try:
            return self.plugin.engine()
        except EngineUnavailable as error:
            self.plugin.statuses.append("errored")
            raise ScenarioFailed(self.unavailable(str(error))) from None

    def unavailable(self, message: str) -> Result:
        """The item's result when the engine is unavailable."""
        raise NotImplementedError

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, ScenarioFailed):
            return "\n".join(result_lines(excinfo.value.result, stderr_label=ENGINE_STDERR))
        return str(super().repr_failure(excinfo))


class ScenarioFailed(Exception):
    """A scenario that did not pass: failed, errored or timed out."""

    def __init__(self, result: Result) -> None:
        self.result = result
        super().__init__(f"{result.key}: {result.status}: {result.message}")


class ScenarioItem(SuiteItem):
    """One scenario for one variant, run against the session's engine."""

    def __init__(self, *, scenario: Scenario, variant: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.variant = variant
        self.result: Result | None = None
        self.add_marker(pytest.mark.canasta)
        self.extra_keyword_matches.update([scenario.level, variant, *scenario.rules])

    def runtest(self) -> None:
        engine = self.engine()
        result = run_case(engine, self.scenario, self.variant)  # engine failures, restarts included, are results
        self.result = result
        self.plugin.statuses.append(result.status)
        self.user_properties.append(("canasta_status", result.status))
        if result.status == "skipped":
            _skip_here(result.message)
        if result.status == "differs":  # an implementation-defined scenario: told, not failed
            pytest.xfail(f"implementation-defined, and the engine differs: {result.message}")
        if result.status == "partial":  # what ran passed; what did not is said, never counted as passed
            warnings.warn(PartialScenario(f"{result.key}: {result.message}"), stacklevel=1)
            return
        if result.status != "passed":
            raise ScenarioFailed(result)

    def unavailable(self, message: str) -> Result:
        return Result(self.scenario.id, self.variant, "errored", message, file=self.scenario.file)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"{self.scenario.id}[{self.variant}] ({self.scenario.level}: {self.scenario.title})"


class GameFailed(Exception):
    """A generated game that deviated, or ended in an engine failure."""

    def __init__(self, report: GeneratedReport) -> None:
        self.report = report
        super().__init__(report.headline_lines()[0])


class GameItem(SuiteItem):
    """One generated game of the campaign, played alone against the session's engine."""

    def __init__(self, *, number: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.number = number
        self.add_marker(pytest.mark.canasta)
        self.extra_keyword_matches.add("generated")

    def unavailable(self, message: str) -> Result:
        return Result(self.name, "-", "errored", message)

    def runtest(self) -> None:
        from .campaign import run_generated_games  # Hypothesis and the game generator: only when games are asked

        plugin, engine = self.plugin, self.engine()
        report = run_generated_games(
            engine,
            plugin.games,
            plugin.seed,
            variants=plugin.variants or None,
            games_range=(self.number, self.number),
            shrink_seconds=plugin.shrink_seconds,
            max_shrunk=3,
        )
        statuses = [r.status for r in report.results]
        plugin.statuses.append("skipped" if set(statuses) == {"skipped"} else "passed")
        if any(status in BAD for status in statuses):
            raise GameFailed(report)
        if set(statuses) == {"skipped"}:
            _skip_here(report.results[0].message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, GameFailed):
            report = excinfo.value.report
            problems = [
                line for r in report.results if r.status in BAD for line in result_lines(r, stderr_label=ENGINE_STDERR)
            ]
            return "\n".join([*report.report_lines(), *problems])
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"{self.name} (generated game {self.number} of seed {self.plugin.seed})"


class PartialScenario(UserWarning):
    """A scenario whose checks that ran passed, with some skipped for a capability the engine lacks."""


def _skip_here(reason: str) -> None:
    """Skip, reported at the scenario's file rather than at this line (pytest's private flag, if it has it)."""
    try:
        raise pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:  # pragma: no cover - an older or newer pytest without the flag
        pytest.skip(reason)
