"""A scenario drawn for a reader: its starting position, its steps and what each must lead to. Rulebooks,
example pages and the tutorial all draw scenarios this way."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from canasta_ref.conformance.scenario import Scenario, Step
from canasta_ref.engine.cards import card_name, parse_cards
from canasta_ref.engine.rules import Rules
from canasta_ref.errors import CanastaError
from canasta_ref.render import seat_name, side_name

from .cards import action_html, chips
from .markup import code, md, plural, rel
from .model import Drawn, Site
from .spec_text import fmt_value

#: How a meld's kind is drawn, where actions name melds (a group of one rank needs no word).
_KIND_NAMES = {"sequence": "sequence", "wild": "wild cards"}


def position_html(drawn: Drawn, scenario_id: str) -> str:
    """The starting position as a block of HTML: every hand, the pile, the melds, the feet still face down, red
    threes, stock and scores."""
    if drawn.rules is None or drawn.view is None:
        reason = html.escape(drawn.error or "")
        return f'<div class="cr-position cr-position-error">The position cannot be set up: {reason}</div>'
    rules, view = drawn.rules, drawn.view
    to_act = view["to_act"]
    rows = []
    for seat, hand in enumerate(drawn.hands):
        side = side_name(rules, seat % rules.teams) if rules.teams < rules.players else "own side"
        acting = seat == to_act
        note = f"seat {seat} · {html.escape(side)}" + (" · <b>to act</b>" if acting else "")
        count = plural(len(hand), "card")
        cls = "cr-row cr-hand cr-to-act" if acting else "cr-row cr-hand"
        cards = chips(hand) if hand else '<span class="cr-none">no cards</span>'
        rows.append(
            f'<div class="{cls}"><span class="cr-label">{seat_name(rules, seat)}'
            f"<small>{note} · {count}</small></span>"
            f'<span class="cr-cards">{cards}</span></div>'
        )
    pile = view["pile"]
    frozen = " · <b>frozen</b>" if view["pile_frozen"] else ""
    pile_cards = chips(pile) if pile else '<span class="cr-none">empty</span>'
    rows.append(
        f'<div class="cr-row cr-pile"><span class="cr-label">Pile<small>{plural(len(pile), "card")}, bottom to top'
        f'{frozen}</small></span><span class="cr-cards">{pile_cards}</span></div>'
    )
    for team, melds in enumerate(view["melds"]):
        shown = []
        for number, meld in enumerate(melds, start=1):
            cls = "cr-meld cr-canasta" if meld["canasta"] else "cr-meld"
            badge = '<span class="cr-badge">canasta</span>' if meld["canasta"] else ""
            if meld.get("closed"):
                badge += '<span class="cr-badge">closed, set aside</span>'  # a variant whose canastas close
            lead = ""
            if "kind" in meld:  # a variant whose actions name melds: each meld's number, and what kind it is
                lead = f'<span class="cr-badge cr-meld-number">@{number}</span>'
                if meld["kind"] != "group":
                    badge += f'<span class="cr-badge">{_KIND_NAMES[meld["kind"]]}</span>'
            shown.append(f'<span class="{cls}">{lead}{chips(meld["cards"])}{badge}</span>')
        body = "".join(shown) or '<span class="cr-none">none</span>'
        rows.append(
            f'<div class="cr-row cr-melds"><span class="cr-label">{side_name(rules, team)}<small>melds</small></span>'
            f'<span class="cr-cards">{body}</span></div>'
        )
    feet = [(seat, size) for seat, size in enumerate(view.get("foot_sizes", [])) if size]
    if feet:  # a variant that deals a foot: its cards are face down, so only their number is drawn
        body = " ".join(
            f'<span class="cr-meld cr-foot">{seat_name(rules, s)}: {plural(n, "card")} face down</span>'
            for s, n in feet
        )
        rows.append(
            f'<div class="cr-row cr-feet"><span class="cr-label">Feet<small>picked up when the hand is played out'
            f'</small></span><span class="cr-cards">{body}</span></div>'
        )
    bonus = [(seat, cards) for seat, cards in enumerate(view["bonus_cards"]) if cards]
    if bonus:
        body = " ".join(f'<span class="cr-meld">{seat_name(rules, s)}: {chips(c)}</span>' for s, c in bonus)
        rows.append(
            f'<div class="cr-row"><span class="cr-label">Red threes</span><span class="cr-cards">{body}</span></div>'
        )
    facts = [f"stock {plural(view['stock_size'], 'card')}", f"{seat_name(rules, to_act)} to act"]
    facts.append("has drawn (play)" if view["phase"] == "play" else f"phase {view['phase']}")
    if view["permission"] != "none":
        facts.append(f"partner answered {view['permission']}")
    if any(view["team_scores"]):
        facts.append("scores " + ", ".join(f"{side_name(rules, t)} {s}" for t, s in enumerate(view["team_scores"])))
    rows.append(f'<div class="cr-row cr-facts">{html.escape(" · ".join(facts))}</div>')
    return f'<div class="cr-position" data-scenario="{html.escape(scenario_id)}">\n' + "\n".join(rows) + "\n</div>"


def expect_cell(site: Site, step: Step, page: str, preferred: Sequence[str], rules: Rules | None) -> str:
    expect = step.expect
    parts = []
    if expect.accepted:
        parts.append('<span class="cr-ok">✔ accepted</span>')
    else:
        cited = f" by {site.rule_link(page, expect.rule, preferred)}" if expect.rule else ""
        parts.append(f'<span class="cr-refused">✘ refused</span>{cited}')
    if expect.legal_count is not None:
        parts.append(f"then {expect.legal_count} legal actions")
    if expect.legal_includes:
        parts.append("then legal: " + ", ".join(action_html(a) for a in expect.legal_includes))
    if expect.legal_excludes:
        parts.append("then not legal: " + ", ".join(action_html(a) for a in expect.legal_excludes))
    if expect.view is not None:
        seat = expect.view.get("seat", 0)
        who = seat_name(rules, seat) if rules is not None and isinstance(seat, int) else f"seat {seat}"
        fields = "; ".join(f"{md(k.replace('_', ' '))} {seen_html(v)}" for k, v in expect.view.items() if k != "seat")
        parts.append(f"{who} sees: {fields}")
    if expect.over is not None:
        parts.append("the hand is over" if expect.over else "the hand goes on")
    if expect.end is not None:
        parts.append(f"it ended: {md(expect.end)}")
    if expect.score is not None:
        parts.append("score: " + score_html(site, expect.score, page, preferred, rules))
    if expect.match_over is not None:
        parts.append("the match is over" if expect.match_over else "the match goes on")
    return "<br>".join(parts)


def score_html(site: Site, score: Mapping[str, Any], page: str, preferred: Sequence[str], rules: Rules | None) -> str:
    """A hand's expected score: each side's total, then its parts, each part linked to its rule; then, where the
    scenario checks them (three players), each seat's own parts."""
    totals = list(score.get("totals", []))
    parts = list(score.get("parts", []))
    sides = []
    for team in range(max(len(totals), len(parts))):
        name = side_name(rules, team) if rules is not None else f"side {team}"
        total = f" {totals[team]}" if team < len(totals) else ""
        detail = f" ({_parts_html(site, parts[team], page, preferred)})" if team < len(parts) and parts[team] else ""
        sides.append(f"{name}{total}{detail}")
    for seat, seat_parts in enumerate(score.get("seats", [])):
        if seat_parts:
            name = seat_name(rules, seat) if rules is not None else f"seat {seat}"
            sides.append(f"{name}'s own score ({_parts_html(site, seat_parts, page, preferred)})")
    return "; ".join(sides)


def _parts_html(site: Site, parts: Mapping[str, int], page: str, preferred: Sequence[str]) -> str:
    """Score parts, each linked to its rule, with its sign."""
    return ", ".join(f"{site.rule_link(page, rule, preferred)} {value:+d}" for rule, value in parts.items())


def seen_html(value: Any, depth: int = 0) -> str:
    """A value a step expects in a view: card lists as chips, melds grouped, the rest as text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        try:
            cards = parse_cards(value)
        except CanastaError:
            return md(value)
        if not cards:
            return "none"
        body = chips(card_name(c) for c in cards)
        return f'<span class="cr-inline-meld">{body}</span>' if depth else body
    if isinstance(value, list):
        if not value:
            return "none"
        joint = " " if depth else " · "
        return joint.join(seen_html(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{md(str(k))} {seen_html(v, depth + 1)}" for k, v in value.items())
    return md(str(value))


def steps_table(site: Site, scenario: Scenario, drawn: Drawn, page: str, preferred: Sequence[str]) -> str:
    lines = ["| # | who | action | what must happen |", "|---|---|---|---|"]
    for number, (step, actor) in enumerate(zip(scenario.steps, drawn.actors, strict=True), 1):
        if actor is None:
            who = "the player to act"
        elif drawn.rules is not None:
            who = seat_name(drawn.rules, actor)
        else:
            who = f"seat {actor}"
        cell = expect_cell(site, step, page, preferred, drawn.rules)
        lines.append(f"| {number} | {who} | {action_html(step.action)} | {cell} |")
    return "\n".join(lines)


def scenario_block(site: Site, scenario: Scenario, variant_id: str, page: str, *, title: bool) -> str:
    """A scenario drawn for a reader: (title,) description, parameters, the position and the steps."""
    preferred = [variant_id, *scenario.variants]
    drawn = site.drawn(scenario, variant_id)
    out = ['<div class="cr-scenario" markdown>', ""]
    if title:
        link = rel(page, site.example_page(scenario.id))
        out += [f'<p class="cr-scenario-title" markdown>Example: [{md(scenario.title)}]({link})</p>', ""]
    if scenario.description and title:
        out += [md(scenario.description), ""]
    if scenario.parameters:
        params = ", ".join(f"{code(k)} = {code(fmt_value(v))}" for k, v in sorted(scenario.parameters.items()))
        out += [f"Played with {params} (level *{scenario.level}*).", ""]
    out += [
        position_html(drawn, scenario.id),
        "",
        steps_table(site, scenario, drawn, page, preferred),
        "",
        "</div>",
        "",
    ]
    return "\n".join(out)
