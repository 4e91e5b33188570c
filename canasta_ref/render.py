"""Text for people: seat names, the play log, the score sheet, a seat's view and the rule book."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .engine.game import Event
from .engine.rules import Rules
from .match import HandRecord, MatchResult
from .spec.model import Source, SourceRef, Variant
from .spec.valuetext import value_text

_SEATS = {
    2: ("North", "South"),
    3: ("North", "East", "West"),
    4: ("North", "East", "South", "West"),
    6: ("North", "North-east", "South-east", "South", "South-west", "North-west"),
}


def seat_name(rules: Rules, seat: int) -> str:
    names = _SEATS.get(rules.players)
    return names[seat] if names else f"Seat {seat}"


def side_name(rules: Rules, team: int) -> str:
    """A side named by its seats as dealt: "North-South"; or, where seat names hold a hyphen themselves (six
    players), "North, South-east and South-west"."""
    members = [seat_name(rules, s) for s in range(rules.players) if s % rules.teams == team]
    if len(members) > 1 and any("-" in member for member in members):
        return ", ".join(members[:-1]) + " and " + members[-1]
    return "-".join(members)


def event_line(rules: Rules, event: Event) -> str:
    who = "Deal" if event.seat < 0 else seat_name(rules, event.seat)
    return f"{who}: {event}"


def hand_log(rules: Rules, record: HandRecord) -> list[str]:
    lines = [f"Hand {record.number} (deck seed {record.seed}); {seat_name(rules, record.first_seat)} plays first"]
    lines.extend("  " + event_line(rules, e) for e in record.events)
    lines.append(f"  Hand ends: {record.score.end_reason}")
    for name, parts_of, total, _ in score_rows(rules, record):
        parts = ", ".join(f"{k} {v:+d}" for k, v in parts_of.items() if v)
        lines.append(f"  {name}: {total:+d} ({parts or 'nothing'})")
    return lines


def score_rows(rules: Rules, record: HandRecord) -> list[tuple[str, dict[str, int], int, int]]:
    """(who, parts, hand total, running total) per cumulative score: a row per side, or, where players have
    points of their own (``HandScore.players``), a row per player with their side's parts and their own."""
    score = record.score
    if score.holder_totals is None:
        return [(side_name(rules, s.team), s.parts, s.total, record.totals_after[s.team]) for s in score.sides]
    rows = []
    for player in score.players:
        holder = rules.score_holder[player.seat]
        parts = {**score.sides[player.side].parts, **player.parts}
        rows.append((seat_name(rules, player.seat), parts, score.totals[holder], record.totals_after[holder]))
    return rows


# The score sheet's columns, each with the prefix of the score clause ids it adds up; the rest is "other".
_COLUMNS = (
    ("melded", "SCORE.MELDED_CARDS"),
    ("canastas", "SCORE.CANASTA."),
    ("red 3s", "SCORE.RED_THREES"),
    ("out", "SCORE.GOING_OUT"),
    ("in hand", "SCORE.CARDS_IN_HAND"),
)
# Columns shown only for a variant that has such clauses, so other variants' sheets stay as they were.
_OPTIONAL_COLUMNS = (
    ("threes", "SCORE.THREES"),
    ("in foot", "SCORE.CARDS_IN_FOOT"),
    ("penalties", "SCORE.PENALTIES"),
)
#: The hooks whose clauses' points make up a side's score for the hand.
_SCORE_HOOKS = ("score.hand", "score.meld", "score.held")


def score_column(rule_id: str) -> str | None:
    """The score sheet column a score clause's points go to, or None for "other"."""
    return next((column for column, prefix in _COLUMNS + _OPTIONAL_COLUMNS if rule_id.startswith(prefix)), None)


def _columns(rules: Rules) -> tuple[tuple[str, str], ...]:
    """The score sheet's columns for a variant: the usual ones, and the optional ones its clauses use."""
    ids = [c.id for hook in _SCORE_HOOKS for c in rules.variant.by_hook(hook)]
    return _COLUMNS + tuple(c for c in _OPTIONAL_COLUMNS if any(i.startswith(c[1]) for i in ids))


def score_sheet(rules: Rules, result: MatchResult) -> list[str]:
    """One row per hand and side: each score component, the hand total and the running total."""
    columns = _columns(rules)
    header = (
        f"{'hand':>4}  {'side':<12}" + "".join(f"{c:>10}" for c, _ in columns) + f"{'other':>8}{'hand':>8}{'total':>8}"
    )
    lines = [header, "-" * len(header)]
    for record in result.hands:
        for name, parts, total, running in score_rows(rules, record):
            sums = dict.fromkeys([column for column, _ in columns] + [None], 0)
            for rule_id, points in parts.items():
                sums[score_column(rule_id)] += points
            other = sums.pop(None)
            cells = list(sums.values())
            lines.append(
                f"{record.number:>4}  {name:<12}"
                + "".join(f"{c:>10}" for c in cells)
                + f"{other:>8}{total:>8}{running:>8}"
            )
    lines.append("-" * len(header))
    if result.finished:
        if result.winner is None:
            lines.append("The match is drawn: " + ", ".join(str(t) for t in result.totals))
        else:
            losers = [total for team, total in enumerate(result.totals) if team != result.winner]
            scores = " to ".join(str(total) for total in [result.totals[result.winner], *losers])
            lines.append(f"{side_name(rules, result.winner)} win the match, {scores}")
    else:
        totals = ", ".join(f"{side_name(rules, team)} {total}" for team, total in enumerate(result.totals))
        hands = f"{len(result.hands)} hand" + ("" if len(result.hands) == 1 else "s")
        lines.append(f"Stopped after {hands} without a winner: {totals}")
    return lines


def view_text(rules: Rules, view: Mapping[str, Any]) -> list[str]:
    """A seat's view drawn as text: what that player could see at the table."""
    seat = view["seat"]
    lines = [
        f"{seat_name(rules, seat)}'s view; {seat_name(rules, view['to_act'])} to act ({view['phase']})",
        f"  hand ({len(view['hand'])}): {' '.join(view['hand'])}",
        "  others hold: "
        + ", ".join(f"{seat_name(rules, s)} {n}" for s, n in enumerate(view["hand_sizes"]) if s != seat),
        f"  stock: {view['stock_size']} cards",
        f"  pile ({len(view['pile'])}{', frozen' if view['pile_frozen'] else ''}): "
        + (" ".join(view["pile"]) or "empty"),
    ]
    for team, melds in enumerate(view["melds"]):
        shown = " | ".join(" ".join(m["cards"]) + (" (canasta)" if m["canasta"] else "") for m in melds)
        lines.append(f"  {side_name(rules, team)} melds: {shown or 'none'}")
    bonus = ", ".join(f"{seat_name(rules, s)} {' '.join(b)}" for s, b in enumerate(view["bonus_cards"]) if b)
    lines.append(f"  red threes: {bonus or 'none'}")
    lines.append("  scores: " + ", ".join(f"{side_name(rules, t)} {n}" for t, n in enumerate(view["team_scores"])))
    if view["end"]:
        lines.append(f"  the hand is over: {view['end']}")
    return lines


def cite_refs(refs: Iterable[SourceRef]) -> str:
    """Sources cited inline: ``source: "quote"``, separated by semicolons, or "no source"."""
    return "; ".join(f"{r.source}{cited_words(r)}" for r in refs) or "no source"


def source_line(ref: SourceRef) -> str:
    """A source on a line of its own: ``source SOURCE (SECTION): "quote"``. The quote's internal locator
    (``ref``) points into the project's research copy, which readers do not have, so it is never shown."""
    where = f" ({ref.section})" if ref.section else ""
    return f"source {ref.source}{where}{cited_words(ref)}"


def cited_words(ref: SourceRef) -> str:
    """What a source says, after its name: its words in quote marks, or the project's summary marked as one
    (``SourceRef.summary``), which readers must not take for a source's words."""
    return f" (our summary, not a source's words): {ref.quote}" if ref.summary else f': "{ref.quote}"'


def section_title(section: str) -> str:
    """A rule section's id as a heading: ``going-out`` -> ``Going out``."""
    return section.replace("-", " ").capitalize()


def rulebook(variant: Variant) -> Iterable[str]:
    """The flattened rule set: parameters, then each clause with its id, text, expression and sources."""
    yield f"{variant.name} ({variant.id}); lineage: {' -> '.join(variant.lineage)}"
    yield ""
    yield "Parameters"
    for param in variant.parameters.values():
        origin = f" (set in {param.set_in})" if param.set_in and param.set_in != param.declared_in else ""
        yield f"  {param.name} = {value_text(param.value)}{origin}: {param.doc}"
        for option, refs in param.options.items():
            cited = cite_refs(refs)
            mark = "*" if option == param.value else " "
            yield f"    {mark} {option}: {cited}"
    for section in variant.sections:
        clauses = [c for c in variant.clauses.values() if c.section == section]
        if not clauses:
            continue
        yield ""
        yield section_title(section)
        for clause in clauses:
            changed = f" [from {clause.declared_in}]" if clause.declared_in != variant.lineage[0] else ""
            yield f"  {clause.id}{changed}: {clause.title}"
            yield f"    {clause.text}"
            yield f"    {clause.kind}: {' '.join(clause.expression.split())}"
            for ref in clause.sources:
                yield f"    {source_line(ref)}"
    yield from sources_list(variant)


def cited_source(source: Source) -> str:
    """A source as a reader would cite it: its short id, then its title and address."""
    return f"{source.id}: {source.title}" + (f" <{source.url}>" if source.url else "")


def sources_list(variant: Variant) -> Iterable[str]:
    """The sources the rulebook cites by id, each as a reader would cite it, with its address and note."""
    yield ""
    yield "Sources"
    for source in variant.sources.values():
        yield f"  {cited_source(source)}"
        if source.note:
            yield f"    {' '.join(source.note.split())}"
