"""Playing cards and actions drawn as HTML chips (the styles are in docs/stylesheets)."""

from __future__ import annotations

import html
from collections.abc import Iterable

from canasta_ref.engine.cards import card_name, parse_card, parse_cards
from canasta_ref.errors import CanastaError

_SUITS = {"C": ("♣", "black"), "D": ("♦", "red"), "H": ("♥", "red"), "S": ("♠", "black")}


def chip(name: str) -> str:
    """One card as an HTML chip: rank and suit symbol, red or black; a joker has its own style. Kept short: a
    rulebook draws thousands of them."""
    if name == "JK":
        return '<span class="cr-card cr-joker">JK<i>★</i></span>'
    rank, suit = name[:-1], name[-1]
    symbol, colour = _SUITS[suit]
    return f'<span class="cr-card cr-{colour}">{rank}<i>{symbol}</i></span>'


def chips(cards: Iterable[str]) -> str:
    return "".join(chip(c) for c in cards)


def chips_of_text(text: str) -> str:
    return chips(card_name(c) for c in parse_cards(text))


def action_html(text: str) -> str:
    """An action in notation with its cards drawn as chips (``take KH KS`` -> take [K♥][K♠])."""
    out = []
    for token in text.split():
        try:
            out.append(chip(card_name(parse_card(token))))
        except CanastaError:
            word = html.escape(token, quote=False).replace("|", "&#124;")  # a bar would split a table cell
            out.append(f'<span class="cr-word">{word}</span>')
    return '<span class="cr-action">' + "".join(out) + "</span>"
