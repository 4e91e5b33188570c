"""A disagreement found by generated games, and the scenario file that shows it.

``Failure`` is where the engine and the reference parted (the game up to that step, what differed);
``scenario_yaml`` writes it as a scenario in the format of ``conformance/scenario.schema.json``, every
expectation the reference's, so that it can be saved in the suite once its cited rules are checked.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.actions import Action
from ..engine.game import Game
from ..spec import load_variant
from .runner import MESSAGE_CHARS, clip
from .session import position_from_json
from .setup import format_deck
from .strategies import Move, Played, Setup, play

FailureKind = Literal["setup", "verdict", "view", "conservation", "score", "legal", "replay", "shuffle"]


@dataclass
class Failure:
    """Where the engine and the reference parted: the game up to that step and what differed."""

    setup: Setup
    steps: list[Played]
    kind: FailureKind
    message: str
    seat: int | None = None
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    position: dict[str, Any] | None = None
    game_number: int = 0
    #: The written-out position the steps start from after a re-synchronisation (None: from the deal).
    start: dict[str, Any] | None = None
    #: The kind of the action this disagreement is about (None: at the deal).
    action: str | None = None
    #: The rule the check can name (the reference's refusal, or the engine's refusal by a rule of the variant);
    #: ``rules`` are a wider best guess, for the scenario file's citations.
    rule: str | None = None
    #: What differed, when no rule can be named (see ``causes``).
    cause: str | None = None

    def __post_init__(self) -> None:
        """An engine's text quoted in the message stays short: it goes into the report and the scenario file."""
        self.message = clip(self.message, MESSAGE_CHARS)


def score_of(game: Game) -> tuple[list[int], bool, str | None, list[dict[str, int]]]:
    """What the reference says of the hand so far: totals, whether it is over, how it ended, the parts."""
    score = game.score()
    return score.totals, game.is_over, game.state.end_reason, [dict(side.parts) for side in score.sides]


def scenario_yaml(failure: Failure, scenario_id: str, seed: int) -> str:
    """The shrunk game as a scenario file: the reference's verdict on every step, and at the last one what the
    reference shows where the engine differed (a view, the score, the legal actions)."""
    setup = failure.setup
    rules = setup.rules()
    steps = list(failure.steps)
    # Where the scenario starts: the deal, or a position written out (the shuffled one, or where the game was
    # re-synchronised after an earlier disagreement).
    position = failure.position if failure.kind == "shuffle" else failure.start

    def start() -> Game:
        if position is None:
            return setup.new_game()
        return Game.from_position(rules, position_from_json(position, rules))

    if failure.kind == "shuffle":
        game = start()
        legal = list(game.legal_actions())
        seat = (game.to_act + 1) % rules.players
        probe = Move(legal[0] if legal else Action.draw(), seat, "wrong seat")
        steps = [play(game, probe)]
    else:
        game = start()
        if not steps:  # found at the start: a move by the wrong seat, refused, leaves the position to look at
            probe_game = start()
            legal = list(probe_game.legal_actions())
            wrong = (probe_game.to_act + 1) % rules.players
            steps = [play(probe_game, Move(legal[0] if legal else Action.draw(), wrong, "wrong seat"))]
        for played in steps:
            again = play(game, played.move)
            assert (again.accepted, again.rule) == (played.accepted, played.rule), "the reference is not replayable"
    last = steps[-1]
    seat = failure.seat if failure.seat is not None else (last.move.seat if last.move.seat is not None else game.to_act)
    expect: dict[str, Any] = {"result": "accepted" if last.accepted else "refused"}
    if last.rule:
        expect["rule"] = last.rule
    if failure.kind == "legal":
        legal_texts = [str(a) for a in game.legal_actions()]
        expect["legal_count"] = len(legal_texts)
        if failure.missing:
            expect["legal_includes"] = failure.missing[:8]
        if failure.extra:
            expect["legal_excludes"] = failure.extra[:8]
    if failure.kind != "legal" or not (failure.missing or failure.extra):
        expect["view"] = game.view(seat)
    totals, over, end, _ = score_of(game)
    expect["score"] = {"totals": totals}
    expect["over"] = over
    if end is not None:
        expect["end"] = end
    cited = _cited_rules(failure, steps, setup.variant)
    lines = [
        "scenario: 1",
        f"id: {scenario_id}",
        f"title: {_q(f'Generated game: {_headline(failure)}')}",
        "description: "
        + _q(
            f"Found by generated games (seed {seed}, game {failure.game_number}, {setup.variant}) and shrunk. "
            f"The engine under test disagreed with the reference interpreter: {failure.message}. "
            "Every expectation is the reference's; the rules listed are a best guess, to be checked when saving."
        ),
        f"rules: [{', '.join(cited)}]",
        f"variants: [{setup.variant}]",
    ]
    if setup.parameters:  # the parameters the engine fixes: the scenario holds under those values
        lines += ["level: alternative", f"parameters: {_q(dict(setup.parameters))}"]
    else:
        lines.append("level: must")
    lines.append("setup:")
    if position is not None:
        written = {key: value for key, value in position.items() if key != "team_scores"}
        lines.append(f"  position: {_q(written)}")
        lines.append(f"  team_scores: {_q(position.get('team_scores', list(setup.team_scores)))}")
    else:
        lines += [
            "  deck:",
            f"    order: {_q(format_deck(setup.deck))}",
            f"  first_seat: {setup.first_seat}",
            f"  team_scores: {_q(list(setup.team_scores))}",
        ]
    lines.append("steps:")
    for number, played in enumerate(steps, 1):
        lines.append(f"  - action: {_q(str(played.move.action))}")
        if played.move.seat is not None:
            lines.append(f"    seat: {played.move.seat}")
        if number < len(steps):
            plain: dict[str, Any] = {"result": "accepted" if played.accepted else "refused"}
            if played.rule:
                plain["rule"] = played.rule
            lines.append(f"    expect: {_q(plain)}")
        else:
            lines.append("    expect:")
            lines.extend(f"      {key}: {_q(value)}" for key, value in expect.items())
    return "\n".join(lines) + "\n"


def _headline(failure: Failure) -> str:
    return {
        "setup": "the engine refuses the set-up",
        "verdict": "the engine and the reference disagree on an action",
        "view": "a view differs from the reference's",
        "conservation": "a view loses or invents cards",
        "score": "the score differs from the reference's",
        "legal": "the legal actions differ from the reference's",
        "replay": "replaying the same deck and actions gives another result",
        "shuffle": "a view depends on cards hidden from that seat",
    }[failure.kind]


def _cited_rules(failure: Failure, steps: Sequence[Played], variant: str) -> list[str]:
    """The rules a generated scenario cites: the reference's refusal at the last step, the rules behind what
    differed (score parts, refusals of actions the engine lists), else a guess from the last action's kind."""
    clauses = load_variant(variant).clauses
    wanted = list(failure.rules)
    last = steps[-1] if steps else None
    if last is not None and last.rule:
        wanted.insert(0, last.rule)
    out = [rule for index, rule in enumerate(wanted) if rule in clauses and rule not in wanted[:index]]
    if not out and last is not None:
        guess = {"draw": "TURN.DRAW.COUNT", "take": "PILE.TAKE.MATCH", "meld": "MELD.MIN_CARDS"}
        out = [rule for rule in (guess.get(last.move.action.kind, "TURN.ORDER"),) if rule in clauses]
    return out[:4] or [next(iter(clauses))]


def _q(value: Any) -> str:
    """A value in YAML: JSON's flow syntax is YAML too."""
    return json.dumps(value, ensure_ascii=False)


__all__ = ["Failure", "FailureKind", "scenario_yaml", "score_of"]
