"""The protocol's set-up of a hand, as the reference reads it: a variant with parameters, then a position
written out card by card or a deck dealt.

The conformance session answers ``setup`` with it, and the scenario loader uses it to refuse a scenario whose
set-up no engine could accept (three copies of a card, a hand too many) before any engine is blamed for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.cards import Card, card_name, cards_of, counts_of, parse_cards
from ..engine.game import Game, deck_for_seed
from ..engine.numbers import hand_number, team_scores
from ..engine.position import Position
from ..engine.rules import Rules
from ..errors import CanastaError
from ..spec import Variant, load_variant
from ..spec.derive import derive

_DERIVED: dict[tuple[str, str], tuple[Variant, Variant]] = {}


def as_sent(value: Any) -> str:
    """A value of a request as the engine's author wrote it, in JSON (``null``, ``true``, ``"north"``), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else f"{text[:80]}..."


def with_parameters(variant_id: str, overrides: Mapping[str, Any]) -> Variant:
    """``variant_id`` with some parameters set otherwise, checked and compiled as a spec file would be.

    The result is kept while the base variant is unchanged, so repeated set-ups share one Rules binding."""
    base = load_variant(variant_id)
    key = (variant_id, json.dumps(dict(overrides), sort_keys=True))
    known = _DERIVED.get(key)
    if known is None or known[0] is not base:
        known = _DERIVED[key] = (base, derive(base, overrides))
    return known[1]


def parameter_value_error(variant_id: str, name: str, value: Any) -> str | None:
    """Why ``variant_id`` cannot play its parameter ``name`` at ``value`` (None when it can)."""
    return parameters_error(variant_id, {name: value})


def parameters_error(variant_id: str, overrides: Mapping[str, Any]) -> str | None:
    """Why ``variant_id`` cannot play its parameters at the values ``overrides`` gives together (None when it
    can). The values may come from anywhere (an engine's handshake, a command line), so what cannot even be
    written down is an error too."""
    try:
        with_parameters(variant_id, overrides)
    except (CanastaError, TypeError, ValueError, RecursionError) as error:
        return str(error)
    return None


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise CanastaError(f"field '{field}': expected cards as text, such as \"KH KS 2C\"")
    return value


def seat_field(value: Any, players: int, field: str) -> int:
    """``value`` as a seat of a game of ``players``, or an error naming the protocol field."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise CanastaError(f"field '{field}': expected a seat from 0 to {players - 1}, got {as_sent(value)}")
    return value


def _scores(value: Any, teams: int, field: str) -> list[int] | None:
    return None if value is None else team_scores(value, teams, field)


def _hand_number(value: Any, field: str) -> int:
    return 1 if value is None else hand_number(value, field)


def _choice(value: Any, field: str, choices: tuple[str, ...]) -> Any:
    if value not in choices:
        raise CanastaError(f"field '{field}': expected one of {', '.join(choices)}, got {as_sent(value)}")
    return value


def game_from_setup(rules: Rules, request: Mapping[str, Any], core: str = "python") -> Game:
    """The hand a 'setup' request starts under ``rules``: its written-out position, or its deck dealt; played by
    ``core`` where it can (``engine.cores``)."""
    if "position" in request:
        return Game.from_position(rules, position_from_json(request["position"], rules), core)
    return Game(
        rules,
        deck=parse_cards(_text(request.get("deck", ""), "deck")),
        team_scores=_scores(request.get("team_scores"), rules.teams, "team_scores"),
        first_seat=seat_field(request.get("first_seat", 0), rules.players, "first_seat"),
        hand_number=_hand_number(request.get("hand_number"), "hand_number"),
        core=core,
    )


def position_from_json(data: Mapping[str, Any], rules: Rules) -> Position:
    """A position as the protocol and scenario files write it: cards as text, one string per hand."""
    if not isinstance(data, Mapping) or not isinstance(data.get("hands"), list):
        raise CanastaError("field 'position': expected an object with 'hands', a list of cards as text")
    melded = data.get("melded", [])
    if not isinstance(melded, list) or (melded and len(melded) != rules.players):
        raise CanastaError(f"field 'position.melded': expected {rules.players} true/false values, one per seat")
    sides = data.get("melds", [])
    bonus = data.get("red_threes", [])
    if not isinstance(sides, list) or not all(isinstance(side, list) for side in sides):
        raise CanastaError("field 'position.melds': expected a list per side of melds written as text")
    if not isinstance(bonus, list):
        raise CanastaError("field 'position.red_threes': expected a list per seat of cards as text")
    feet = data.get("feet", [])
    if not isinstance(feet, list):
        raise CanastaError("field 'position.feet': expected a list per seat of the foot's cards as text")
    talons = data.get("talons", [])
    if not isinstance(talons, list):
        raise CanastaError(
            "field 'position.talons': expected a list of the talons' cards as text, the next taken first"
        )
    owed = data.get("bonus_draws_owed", [])
    if not isinstance(owed, list) or not all(type(n) is int for n in owed):
        raise CanastaError("field 'position.bonus_draws_owed': expected a list of whole numbers, one per seat")
    awaiting = data.get("awaiting_first_turn", [])
    if not isinstance(awaiting, list) or not all(type(a) is bool for a in awaiting):
        raise CanastaError("field 'position.awaiting_first_turn': expected a list of true/false values, one per seat")
    return Position(
        hands=[parse_cards(_text(t, "position.hands")) for t in data["hands"]],
        pile=parse_cards(_text(data.get("pile", ""), "position.pile")),
        stock=parse_cards(_text(data["stock"], "position.stock")) if "stock" in data else None,
        melds=[[parse_cards(_text(m, "position.melds")) for m in side] for side in sides],
        bonus=[parse_cards(_text(t, "position.red_threes")) for t in bonus],
        team_scores=_scores(data.get("team_scores"), rules.teams, "position.team_scores") or [],
        to_act=seat_field(data.get("to_act", 0), rules.players, "position.to_act"),
        phase=_choice(data.get("phase", "draw"), "position.phase", ("draw", "play")),
        upcard_froze=bool(data.get("upcard_froze", False)),
        seat_melded=[bool(m) for m in melded],
        permission=_choice(data.get("permission", "none"), "position.permission", ("none", "yes", "no")),
        sides=_side_map(data.get("sides", [])),
        awaiting_first_turn=awaiting,
        feet=[parse_cards(_text(t, "position.feet")) for t in feet],
        talons=[parse_cards(_text(t, "position.talons")) for t in talons],
        bonus_draws_owed=owed,
        hand_number=_hand_number(data.get("hand_number"), "position.hand_number"),
    )


def _side_map(value: Any) -> list[int]:
    """The optional ``position.sides`` (each seat's side); its range is checked against the variant later."""
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise CanastaError(
            f"field 'position.sides': expected a list of side numbers, one per seat, got {as_sent(value)}"
        )
    return value


def deal_request(
    variant: str,
    deck: Sequence[Card] | str,
    first_seat: int,
    *,
    parameters: Mapping[str, Any] | None = None,
    team_scores: Sequence[int] | None = None,
    hand_number: int | None = None,
) -> dict[str, Any]:
    """The protocol's setup request for a hand dealt from a deck order (cards, or their text)."""
    message: dict[str, Any] = {
        "cmd": "setup",
        "variant": variant,
        "parameters": dict(parameters or {}),
        "deck": deck if isinstance(deck, str) else format_deck(deck),
        "first_seat": first_seat,
    }
    if team_scores is not None:
        message["team_scores"] = list(team_scores)
    if hand_number is not None:
        message["hand_number"] = hand_number
    return message


def format_deck(deck: Sequence[int]) -> str:
    """A deck order as text, in order (not sorted like a hand)."""
    return " ".join(card_name(card) for card in deck)


def setup_request(
    setup: Mapping[str, Any], variant: str, parameters: Mapping[str, Any], rules: Rules
) -> dict[str, Any]:
    """The protocol's setup request for a scenario's ``setup`` field: a written position (with the set-up's
    team scores), or a deck, its order as written or the one ``rules`` shuffle a seed to."""
    if "position" in setup:
        position = dict(setup["position"])
        for name in ("team_scores", "hand_number"):
            if name in setup:
                position[name] = setup[name]
        return {"cmd": "setup", "variant": variant, "parameters": dict(parameters), "position": position}
    deck = setup["deck"]
    if "order" in deck:
        cards: Sequence[Card] | str = " ".join(str(deck["order"]).split())
    else:
        cards = deck_for_seed(rules, deck["seed"])
    first_seat = setup.get("first_seat", 0)
    return deal_request(
        variant,
        cards,
        first_seat,
        parameters=parameters,
        team_scores=setup.get("team_scores"),
        hand_number=setup.get("hand_number"),
    )


def position_json(
    game: Game, hands: Sequence[Sequence[Card]] | None = None, stock: Sequence[Card] | None = None
) -> dict[str, Any]:
    """The protocol's written-out position of the game (optionally other hands and stock; the stock top first)."""
    state = game.state
    written = {
        "hands": [" ".join(card_name(c) for c in h) for h in (hands or [cards_of(h) for h in state.hands])],
        "pile": " ".join(card_name(c) for c in state.pile),
        "melds": [[" ".join(card_name(c) for c in m.cards) for m in side] for side in state.melds],
        "red_threes": [" ".join(card_name(c) for c in b) for b in state.bonus],
        "stock": " ".join(card_name(c) for c in (stock if stock is not None else list(reversed(state.stock)))),
        "team_scores": list(state.team_scores),
        "to_act": state.to_act,
        "phase": state.phase,
        "upcard_froze": state.upcard_froze,
        "melded": list(state.seat_melded),
        "permission": state.permission,
    }
    if state.side_of != game.rules.initial_sides():
        written["sides"] = list(state.side_of)
    if any(state.awaiting_first_turn):  # only under a rule that lays out bonus cards at the first turn
        written["awaiting_first_turn"] = list(state.awaiting_first_turn)
    if state.hand_number != 1:
        written["hand_number"] = state.hand_number
    if any(state.feet):  # only in a variant that deals a foot, until every foot is picked up
        written["feet"] = [" ".join(card_name(c) for c in cards_of(counts_of(f))) for f in state.feet]
    if state.talons:  # only in a variant that sets talons aside, until every one is taken
        written["talons"] = [" ".join(card_name(c) for c in talon) for talon in state.talons]
    if any(state.bonus_draws_owed):  # only in a variant with bonus draws, while one is owed
        written["bonus_draws_owed"] = list(state.bonus_draws_owed)
    return written


__all__ = [
    "deal_request",
    "format_deck",
    "game_from_setup",
    "parameter_value_error",
    "parameters_error",
    "position_from_json",
    "position_json",
    "seat_field",
    "setup_request",
    "with_parameters",
]
