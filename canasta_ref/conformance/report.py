"""Reports for people (a progress bar and a summary) and for machines (JSON)."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .engines import EngineInfo
from .findings import GENERATED, Campaign, Finding, Findings, findings, rule_text
from .plaintext import plural
from .runner import Result, plain

#: The statuses that fail a run. ``differs`` (an implementation-defined scenario the engine plays otherwise) and
#: ``partial`` (every check that ran passed, some were skipped) are shown and counted, but fail nothing.
BAD = ("failed", "errored", "timed out", "unexpected pass")
#: The statuses a summary lists result by result, besides the bad ones.
SHOWN = ("partial", "differs", "skipped", "known failure")
#: The order of the summary's counts; passed and failed are always given, the others when they occur.
ORDER = (
    "passed",
    "partial",
    "failed",
    "differs",
    "errored",
    "timed out",
    "skipped",
    "known failure",
    "unexpected pass",
)


#: The fewest seconds between two lines of progress written to a stream that is not a terminal (a log), for a run
#: of tests and for a campaign's games alike.
PROGRESS_SECONDS = 60.0


class Progress:
    """How far a run got: on a terminal a one-line bar rewritten in place; elsewhere (a log, a pipe) a plain line
    at most every ``every`` seconds, so that a log keeps a line a minute, not a bar a test."""

    def __init__(
        self,
        stream: TextIO,
        width: int = 30,
        every: float = PROGRESS_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.width = width
        self.bad = 0
        self.terminal = is_terminal(stream)
        self.every = every
        self.clock = clock
        self.said = clock()

    def __call__(self, done: int, total: int, result: Result) -> None:
        self.bad += result.status in BAD
        if self.terminal:
            self.bar(done, total)
        else:
            self.log_line(done, total)

    def log_line(self, done: int, total: int) -> None:
        """A plain line, if ``every`` seconds went by since the start or the last one."""
        now = self.clock()
        if now - self.said < self.every:
            return
        self.said = now
        self.stream.write(f"{done} of {total} tests run, {self.bad} bad\n")
        self.stream.flush()

    def bar(self, done: int, total: int) -> None:
        """The bar rewritten in place, ended by a new line with the last test."""
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total}  {self.bad} bad ")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a closed or unusual stream is taken for none)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def stderr_lines(stderr: str, label: str = "stderr") -> list[str]:
    """The last ten lines of an engine's stderr under a label, indented for a result's text (none if empty)."""
    if not stderr:
        return []
    return [f"    {label}:", *("      " + line for line in stderr.splitlines()[-10:])]


def result_lines(result: Result, *, stderr_label: str = "stderr") -> list[str]:
    """A result for people: its status, test and file, then its message and the tail of the engine's stderr."""
    head = f"{result.status.upper()}: {result.key}" + (f"  ({result.file})" if result.file else "")
    return [head, *("    " + line for line in result.message.splitlines()), *stderr_lines(result.stderr, stderr_label)]


def few(texts: Sequence[str], limit: int = 5) -> str:
    """The first ``limit`` texts, in backquotes, and how many more there are."""
    shown = ", ".join(f"`{t}`" for t in texts[:limit])
    return shown + (f" and {len(texts) - limit} more" if len(texts) > limit else "")


def summary(
    results: Sequence[Result],
    info: EngineInfo,
    campaign: Campaign | None = None,
    *,
    extra: Sequence[str] = (),
    verbose: bool = False,
) -> list[str]:
    """The run for people: with ``verbose`` every result that is not a plain pass first; then the summary, which
    fits on a screen (SCREEN_LINES of SCREEN_WIDTH): per variant, each deviation in a line under its rule or its
    cause, with how many scenarios and generated games show it and one step; each rule's text and source once, in
    a line, if the screen has room for them (else the failures' messages in --verbose say them); skips summed by
    reason; ``extra`` (the generated games' line); engine failures; the counts."""
    lines: list[str] = []
    if verbose:
        for result in results:
            if result.status in BAD or result.status in SHOWN:
                lines.extend(result_lines(result))
    found = findings(results, info, campaign)
    short = _summary_lines(found, results, info, extra, texts=True, verbose=verbose)
    if len(short) > SCREEN_LINES:
        short = _summary_lines(found, results, info, extra, texts=False, verbose=verbose)
    return lines + short


#: One screen: the summary is at most this many lines (when it can be: a line a deviation, and a variant, skip
#: reasons and engine failures beside), its deviations' and skips' lines at most this many characters.
SCREEN_LINES = 50
SCREEN_WIDTH = 120


def _summary_lines(
    found: Findings,
    results: Sequence[Result],
    info: EngineInfo,
    extra: Sequence[str],
    *,
    texts: bool,
    verbose: bool,
) -> list[str]:
    """The summary's lines after the results --verbose lists: the engine, the variants claimed and declared,
    each variant's deviations (a line each, cut to the screen's width, and with ``texts`` each rule's text and
    source in a line), skips, ``extra``, engine failures, the counts."""
    lines = [engine_line(info), *_claim_lines(found, info), *_declared_lines(found)]
    said: set[tuple[str, str]] = set()
    for variant in found.variants():
        lines.extend(_variant_lines(found, variant))
        for finding in sorted(found.by_variant.get(variant, []), key=_weight):
            lines.extend(_finding_lines(finding, said, texts))
    if not texts and _any_rule(found):
        lines.append("each rule's text and source: --verbose, in each failure's message")
    lines.extend(_skip_lines(found))
    lines.extend(extra)
    lines.extend(_problem_lines(results, verbose=verbose))
    reason = nothing_ran_reason(results, info)
    if reason:  # the counts then say only what was skipped: nothing to add up
        lines.append(f"nothing was tested: {reason}")
    else:
        lines.extend(totals_lines(found))
    lines.append(counts_line(results))
    return lines


def _any_rule(found: Findings) -> bool:
    """Whether a failing finding is filed under a rule (whose text and source the summary could say)."""
    return any(f.rule and not f.differs for group in found.by_variant.values() for f in group)


def fit(line: str, width: int = SCREEN_WIDTH) -> str:
    """A line cut to ``width`` characters, its end marked by "..." when cut."""
    return line if len(line) <= width else line[: width - 3].rstrip() + "..."


def engine_line(info: EngineInfo) -> str:
    if not info.protocol:  # the handshake failed: nothing but the command is known
        return f"engine: {info.name} (it did not start)"
    return f"engine: {info.title()} (protocol {info.protocol})"


def counts_line(results: Sequence[Result]) -> str:
    """E.g. "180 passed, 3 partial, 6 failed": passed and failed always, the other statuses when they occur."""
    counts: Counter[str] = Counter(r.status for r in results)
    return ", ".join(f"{counts.get(s, 0)} {s}" for s in ORDER if counts.get(s) or s in ("passed", "failed"))


def _claim_lines(found: Findings, info: EngineInfo) -> list[str]:
    """The variants the engine claims, and those it does not as one line with the tests they would have had
    (named, or counted when their names would not fit the screen's width)."""
    if not found.unclaimed:
        return []
    tests = sum(found.unclaimed.values())
    claimed = ", ".join(info.variants) or "none"
    skipped = f"({tests} test{plural(tests)} skipped)"
    line = f"variants claimed: {claimed}; not claimed: {', '.join(found.unclaimed)} {skipped}"
    if len(line) > SCREEN_WIDTH:
        others = len(found.unclaimed)
        unclaimed = f"{others} other{plural(others)}, --verbose names them"
        line = f"variants claimed: {claimed}; not claimed: {unclaimed} {skipped}"
    return [line]


def _declared_lines(found: Findings) -> list[str]:
    """The parameters the engine declared it plays otherwise, once, per variant: e.g. "classic-2p: draw_count 1
    (the variant's 2)"; the checks that depend on them are skipped, so none of them is a failure."""
    if not found.declared:
        return []
    lines = ["declared differences (not failures; the checks that depend on them are skipped):"]
    for variant, values in found.declared.items():
        said = ", ".join(
            f"{name} {plain(mine)} (the variant's {plain(theirs)})" for name, (mine, theirs) in values.items()
        )
        lines.append(f"  {variant}: {said}")
    return lines


def _variant_lines(found: Findings, variant: str) -> list[str]:
    """A variant's counts: its scenarios' (and deal-perft files') results, then its generated games and how many
    of them disagree; on a second line when one would not fit the screen's width."""
    counts = found.counts.get(variant, Counter())
    tests = ", ".join(f"{counts[s]} {s}" for s in ORDER if counts.get(s))
    parts = [f"{_tests_word(found, variant)}: {tests}"] if tests else []
    played = found.games[variant]
    if played:
        parts.append(f"{played} generated game{plural(played)}, {disagreeing(len(found.disagreeing.get(variant, ())))}")
    line = f"{variant}: {'; '.join(parts) or 'nothing ran'}"
    if len(line) <= SCREEN_WIDTH or len(parts) < 2:
        return [fit(line)]
    return [fit(f"{variant}: {parts[0]}"), fit(f"{variant}: {parts[1]}")]


def _tests_word(found: Findings, variant: str) -> str:
    """What a variant's counts count: scenarios, and deal-perft files when the run had some."""
    return "scenarios and deal-perft files" if found.perft[variant] else "scenarios"


def disagreeing(games: int) -> str:
    """How many generated games disagree with the reference, e.g. "48 disagree", "none disagrees"."""
    if games == 0:
        return "none disagrees"
    return f"{games} disagree{'s' if games == 1 else ''}"


#: What a result counted apart from the variants' lines stands for, by status, where it is not one a test.
APART_UNITS = {GENERATED: {"failed": "a deviation each", "known failure": "a deviation each"}}


def totals_lines(found: Findings) -> list[str]:
    """What the run's totals (the last line) add to the variants' lines, when they add anything: the generated
    games' results (a game or a deviation each), the tests of variants not claimed, others."""
    said = []
    for kind, counts in found.apart.items():
        units = APART_UNITS.get(kind, {})
        parts = []
        for status in ORDER:
            if counts.get(status):
                unit = f" ({units[status]})" if status in units else ""
                parts.append(f"{counts[status]} {status}{unit}")
        said.append(f"{kind}: {', '.join(parts)}")
    if not said:
        return []
    line = " + ".join([TOTALS, *said])
    if len(line) <= SCREEN_WIDTH:
        return [line]
    return [TOTALS, *(fit(f"  + {text}") for text in said)]


#: The start of the line that says what the totals add up.
TOTALS = "totals = variants' lines"


def _weight(finding: Finding) -> tuple[bool, int]:
    """The order of a variant's findings: those that fail first, the most widely seen first."""
    return finding.differs, -(len(finding.scenarios) + len(finding.games))


def _finding_lines(finding: Finding, said: set[tuple[str, str]], texts: bool = True) -> list[str]:
    """A finding on one line, then (with ``texts``) its rule's text and source in a line if not said yet (for
    this variant's wording); an implementation-defined difference is one line (its rule or cause, its
    scenarios), no text: it fails nothing. Each line fits the screen's width: an example too long is shortened,
    keeping the step and what was expected and got."""
    if finding.differs:
        return [fit(_differs_line(finding))]
    shown = [f"{len(finding.scenarios)} scenario{plural(len(finding.scenarios))}"] if finding.scenarios else []
    if finding.games:
        shown.append(f"{len(finding.games)} game{plural(len(finding.games))}")
    if finding.consequences:
        shown.append(f"{finding.consequences} later failure{plural(finding.consequences)}")
    head = f"  {_short_label(finding.label)}: {', '.join(shown)}; e.g. "
    lines = [fit(head + _example(finding, SCREEN_WIDTH - len(head)))]
    if finding.rule is not None and texts:
        text = rule_text(finding.variant, finding.rule)
        if text and (finding.rule, text[0]) not in said:
            said.add((finding.rule, text[0]))
            lines.append(" " * RULE_INDENT + _short_rule(text))
    return lines


#: A cause of verdicts that differ, which a line of the summary says shorter (its example says expected and got).
VERDICT_CAUSE = re.compile(r"^verdict: (refuses|accepts) `(\w+)` actions the reference (?:accepts|refuses)$")


def _short_label(label: str) -> str:
    """A finding's rule, or its cause said as short as its line allows (a verdict's: which way, which action)."""
    return VERDICT_CAUSE.sub(r"verdict: \1 `\2`", label)


#: What a finding's example says at length that a line of the summary says shorter.
SHORTER = (
    (
        re.compile(r"the reference accepts this action; the engine refused it citing no rule"),
        "expected accepted, got refused",
    ),
    (
        re.compile(r"the reference refuses this action \(([A-Z0-9_.]+)\); the engine accepted it"),
        r"expected refused by \1, got accepted",
    ),
    (re.compile(r" got refused by an unnamed rule \("), " got refused ("),
    (
        re.compile(r"the (hand|match) should (?:have ended|be over|end)(?: after this hand)?; the engine says \w+="),
        r"\1 over: expected true, got ",
    ),
    (
        re.compile(r"the (hand|match) should go on(?: after this hand)?; the engine says \w+="),
        r"\1 over: expected false, got ",
    ),
    (re.compile(r"seat (\d+)'s view field '(\w+)' should be (.*), got "), r"seat \1's \2: expected \3, got "),
)


def _example(finding: Finding, room: int) -> str:
    """A finding's example in ``room`` characters: the rule it is filed under not repeated and long phrases said
    shorter; then, while too long, the engine's words at its end left out, its scenario's name shortened, its
    end cut. What the step expected and got stays to the last."""
    text = finding.example
    for long, short in SHORTER:
        text = long.sub(short, text)
    if VERDICT_CAUSE.match(finding.label):  # the label says which way the verdicts differ already
        text = text.replace(": expected accepted, got refused", "").replace(": expected refused, got accepted", "")
    if finding.rule:
        text = text.replace(f"refused by {finding.rule}", "refused").replace(f" instead of {finding.rule}", "")
    if len(text) > room:
        text = _without_closing_aside(text)
    if len(text) > room:  # the action's cards go first (its kind stays): the scenario's name finds the case
        text = ACTION.sub(r"`\1 ...`", text, count=1)
    where, colon, rest = text.partition(": ")
    keep = room - len(colon + rest) - 3
    if len(text) > room and colon and len(where) > SHORT_NAME:
        text = f"{where[:keep].rstrip('-')}...{colon}{rest}" if keep >= MIN_NAME else rest
    return fit(text, room)


#: An action quoted in a message, of more than one word.
ACTION = re.compile(r"`(\w+) [^`]*`")


#: The fewest characters of a scenario's name an example keeps (else it leaves the name out, keeping the step),
#: and the longest name kept whole however long the rest ("generated game 12": the action's cards go first).
MIN_NAME = 8
SHORT_NAME = 20


def _without_closing_aside(text: str) -> str:
    """``text`` without the bracketed words after what the engine did (its message quoted after a refusal, whole
    or cut), or those it ends with."""
    got = text.rfind(" got ")
    aside = text.find(" (", got) if got >= 0 else -1
    if aside >= 0:
        return text[:aside]
    if not text.endswith(")"):
        return text
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[index], 0)
        if depth == 0:
            return text[:index].rstrip()
    return text


def _short_rule(text: Sequence[str]) -> str:
    """A rule's text and source in one line of the screen: the text's first sentence and the source's name and
    quote, each cut to share the line."""
    sentence = text[0].split(". ", 1)[0].rstrip(".") + "."
    if len(text) < 2:
        return fit(sentence, SCREEN_WIDTH - RULE_INDENT)
    source = fit(text[1], SOURCE_CHARS)
    return f"{fit(sentence, SCREEN_WIDTH - RULE_INDENT - len(source) - 3)} ({source})"


#: The indent of a rule's text under its finding, and the most characters its source takes of a short line.
RULE_INDENT = 6
SOURCE_CHARS = 50


def _differs_line(finding: Finding) -> str:
    """E.g. "  MELD.NOTATION (differs: implementation-defined): notation-melds, and 2 more scenarios"."""
    where = finding.scenarios[:1] or [f"{len(finding.games)} generated game{plural(len(finding.games))}"]
    more = len(finding.scenarios) - 1
    if more > 0:
        where.append(f"and {more} more scenario{plural(more)}")
    return f"  {finding.label} (differs: implementation-defined): {', '.join(where)}"


#: The most skip reasons the summary lists (the JSON report and --verbose have them all).
SKIP_REASONS = 8


def _skip_lines(found: Findings) -> list[str]:
    """Skips summed by reason, a line each: whole tests, then single checks."""
    entries = [(n, f"{n} test{plural(n)}: {reason}") for reason, n in found.skipped_tests.items()]
    entries += [(n, f"{n} check{plural(n)}: {reason}") for reason, n in found.skipped_checks.items()]
    if not entries:
        return []
    entries.sort(key=lambda entry: -entry[0])
    lines = ["skipped, by reason:", *(fit(f"  {text}") for _, text in entries[:SKIP_REASONS])]
    if len(entries) > SKIP_REASONS:
        lines.append(f"  and {len(entries) - SKIP_REASONS} more reasons (in the JSON report)")
    return lines


def _problem_lines(results: Sequence[Result], *, verbose: bool) -> list[str]:
    """Engine failures grouped by what was said (the first with its stderr), each unexpected pass, and how many
    failures were known (each one is listed with --verbose)."""
    lines: list[str] = []
    groups: dict[tuple[str, str], list[Result]] = {}
    for result in results:
        if result.status in ("errored", "timed out"):
            said = result.message.splitlines()[0] if result.message else ""
            groups.setdefault((result.status, said), []).append(result)
    for (status, message), group in groups.items():
        more = f" (and {len(group) - 1} more test{plural(len(group) - 1)})" if len(group) > 1 else ""
        lines.append(f"{status.upper()}: {group[0].key}{more}: {message}")
        lines.extend(stderr_lines(group[0].stderr))
    lines.extend(f"UNEXPECTED PASS: {r.key}: {r.message}" for r in results if r.status == "unexpected pass")
    known = sum(r.status == "known failure" for r in results)
    if known and not verbose:
        lines.append(f"{known} known failure{plural(known)}, as the known-failures file says (--verbose lists them)")
    return lines


def nothing_ran(results: Sequence[Result]) -> bool:
    """True when no test ran: none at all, or every one skipped. Such a run proves nothing, so it is no pass (a
    ``partial`` test ran some checks: it counts as something tested)."""
    return all(r.status == "skipped" for r in results)


def nothing_ran_reason(results: Sequence[Result], info: EngineInfo | None = None) -> str | None:
    """Why nothing was tested, for the summary (None when something was): no test selected, or every test
    skipped, with the commonest reasons (and the engine's empty list of variants, when that is the cause)."""
    if not nothing_ran(results):
        return None
    if not results:
        return "no test was selected (check --scenarios, --variant, --rule and --level)"
    reasons = Counter(r.message for r in results)
    common = "; ".join(f"{reason or 'no reason given'} ({n})" for reason, n in reasons.most_common(3))
    text = f"all {len(results)} tests were skipped: {common}"
    if info is not None and not info.variants:
        text += "; the engine's hello lists no variants"
    return text


def json_report(
    results: Sequence[Result],
    info: EngineInfo,
    extra: dict[str, Any] | None = None,
    campaign: Campaign | None = None,
) -> str:
    """Everything a run found, for machines: the engine, the counts, every result, the checks' outcomes, what
    ``extra`` adds (the generated games, the adapter), and the summary's findings."""
    data: dict[str, Any] = {
        "engine": {"name": info.name, "version": info.version, "protocol": info.protocol, "variants": info.variants},
        "counts": dict(Counter(r.status for r in results)),
        "results": [r.to_json() for r in results],
    }
    checks: Counter[str] = Counter()
    for result in results:
        checks.update(result.checks)
    if checks:
        data["checks"] = dict(checks)
    if extra:
        data.update(extra)
    data["summary"] = findings(results, info, campaign).to_json()
    return json.dumps(data, indent=2)


def failed(results: Sequence[Result]) -> bool:
    """Whether the run fails: a test failed (``differs`` and ``partial`` do not fail it), or nothing was tested."""
    return any(r.status in BAD for r in results) or nothing_ran(results)
