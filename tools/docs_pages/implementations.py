"""The Implementations page: how real engines fared against the suite, from their committed reports alone.

Built without running any engine, so the site can be rebuilt anywhere; everything is sorted so two runs on the
same reports write the same page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from canasta_ref.conformance.scenario import Scenario
from canasta_ref.render import section_title

from .markup import code, header, md, plural, slug
from .reports import STATUSES, Deviation, Outcome, Report, describe_counts, statuses_by_scenario

PAGE = "implementations.md"
#: Statuses that make a rule's cell "fail".
FAILING = frozenset({"failed", "known failure", "errored", "timed out"})
#: How many scenarios a cell names before it says how many more there are.
NAMED = 3
#: The most characters of a message a table shows (reports keep them whole).
MESSAGE_CHARS = 240
GITHUB = "https://github.com"


class SiteLinks(Protocol):
    """What the page needs from the site: links to rules and scenarios, and the rules' sections."""

    def rule_link(self, from_page: str, rule_id: str, preferred: Sequence[str] = ...) -> str: ...

    def scenario_link(self, from_page: str, scenario_id: str) -> str: ...

    def rule_section(self, rule_id: str) -> str | None: ...

    def section_order(self) -> Sequence[str]: ...


def engine_anchor(report: Report) -> str:
    return "engine-" + slug(report.key)


# ------------------------------------------------------------------------------------------------ verdicts
def rule_verdict(statuses: Mapping[str, Sequence[str]]) -> tuple[str, list[str]]:
    """A rule's cell from the statuses of its scenarios that are in a report (scenario id -> one status a
    variant): the verdict and the scenarios it names. A failure outweighs a partial pass, which outweighs an
    implementation-defined difference; skipped results count only when nothing else ran."""
    if not statuses:
        return "—", []
    with_status = {name: [s for s in found if s != "skipped"] for name, found in statuses.items()}
    ran = {name: found for name, found in with_status.items() if found}
    if not ran:
        return "skipped", []
    for verdict, wanted in (("fail", FAILING), ("partial", {"partial"}), ("differs", {"differs"})):
        named = sorted(name for name, found in ran.items() if any(s in wanted for s in found))
        if named:
            return verdict, named
    return "pass", []


def rules_of(scenarios: Sequence[Scenario]) -> dict[str, list[str]]:
    """Each rule id the scenarios cite, with the ids of the scenarios that cite it (sorted)."""
    out: dict[str, list[str]] = {}
    for scenario in scenarios:
        for rule in scenario.rules:
            out.setdefault(rule, []).append(scenario.id)
    return {rule: sorted(ids) for rule, ids in sorted(out.items())}


# ------------------------------------------------------------------------------------------------ the page
def implementations_page(site: SiteLinks, reports: Sequence[Report], scenarios: Sequence[Scenario]) -> str:
    """The whole page: the intro, then either how to add a report or the engines, the matrix and the details."""
    out = [header("conformance/reports/*.json", "conformance/scenarios/*.yaml"), "# Implementations", ""]
    out += [
        "How real Canasta engines fare against the conformance suite. Each engine's result comes from a report "
        "committed as `conformance/reports/<engine>.json`: the JSON that `canasta-ref conform --json` writes, "
        "made by `tools/conform_adapters.py` against the engine's adapter in `conformance/adapters/`. No engine "
        "runs when this page is built. A report is a snapshot at the commits it names: the engine may have "
        "changed since, and a scenario added to the suite since shows as —.",
        "",
    ]
    if not reports:
        return "\n".join([*out, *_no_reports()])
    out += _engines_table(reports)
    out += _matrix(site, reports, scenarios)
    bundled = {s.id for s in scenarios}
    for report in reports:
        out += _engine_section(site, report, bundled)
    return "\n".join(out).rstrip() + "\n"


def _no_reports() -> list[str]:
    return [
        "**No report is committed yet.** To add one:",
        "",
        "1. Write an adapter for the engine under `conformance/adapters/<engine>/`: it speaks the "
        "[engine protocol](protocol.md) for the engine.",
        "2. Run `python tools/conform_adapters.py`: it plays the suite against each adapter and writes "
        "`conformance/reports/<engine>.json`, naming the engine's repository and commit.",
        "3. Commit the report and regenerate the site (`tools/site.sh build`).",
        "",
        'A report can also be written by hand, `canasta-ref conform --impl "COMMAND" --json '
        "conformance/reports/<engine>.json`, though it then names no repository or commit.",
        "",
    ]


def _headings(reports: Sequence[Report]) -> list[str]:
    """Each report's column heading: the engine's name, with the file's name when two reports share it."""
    names = [r.name for r in reports]
    return [
        f"[{md(r.name)}](#{engine_anchor(r)})" + (f" ({code(r.key)})" if names.count(r.name) > 1 else "")
        for r in reports
    ]


def _repository(report: Report) -> tuple[str, str]:
    """The engine's repository and commit as links, or dashes when the report names no adapter."""
    if report.adapter is None:
        return "—", "—"
    a = report.adapter
    repo = f"[{md(a.repository)}]({GITHUB}/{a.repository})"
    return repo, f"[{code(a.commit[:12])}]({GITHUB}/{a.repository}/commit/{a.commit})"


def _engines_table(reports: Sequence[Report]) -> list[str]:
    shown = _statuses(reports)
    out = ["## Engines {#engines}", ""]
    out += ["| engine | version | protocol | repository | commit | " + " | ".join(shown) + " |"]
    out += ["|---|---|---|---|---|" + "---|" * len(shown)]
    for report, heading in zip(reports, _headings(reports), strict=True):
        counts = dict(report.counts)
        repo, commit = _repository(report)
        cells = [heading, code(report.version), str(report.protocol), repo, commit]
        cells += [str(counts.get(s, 0)) for s in shown]
        out.append("| " + " | ".join(cells) + " |")
    return [*out, ""]


def _statuses(reports: Sequence[Report]) -> list[str]:
    """The statuses some report counts, in the pages' order; at least passed and failed."""
    seen = {s for r in reports for s, _ in r.counts} | {"passed", "failed"}
    return [s for s in STATUSES if s in seen]


def _matrix(site: SiteLinks, reports: Sequence[Report], scenarios: Sequence[Scenario]) -> list[str]:
    out = [
        "## By rule {#by-rule}",
        "",
        "One row per rule the bundled scenarios cite, one column per engine. *pass*: every scenario of the rule "
        "that ran passed; *fail*: some failed, errored, timed out or is a known failure (named, linked to its "
        "example); *partial*: the checks that ran passed but some could not be made; *differs*: an "
        "implementation-defined outcome differs from the reference's, which is no failure; *skipped*: every "
        "scenario of the rule was skipped; —: no scenario of the rule is in the report.",
        "",
    ]
    table = [statuses_by_scenario(r) for r in reports]
    headings = " | ".join(_headings(reports))
    for section, rules in _sections(site, rules_of(scenarios)):
        title = section_title(section) if section else "Other rules"
        out += [f"### {md(title)} {{#by-rule-{slug(section or 'other')}}}"]
        out += ["", f"| rule | {headings} |", "|---|" + "---|" * len(reports)]
        for rule, ids in rules:
            cells = [_cell(site, report, found, ids) for report, found in zip(reports, table, strict=True)]
            out.append(f"| {site.rule_link(PAGE, rule)} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def _sections(site: SiteLinks, rules: Mapping[str, list[str]]) -> list[tuple[str | None, list[tuple[str, list[str]]]]]:
    """The rules grouped by section, sections in order of play (rules of no known section last)."""
    order = {name: index for index, name in enumerate(site.section_order())}
    groups: dict[str | None, list[tuple[str, list[str]]]] = {}
    for rule, ids in rules.items():
        groups.setdefault(site.rule_section(rule), []).append((rule, ids))
    return sorted(groups.items(), key=lambda kv: (kv[0] is None, order.get(kv[0] or "", len(order)), kv[0] or ""))


def _cell(site: SiteLinks, report: Report, found: Mapping[str, list[str]], ids: Sequence[str]) -> str:
    verdict, named = rule_verdict({i: found[i] for i in ids if i in found})
    if not named:
        return verdict
    links = ", ".join(site.scenario_link(PAGE, i) for i in named[:NAMED])
    more = len(named) - NAMED
    if more > 0:
        links += f" and [{more} more](#{engine_anchor(report)}-results)"
    return f"{verdict}: {links}"


# ------------------------------------------------------------------------------------------------ one engine
def _engine_section(site: SiteLinks, report: Report, bundled: set[str]) -> list[str]:
    anchor = engine_anchor(report)
    out = [f"## {md(report.name)} {{#{anchor}}}", ""]
    out += [
        f"- Report: {code(report.file)}",
        f"- Engine: {md(report.name)} {code(report.version)}, protocol {report.protocol}",
    ]
    if report.adapter is None:
        out.append("- Adapter: none named (the report was not made by `tools/conform_adapters.py`)")
    else:
        repo, commit = _repository(report)
        out.append(
            f"- Adapter: {code(report.adapter.path)} for {code(report.adapter.engine)}, testing {repo} at "
            f"commit {commit}"
        )
    out.append(f"- Results: {describe_counts(report.counts)}")
    others = sum(o.scenario not in bundled for o in report.results)
    if others:
        out.append(
            f"- Not in the table by rule: {plural(others, 'result')} of no bundled scenario (generated games, "
            "deal-perft files, the handshake, or scenarios not in today's suite)"
        )
    out.append("")
    out += _results_table(site, report)
    if report.generated is not None:
        out += _generated(site, report)
    return out


def _results_table(site: SiteLinks, report: Report) -> list[str]:
    """Every result that is neither passed nor skipped, by scenario then variant."""
    listed = sorted(
        (o for o in report.results if o.status not in ("passed", "skipped")), key=lambda o: (o.scenario, o.variant)
    )
    out = [f"### Results other than passed and skipped {{#{engine_anchor(report)}-results}}", ""]
    if not listed:
        return [*out, "None.", ""]
    out += ["| scenario | variant | status | rule | message |", "|---|---|---|---|---|"]
    out += [_result_row(site, o) for o in listed]
    return [*out, ""]


def _result_row(site: SiteLinks, outcome: Outcome) -> str:
    rule = site.rule_link(PAGE, outcome.rule) if outcome.rule else "—"
    return (
        f"| {site.scenario_link(PAGE, outcome.scenario)} | {code(outcome.variant)} | {outcome.status} | {rule} | "
        f"{_short(outcome.message)} |"
    )


def _generated(site: SiteLinks, report: Report) -> list[str]:
    gen = report.generated
    assert gen is not None
    out = [f"### Generated games {{#{engine_anchor(report)}-generated}}", ""]
    out += [
        f"{plural(gen.games, 'game')} with seed {gen.seed}, {plural(gen.steps, 'step')}, "
        f"{plural(gen.disagreements, 'disagreement')} with the reference, in {gen.seconds:g} s.",
        "",
    ]
    if not gen.deviations:
        return [*out, "No deviation.", ""]
    out += ["| rule | check | action | games | first game | status | message |", "|---|---|---|---|---|---|---|"]
    rows = sorted(gen.deviations, key=lambda d: (d.rule or "", d.check, d.action or "", d.first_game, d.message))
    out += [_deviation_row(site, d) for d in rows]
    return [*out, ""]


def _deviation_row(site: SiteLinks, d: Deviation) -> str:
    rule = site.rule_link(PAGE, d.rule) if d.rule else "—"
    action = code(d.action) if d.action else "—"
    status = d.status + (f" ({md(d.known)})" if d.known else "")
    message = _short(d.message)
    if d.scenario:
        message += f" (shrunk to {code(d.scenario)}, {plural(d.steps or 0, 'step')})"
    return f"| {rule} | {code(d.check)} | {action} | {d.games} | {d.first_game} | {status} | {message} |"


def _short(text: str) -> str:
    """A message's text for a table cell: on one line, escaped, cut to :data:`MESSAGE_CHARS`."""
    flat = " ".join(text.split())
    if len(flat) > MESSAGE_CHARS:
        flat = flat[: MESSAGE_CHARS - 1] + "…"
    return md(flat) if flat else "—"
