"""Card and action notation: round trips, multiset semantics, case, error messages (golden) and refusals.

Set UPDATE_GOLDEN=1 to rewrite tests/golden/actions/*.txt after a deliberate change of wording; review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from canasta_ref import (
    Action,
    Game,
    IllegalAction,
    MeldGroup,
    NotationError,
    Rules,
    action_from_json,
    card_name,
    format_cards,
    load_variant,
    parse_action,
    parse_card,
    parse_cards,
)
from canasta_ref.engine.cards import JOKER, JOKER_RANK, RANK_NAMES, SUIT_NAMES, rank_of

GOLDEN = Path(__file__).parent / "golden" / "actions"
ALL_CARDS = range(53)
WILD = (0, 1, 2, 3, JOKER)  # the twos and the joker: cards that never name a meld's rank in the notation
REFUSAL = re.compile(r"^[A-Z][^\n]*[.!?] \[([A-Z0-9_]+(?:\.[A-Z0-9_]+)+)\]$")


# -- cards -----------------------------------------------------------------------------------------------------
def test_every_card_round_trips_in_either_case() -> None:
    names = [card_name(c) for c in ALL_CARDS]
    assert len(set(names)) == 53
    for card in ALL_CARDS:
        name = card_name(card)
        assert parse_card(name) == card
        assert parse_card(name.lower()) == card
        assert parse_card(f"  {name.swapcase()} ") == card
    assert names[:4] == ["2C", "2D", "2H", "2S"] and "10H" in names and names[JOKER] == "JK"
    assert {n[:-1] for n in names if n != "JK"} == set(RANK_NAMES[:-1]) and {n[-1] for n in names} >= set(SUIT_NAMES)


def test_card_lists_read_spaces_and_commas_and_print_canonically() -> None:
    assert parse_cards("KH, ks  2c,jk") == [parse_card("KH"), parse_card("KS"), parse_card("2C"), JOKER]
    assert parse_cards("") == []
    # Canonical order: threes up to aces, then twos, then jokers; suits C D H S.
    assert format_cards(parse_cards("JK 2C AS 3D 10H 10C KH")) == "3D 10C 10H KH AS 2C JK"


@pytest.mark.parametrize("text", ["1H", "11S", "KX", "JKH", "K", "10", "H10", "J K", "♥K", "0S"])
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_card(text)
    assert "is not a card" in str(caught.value)


def test_bad_card_in_a_list_is_pointed_at() -> None:
    with pytest.raises(NotationError) as caught:
        parse_cards("KH, 1X QS")
    lines = str(caught.value).splitlines()
    assert lines[1:] == ["  KH, 1X QS", "      ^"]


# -- hand-written actions --------------------------------------------------------------------------------------
CANONICAL = {
    "draw": "draw",
    "DRAW": "draw",
    "  Draw  ": "draw",
    "ask": "ask",
    "Yes": "yes",
    "NO": "no",
    "End": "end",
    "Pass": "pass",
    "take": "take",
    "take ks kh": "take KH KS",
    "take KS KH + QS QH 2C": "take KH KS + QH QS 2C",
    "TAKE 5h 5d+7c 7s jk|ac ad ah": "take 5D 5H + 7C 7S JK | AC AD AH",
    "take kh kh + 3: 2c 2d": "take KH KH + 3: 2C 2D",
    "meld 2c kh ks": "meld KH KS 2C",
    "meld  KH   KS KD": "meld KD KH KS",
    "meld KH KS KD | QH QS 2C": "meld QH QS 2C | KD KH KS",
    "meld QH QS 2C | KH KS KD": "meld QH QS 2C | KD KH KS",
    "meld k: 2c": "meld K: 2C",
    "Meld K: jk 2c": "meld K: 2C JK",
    "meld jk 5h 5s": "meld 5H 5S JK",
    "meld 3S 3C 3S": "meld 3C 3S 3S",
    "meld ah ad 2s 2s | 4c 4c 4d | 10h 10s jk": "meld 4C 4C 4D | 10H 10S JK | AD AH 2S 2S",
    "discard 10s": "discard 10S",
    "discard jk": "discard JK",
    "declare straight": "declare straight",
    "Declare  Wild_Pairs ": "declare wild_pairs",
}


@pytest.mark.parametrize("text", sorted(CANONICAL))
def test_hand_written_actions_round_trip(text: str) -> None:
    action = parse_action(text)
    canonical = CANONICAL[text]
    assert str(action) == canonical
    again = parse_action(canonical)
    assert again == action and hash(again) == hash(action) and str(again) == canonical
    assert action_from_json(action.to_json()) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
    assert parse_action(canonical.lower()) == action


def test_json_forms() -> None:
    assert parse_action("draw").to_json() == {"type": "draw"}
    assert parse_action("discard 7s").to_json() == {"type": "discard", "card": "7S"}
    assert parse_action("meld K: 2C").to_json() == {"type": "meld", "melds": [{"cards": ["2C"], "rank": "K"}]}
    assert parse_action("take KS KH + QS QH 2C").to_json() == {
        "type": "take",
        "cards": ["KH", "KS"],
        "melds": [{"cards": ["QH", "QS", "2C"]}],
    }
    assert action_from_json({"type": "take", "cards": ["ks", "KH"]}) == parse_action("take KH KS")
    assert action_from_json({"type": "take"}) == Action.take()
    assert parse_action("declare straight").to_json() == {"type": "declare", "hand": "straight"}
    assert action_from_json({"type": "declare", "hand": "Straight"}) == Action.declare("straight")


MULTISET_EQUAL = [
    ("meld KH KS KD | QH QS 2C", "meld 2C QS QH | KD KS KH"),
    ("meld 4C 4C 4D | 10H 10S JK | AD AH 2S 2S", "meld 2s ad 2s ah | jk 10s 10h | 4d 4c 4c"),
    ("take KH KS + QH QS 2C | 7C 7S JK", "take KS KH + JK 7S 7C | 2C QS QH"),
    ("meld K: 2C JK", "meld k: jk 2c"),
]


@pytest.mark.parametrize(("one", "other"), MULTISET_EQUAL)
def test_order_of_cards_and_groups_does_not_matter(one: str, other: str) -> None:
    a, b = parse_action(one), parse_action(other)
    assert a == b and hash(a) == hash(b) and str(a) == str(b) and a.to_json() == b.to_json()


def test_constructors_give_canonical_actions() -> None:
    kh, ks, kd, qh, qs, c2 = parse_cards("KH KS KD QH QS 2C")
    a = Action.meld([MeldGroup.of([kh, ks, kd]), MeldGroup.of([c2, qs, qh])])
    b = Action.meld([MeldGroup.of([qs, c2, qh]), MeldGroup.of([kd, kh, ks])])
    assert a == b and str(a) == str(b) == "meld QH QS 2C | KD KH KS"
    assert Action.take([ks, kh]) == Action.take([kh, ks]) == parse_action("take KH KS")
    assert Action.discard(kh) == parse_action("discard kh")
    assert {Action.draw(), Action.ask(), Action.answer(True), Action.answer(False)} == {
        parse_action(t) for t in ("draw", "ask", "yes", "no")
    }


def test_same_cards_in_different_roles_are_different_actions() -> None:
    assert parse_action("take KH KS + QH QS 2C") != parse_action("take QH QS + KH KS 2C")
    assert parse_action("meld KH KS KD | QH QS 2C") != parse_action("meld KH KS KD QH QS 2C")
    assert parse_action("meld K: 2C") != parse_action("meld Q: 2C")


@pytest.mark.parametrize("labelled", ["meld JK: 2C JK", "meld 2: 2C 2D JK"])
def test_a_group_label_names_a_meld_rank(labelled: str) -> None:
    """A label is one of 4-10, J, Q, K, A or 3. ``JK:`` and ``2:`` are neither; a wild-only group already means
    the joker rank, so ``JK: 2C JK`` accepted as a different action from ``2C JK`` would give one move two
    canonical texts. Both labels are refused."""
    with pytest.raises(NotationError, match="is not the rank of a meld"):
        parse_action(labelled)


# -- random actions --------------------------------------------------------------------------------------------
cards = st.integers(min_value=0, max_value=52)
labels = st.none() | st.integers(min_value=1, max_value=12)  # 3 .. A


@st.composite
def groups(draw: st.DrawFn) -> MeldGroup:
    chosen = draw(st.lists(cards, min_size=1, max_size=8))
    natural = any(rank_of(c) not in (0, JOKER_RANK) for c in chosen)
    return MeldGroup.of(chosen, None if natural else draw(labels))


bare = st.sampled_from(
    [Action.draw(), Action.ask(), Action.answer(True), Action.answer(False), Action("end"), Action("pass")]
)
discards = st.builds(Action.discard, cards)
melds = st.builds(Action.meld, st.lists(groups(), min_size=1, max_size=4))
takes = st.builds(Action.take, st.lists(cards, max_size=3), st.lists(groups(), max_size=3))
actions = st.one_of(bare, discards, melds, takes)


@settings(max_examples=300, deadline=None)
@given(actions)
def test_random_actions_round_trip_as_text(action: Action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text
    assert parse_action(text.lower()) == action
    assert parse_action(f"  {text.upper()}  ") == action


@settings(max_examples=300, deadline=None)
@given(actions)
def test_random_actions_round_trip_as_json(action: Action) -> None:
    data = action.to_json()
    assert action_from_json(data) == action
    assert action_from_json(json.loads(json.dumps(data))) == action
    assert action_from_json(data) == parse_action(str(action))


@st.composite
def scrambled(draw: st.DrawFn) -> tuple[Action, str]:
    """An action and a text of it with its cards and groups in random order, in random case, spaced at random."""
    action = draw(st.one_of(melds, takes, discards))

    def spaces() -> str:
        return " " * draw(st.integers(min_value=1, max_value=3))

    def some_case(text: str) -> str:
        return "".join(c.upper() if draw(st.booleans()) else c.lower() for c in text)

    def card_list(items: tuple[int, ...]) -> str:
        return spaces().join(some_case(card_name(c)) for c in draw(st.permutations(items)))

    def group_text(group: MeldGroup) -> str:
        label = f"{some_case(RANK_NAMES[group.rank])}:{spaces()}" if group.rank is not None else ""
        return label + card_list(group.cards)

    def group_list(items: tuple[MeldGroup, ...]) -> str:
        return f"{spaces()}|{spaces()}".join(group_text(g) for g in draw(st.permutations(items)))

    verb = some_case(action.kind)
    if action.kind == "discard":
        return action, f"{verb}{spaces()}{card_list(action.cards)}"
    if action.kind == "meld":
        return action, f"{verb}{spaces()}{group_list(action.melds)}"
    text = verb
    if action.cards:
        text += spaces() + card_list(action.cards)
    if action.melds:
        text += f"{spaces()}+{spaces()}{group_list(action.melds)}"
    return action, text


@settings(max_examples=300, deadline=None)
@given(scrambled())
def test_scrambled_text_reads_as_the_same_action(case: tuple[Action, str]) -> None:
    action, text = case
    read = parse_action(text)
    assert read == action and str(read) == str(action)


@settings(max_examples=200, deadline=None)
@given(actions, st.randoms(use_true_random=False))
def test_scrambled_json_reads_as_the_same_action(action: Action, rnd: Any) -> None:
    data = action.to_json()
    for key in ("cards", "melds"):
        if key in data:
            rnd.shuffle(data[key])
    for group in data.get("melds", []):
        rnd.shuffle(group["cards"])
        group["cards"] = [c.lower() for c in group["cards"]]
    assert action_from_json(data) == action


@settings(max_examples=300, deadline=None)
@given(st.one_of(melds, takes, discards), st.data())
def test_a_bad_card_is_pointed_at(action: Action, data: st.DataObject) -> None:
    tokens = str(action).split(" ")
    card_positions = [i for i, t in enumerate(tokens) if i > 0 and t not in ("+", "|") and not t.endswith(":")]
    assume(card_positions)  # a bare "take" has no card to spoil
    index = data.draw(st.sampled_from(card_positions))
    bad = data.draw(st.sampled_from(["1X", "KZ", "11H", "JKS", "0C"]))
    tokens[index] = bad
    text = " ".join(tokens)
    with pytest.raises(NotationError) as caught:
        parse_action(text)
    message = str(caught.value).splitlines()
    assert message[0] == f"{bad!r} is not a card; expected a rank (2-10, J, Q, K, A) and a suit (C, D, H, S), or JK"
    assert message[1] == f"  {text}"
    assert message[2] == "  " + " " * len(" ".join(tokens[:index]) + " ") + "^"


# -- golden error messages -------------------------------------------------------------------------------------
TEXT_CASES: dict[str, str] = {
    "unknown_verb": "dance KH",
    "unknown_verb_indented": "   fold",
    "bad_card": "meld KH KX KD",
    "bad_card_lower_case": "take kh ks + qh qq 2c",
    "missing_card_after_discard": "discard",
    "two_cards_after_discard": "discard 7S 8S",
    "empty_group": "meld KH KS KD | | QH QS QD",
    "trailing_bar": "meld KH KS KD |",
    "plus_without_melds": "take KH KS +",
    "label_without_cards": "meld K: ",
    "bad_label": "meld Z: 2C",
    "label_against_cards": "meld K: 2C QH",
    "bare_verb_with_cards": "draw KH",
    "meld_without_groups": "meld",
    "empty_action": "",
    "declare_without_a_name": "declare",
    "declare_two_words": "declare wild pairs",
}
JSON_CASES: dict[str, Any] = {
    "json_wrong_type_card": {"type": "discard", "card": 7},
    "json_wrong_type_melds": {"type": "meld", "melds": "KH KS KD"},
    "json_unknown_field": {"type": "draw", "card": "7S"},
    "json_unknown_field_meld": {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}], "card": "KH"},
    "json_bad_card_in_meld": {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}, {"cards": ["ZZ", "QS"]}]},
    "json_bad_group": {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}, ["QH", "QS", "QD"]]},
    "json_empty_group": {"type": "take", "cards": ["KH", "KS"], "melds": [{"cards": []}]},
    "json_unknown_type": {"type": "fold"},
    "json_not_an_object": ["draw"],
    "json_bad_rank": {"type": "meld", "melds": [{"cards": ["2C"], "rank": "Z"}]},
    "json_declare_without_a_hand": {"type": "declare"},
    "json_declare_with_cards": {"type": "declare", "hand": "straight", "cards": ["2C"]},
}


def render(name: str) -> str:
    with pytest.raises(NotationError) as caught:
        if name in TEXT_CASES:
            parse_action(TEXT_CASES[name])
        else:
            action_from_json(JSON_CASES[name])
    return str(caught.value) + "\n"


@pytest.mark.parametrize("name", sorted([*TEXT_CASES, *JSON_CASES]))
def test_error_matches_golden(name: str) -> None:
    actual = render(name)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def test_every_golden_file_has_a_case() -> None:
    assert {path.stem for path in GOLDEN.glob("*.txt")} == {*TEXT_CASES, *JSON_CASES}


@pytest.mark.parametrize("name", sorted(name for name, text in TEXT_CASES.items() if text))
def test_text_errors_quote_the_input_under_the_message(name: str) -> None:
    lines = render(name).splitlines()
    assert lines[1] == "  " + TEXT_CASES[name]
    assert re.fullmatch(r"  \s*\^", lines[2])


def test_a_notation_error_is_a_value_error() -> None:
    assert isinstance(NotationError("x"), ValueError)


# -- refusals of illegal actions -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def classic() -> Rules:
    return Rules(load_variant("classic"))


def test_illegal_actions_explain_themselves(classic: Rules) -> None:
    game = Game(classic, seed=1)
    seat = game.to_act
    held = game.hand_of(seat)[0]
    not_held = next(c for c in ALL_CARDS if c not in game.hand_of(seat))
    cases = [
        (
            parse_action(f"discard {card_name(held)}"),
            None,
            "TURN.DRAW_FIRST",
            "Begin your turn by drawing from the stock or taking the pile. [TURN.DRAW_FIRST]",
        ),
        (parse_action("draw"), (seat + 1) % classic.players, "TURN.ORDER", "It is not your turn. [TURN.ORDER]"),
    ]
    for action, who, rule, text in cases:
        with pytest.raises(IllegalAction) as caught:
            game.apply(action, seat=who)
        message = str(caught.value)
        assert caught.value.rule_id == rule
        assert message.endswith(f" [{rule}]") and REFUSAL.match(message), message
        assert message == f"{caught.value.explanation} [{rule}]"
        assert message == text
    game.apply(parse_action("draw"))
    for action, rule in [
        (parse_action("draw"), "TURN.ONE_DRAW"),
        (Action.discard(not_held), "TURN.OWN_CARDS"),
        (parse_action("yes"), "TURN.ANSWER"),
    ]:
        with pytest.raises(IllegalAction) as caught:
            game.apply(action)
        assert caught.value.rule_id == rule
        assert REFUSAL.match(str(caught.value)), str(caught.value)


@pytest.mark.parametrize("variant", ["classic", "classic-2p"])
def test_every_refusal_is_a_sentence_citing_its_rule(variant: str) -> None:
    clauses = [c for c in load_variant(variant).clauses.values() if c.kind == "require"]
    assert clauses
    for clause in clauses:
        message = str(IllegalAction(clause.id, clause.refusal))
        match = REFUSAL.match(message)
        assert match and match.group(1) == clause.id, message
