"""canasta-ref: the executable rulebook of Canasta.

>>> from canasta_ref import load_variant, Game, parse_action
>>> game = Game(load_variant("classic"), seed=1)
>>> game.legal_actions().count() > 0
True
"""

from . import core as core  # registers the native core with the engine (engine.cores)
from .engine._native import COMPILED  # first: decides whether the compiled engine modules are used
from .engine.actions import Action, MeldGroup, action_from_json, parse_action
from .engine.cards import Card, card_name, format_cards, parse_card, parse_cards
from .engine.game import Event, Game, LegalActions
from .engine.rules import Rules
from .errors import CanastaError, IllegalAction, NotationError, SpecError
from .spec import Variant, check_file, list_variants, load_variant

__all__ = [
    "COMPILED",
    "Action",
    "CanastaError",
    "Card",
    "Event",
    "Game",
    "IllegalAction",
    "LegalActions",
    "MeldGroup",
    "NotationError",
    "Rules",
    "SpecError",
    "Variant",
    "action_from_json",
    "card_name",
    "check_file",
    "format_cards",
    "list_variants",
    "load_variant",
    "parse_action",
    "parse_card",
    "parse_cards",
]
