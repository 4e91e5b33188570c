"""The scoring facts Modern American Canasta needs, each driven by a hook: a score per meld (score.meld), a score per
rank a player is left holding (score.held), bonus cards counted by colour (score.hand's ``red_bonus_cards`` and
``black_bonus_cards``), and melds that must be completed before a side goes out (meld.must_complete, read by
go_out.allowed as ``incomplete_required_melds_after``). Tested on a small child of Classic with MAC's clauses, each
against a case it rewards or allows and one it penalises or refuses; Classic itself must not see any of it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from listing_kit import each_listing, forced_structure, legal_by_plan, refusal, written_variant

from canasta_ref import Game, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.scoring import meld_facts, score_hand, side_facts

#: MAC's scoring clauses (rules matrix section 2.5), on Classic: every three a bonus card, wild melds allowed.
SCORING = """\
  - id: RED3.LAY_OUT
    replaces: true
    section: threes
    title: Every three is laid out
    text: Red and black threes are bonus cards.
    sources: [{source: canasta-ref, quote: "All threes."}]
    hook: bonus_card
    when: rank == "3"
  - id: MELD.NO_WILD_ONLY
    replaces: true
    section: melds
    title: Wild cards alone make a wild meld
    text: Wild cards alone make a meld of wild cards.
    sources: [{source: canasta-ref, quote: "Wild melds."}]
    hook: meld.valid
    require: naturals > 0 or rank == "JK"
    message: Wild cards alone make a meld of wild cards.
  - id: SCORE.RED_THREES
    replaces: true
    section: scoring
    title: Threes by colour
    text: Each colour's threes score by the table, minus without a canasta, nothing with one, plus with two.
    sources: [{source: canasta-ref, quote: "Threes by colour."}]
    hook: score.hand
    value: >-
      (lookup(three_values, red_bonus_cards) + lookup(three_values, black_bonus_cards))
      * (if canastas == 0 then -1 else if canastas == 1 then 0 else 1)
  - id: SCORE.SEVENS
    section: scoring
    title: Sevens
    text: A canasta of sevens scores 2500, a meld of sevens left incomplete -2500.
    sources: [{source: canasta-ref, quote: "Sevens."}]
    hook: score.meld
    value: 'if rank == "7" then (if is_canasta then 2500 else -2500) else 0'
  - id: SCORE.PURE_ACES
    section: scoring
    title: Pure aces
    text: A canasta of aces without wild cards scores 2500, such a meld left incomplete -2500.
    sources: [{source: canasta-ref, quote: "Pure aces."}]
    hook: score.meld
    value: 'if rank == "A" and wilds == 0 then (if is_canasta then 2500 else -2500) else 0'
  - id: SCORE.WILD_MELD
    section: scoring
    title: Wild cards alone
    text: >-
      A wild canasta scores 3000 of twos alone, 2500 with the four jokers, else 2000; a wild meld left incomplete
      -2000, or -2500 holding the four jokers.
    sources: [{source: canasta-ref, quote: "Wild melds."}]
    hook: score.meld
    value: >-
      if kind != "wild" then 0
      else if is_canasta then (if twos == size then 3000 else if jokers == 4 then 2500 else 2000)
      else if jokers == 4 then -2500 else -2000
  - id: SCORE.HELD_SEVENS_ACES
    section: scoring
    title: Sevens or aces held
    text: A player left with three sevens or more, or three aces or more, costs the side 1500 for each such rank.
    sources: [{source: canasta-ref, quote: "Held."}]
    hook: score.held
    value: 'if rank in ["7", "A"] and count >= 3 then -1500 else 0'
"""

#: MAC's rule that sevens, pure aces and wild melds be completed before going out.
MUST_COMPLETE = """\
  - id: MELD.MUST_COMPLETE
    section: melds
    title: Sevens, pure aces and wild cards must be completed
    text: A side that starts a meld of sevens, of aces without wild cards or of wild cards must complete it.
    sources: [{source: canasta-ref, quote: "Complete it."}]
    hook: meld.must_complete
    when: 'rank == "7" or (rank == "A" and wilds == 0) or kind == "wild"'
  - id: GO_OUT.COMPLETE_FIRST
    section: going-out
    title: No incomplete sevens, pure aces or wild cards
    text: A side may not go out while such a meld is incomplete.
    sources: [{source: canasta-ref, quote: "Complete it first."}]
    hook: go_out.allowed
    require: incomplete_required_melds_after == 0
    message: Your side must first complete its sevens, pure aces or wild cards.
"""

HEAD = """\
spec: 1
id: {id}
name: {id}
description: Classic with Modern American's scoring facts, for tests.
extends: classic
parameters:
  three_values:
    type: table
    value:
      - {{from: 0, value: 0}}
      - {{from: 1, value: 100}}
      - {{from: 2, value: 300}}
      - {{from: 3, value: 500}}
      - {{from: 4, value: 1000}}
    doc: The points of one colour's threes, by how many the side laid out.
rules:
"""


def _rules(folder: Path, name: str, body: str) -> Rules:
    return rules_for(written_variant(folder, name, HEAD.format(id=name) + body))


@pytest.fixture(scope="module")
def mac(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return _rules(tmp_path_factory.mktemp("spec"), "mac-scoring", SCORING + MUST_COMPLETE)


@pytest.fixture(scope="module")
def lenient(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """The same scoring, without the rule that blocks going out."""
    return _rules(tmp_path_factory.mktemp("spec"), "mac-lenient", SCORING)


CLASSIC = rules_for(load_variant("classic"))


def _game(
    rules: Rules,
    hands: Sequence[str],
    melds: Sequence[Sequence[str]] = ((), ()),
    *,
    bonus: Sequence[str] = (),
    opened: bool = True,
    phase: str = "play",
    pile: str = "4D",
) -> Game:
    position = Position(
        hands=[parse_cards(h) for h in hands],
        pile=parse_cards(pile),
        melds=[[parse_cards(m) for m in side] for side in melds],
        bonus=[parse_cards(b) for b in bonus],
        seat_melded=[opened, opened, opened, opened],
        phase=phase,  # type: ignore[arg-type]
    )
    return Game.from_position(rules, position)


def _parts(rules: Rules, game: Game) -> list[dict[str, int]]:
    return [side.parts for side in score_hand(rules, game.state).sides]


# -- score.meld -------------------------------------------------------------------------------------------------


def test_sevens_and_pure_aces_canastas_score(mac: Rules) -> None:
    game = _game(
        mac, ["5C", "5D", "5H", "5S"], [["7C 7C 7D 7D 7H 7H 7S", "KC KD KH 2C"], ["AC AC AD AD AH AH AS", "QC QD 2D"]]
    )
    mine, theirs = _parts(mac, game)
    assert (mine["SCORE.SEVENS"], mine["SCORE.PURE_ACES"]) == (2500, 0)
    assert (theirs["SCORE.SEVENS"], theirs["SCORE.PURE_ACES"]) == (0, 2500)
    assert mine["SCORE.WILD_MELD"] == theirs["SCORE.WILD_MELD"] == 0
    # The hand's own parts are still there, and the total is their sum.
    side = score_hand(mac, game.state).sides[0]
    assert side.parts["SCORE.CANASTA.NATURAL"] == 500 and side.total == sum(side.parts.values())


def test_incomplete_sevens_and_pure_aces_cost(mac: Rules) -> None:
    game = _game(mac, ["5C", "5D", "5H", "5S"], [["AC AD AH", "7C 7D 7H 7S", "KC KD KH"], ["7C 7D 7H", "QC QD QH"]])
    mine, theirs = _parts(mac, game)
    assert (mine["SCORE.SEVENS"], mine["SCORE.PURE_ACES"]) == (-2500, -2500)
    assert (theirs["SCORE.SEVENS"], theirs["SCORE.PURE_ACES"]) == (-2500, 0)


def test_aces_with_a_wild_card_are_not_pure(mac: Rules) -> None:
    game = _game(mac, ["5C", "5D", "5H", "5S"], [["AC AD AH 2C"], ["AC AD AS AS AH 2D 2H"]])
    assert [parts["SCORE.PURE_ACES"] for parts in _parts(mac, game)] == [0, 0]


@pytest.mark.parametrize(
    ("wild_meld", "points"),
    [
        ("2C 2C 2D 2D 2H 2H 2S", 3000),
        ("JK JK JK JK 2C 2D 2H", 2500),
        ("JK JK 2C 2D 2H 2S 2S", 2000),
        ("2C 2D 2H", -2000),
        ("JK JK JK JK 2C", -2500),
    ],
)
def test_wild_melds_score_by_composition(mac: Rules, wild_meld: str, points: int) -> None:
    game = _game(mac, ["5C", "5D", "5H", "5S"], [["KC KD KH", wild_meld], ["QC QD QH"]])
    mine, theirs = _parts(mac, game)
    assert mine["SCORE.WILD_MELD"] == points and theirs["SCORE.WILD_MELD"] == 0


def test_meld_facts_name_the_meld_as_meld_valid_does(mac: Rules) -> None:
    """A wild meld's rank is "JK", its kind "wild"; a group's kind "group" (what meld.valid reads)."""
    game = _game(mac, ["5C", "5D", "5H", "5S"], [["KC KD KH 2S", "JK 2C 2D"], []])
    side = side_facts(mac, game.state, 0)
    group, wild = (meld_facts(mac, meld, side) for meld in game.state.melds[0])
    assert group == {
        "rank": "K",
        "kind": "group",
        "size": 4,
        "naturals": 3,
        "wilds": 1,
        "twos": 1,
        "jokers": 0,
        "is_canasta": False,
        "team_canastas": 0,
        "went_out": False,
    }
    assert (wild["rank"], wild["kind"], wild["naturals"], wild["wilds"], wild["twos"], wild["jokers"]) == (
        "JK",
        "wild",
        0,
        3,
        2,
        1,
    )


# -- score.held -------------------------------------------------------------------------------------------------


def test_three_sevens_or_aces_held_cost_each_player(mac: Rules) -> None:
    game = _game(
        mac,
        ["7C 7D 7H AC AD AH AS 9C", "AC AD 5C", "7C 7D 7S 7S", "9H 9S"],
        [["KC KD KH"], ["QC QD QH"]],
    )
    mine, theirs = _parts(mac, game)
    assert mine["SCORE.HELD_SEVENS_ACES"] == -4500  # seat 0: three sevens and four aces; seat 2: four sevens
    assert theirs["SCORE.HELD_SEVENS_ACES"] == 0  # two aces only


def test_held_counts_each_player_apart(mac: Rules) -> None:
    """Two sevens in each partner's hand are not three in one."""
    game = _game(mac, ["7C 7D 9C", "5C", "7H 7S 9D", "5D"], [["KC KD KH"], ["QC QD QH"]])
    assert _parts(mac, game)[0]["SCORE.HELD_SEVENS_ACES"] == 0


def test_partners_each_pay_for_their_own_hand(mac: Rules) -> None:
    game = _game(mac, ["7C 7D 7H", "5C", "AC AD AH", "5D"], [["KC KD KH"], ["QC QD QH"]])
    assert _parts(mac, game)[0]["SCORE.HELD_SEVENS_ACES"] == -3000


# -- bonus cards by colour ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("melds", "points"),
    [
        (["KC KD KH"], -400),
        (["KC KD KH KS KC KD KH"], 0),
        (["KC KD KH KS KC KD KH", "QC QD QH QS QC QD QH"], 400),
    ],
)
def test_threes_score_by_colour_and_canastas(mac: Rules, melds: list[str], points: int) -> None:
    game = _game(mac, ["5C", "5D", "5H", "5S"], [melds, ["JC JD JH"]], bonus=["3H 3D", "", "3C", ""])
    facts = side_facts(mac, game.state, 0)
    assert (facts["red_bonus_cards"], facts["black_bonus_cards"], facts["red_threes"]) == (2, 1, 3)
    assert _parts(mac, game)[0]["SCORE.RED_THREES"] == points


def test_four_of_a_colour_score_a_thousand(mac: Rules) -> None:
    game = _game(
        mac,
        ["5C", "5D", "5H", "5S"],
        [["KC KD KH KS KC KD KH", "QC QD QH QS QC QD QH"], ["JC JD JH"]],
        bonus=["3H 3D", "", "3H 3D", ""],
    )
    assert _parts(mac, game)[0]["SCORE.RED_THREES"] == 1000


# -- Classic unchanged --------------------------------------------------------------------------------------------


def test_classic_sees_none_of_the_new_facts_or_parts() -> None:
    game = _game(CLASSIC, ["7C 7D 7H", "5C", "AC AD AH", "5D"], [["7C 7D 7H", "KC KD KH"], ["QC QD QH"]])
    game.state.bonus[0] = tuple(parse_cards("3H"))
    facts = side_facts(CLASSIC, game.state, 0)
    assert "red_bonus_cards" not in facts and "black_bonus_cards" not in facts
    score = score_hand(CLASSIC, game.state)
    assert set(score.sides[0].parts) == {c.id for c in CLASSIC.variant.by_hook("score.hand")}
    assert not CLASSIC.tracks_must_complete


# -- meld.must_complete and going out ----------------------------------------------------------------------------


def test_an_incomplete_sevens_meld_blocks_going_out(mac: Rules, lenient: Rules) -> None:
    melds = [["KC KD KH KS KC KD KH", "7C 7D 7H"], ["QC QD QH"]]
    game = _game(mac, ["9C", "5C", "5D", "5H"], melds)
    assert refusal(game, "discard 9C") == "GO_OUT.COMPLETE_FIRST"
    assert parse_action("discard 9C") not in legal_by_plan(mac, game)
    other = _game(lenient, ["9C", "5C", "5D", "5H"], melds)
    assert refusal(other, "discard 9C") is None
    assert parse_action("discard 9C") in legal_by_plan(lenient, other)


def test_completing_the_sevens_lets_the_side_go_out(mac: Rules) -> None:
    game = _game(mac, ["7C 7D 7S 7S 9C", "5C", "5D", "5H"], [["KC KD KH KS KC KD KH", "7C 7D 7H"], ["QC QD QH"]])
    legal_now = legal_by_plan(mac, game)
    assert parse_action("meld 7C 7D 7S 7S") in legal_now
    game.apply(parse_action("meld 7C 7D 7S 7S"))
    assert refusal(game, "discard 9C") is None
    game.apply(parse_action("discard 9C"))
    assert game.is_over and score_hand(mac, game.state).sides[0].parts["SCORE.SEVENS"] == 2500


def test_melding_out_with_sevens_left_incomplete_is_refused(mac: Rules, lenient: Rules) -> None:
    melds = [["KC KD KH KS KC KD KH", "7C 7D 7H"], ["QC QD QH"]]
    hands = ["7S 7S 7D", "5C", "5D", "5H"]
    game = _game(mac, hands, melds)
    assert refusal(game, "meld 7S 7S 7D") == "GO_OUT.COMPLETE_FIRST"  # six sevens, and no card left
    assert parse_action("meld 7S 7S 7D") not in legal_by_plan(mac, game)
    assert refusal(_game(lenient, hands, melds), "meld 7S 7S 7D") is None


def test_pure_aces_block_but_dirty_aces_do_not(mac: Rules) -> None:
    canasta = "KC KD KH KS KC KD KH"
    pure = _game(mac, ["9C", "5C", "5D", "5H"], [[canasta, "AC AD AH"], ["QC QD QH"]])
    assert refusal(pure, "discard 9C") == "GO_OUT.COMPLETE_FIRST"
    dirty = _game(mac, ["9C", "5C", "5D", "5H"], [[canasta, "AC AD AH 2C"], ["QC QD QH"]])
    assert refusal(dirty, "discard 9C") is None


def test_an_incomplete_wild_meld_blocks_until_completed(mac: Rules, lenient: Rules) -> None:
    melds = [["KC KD KH KS KC KD KH", "2C 2D 2H JK"], ["QC QD QH"]]
    short = ["2S JK 9C", "5C", "5D", "5H"]
    game = _game(mac, short, melds)
    assert refusal(game, "meld 2S JK") == "GO_OUT.KEEP_CARD"  # six wild cards: may not go out, so keeps two
    assert parse_action("meld 2S JK") not in legal_by_plan(mac, game)
    assert parse_action("meld 2S JK") in legal_by_plan(lenient, _game(lenient, short, melds))
    game = _game(mac, ["2S 2S JK 9C", "5C", "5D", "5H"], melds)
    assert parse_action("meld 2S 2S JK") in legal_by_plan(mac, game)
    game.apply(parse_action("meld 2S 2S JK"))
    game.apply(parse_action("discard 9C"))
    assert game.is_over and score_hand(mac, game.state).sides[0].parts["SCORE.WILD_MELD"] == 2000


@pytest.mark.parametrize(
    ("hand", "rule"),
    [
        ("KH KS KD KC KH KS KD 7C 7D 7S", "GO_OUT.COMPLETE_FIRST"),
        ("KH KS KD KC KH KS KD 7C 7D 7S 9C", "GO_OUT.KEEP_CARD"),
    ],
)
def test_an_opening_leaving_its_sevens_incomplete_may_not_go_out(
    mac: Rules, lenient: Rules, hand: str, rule: str
) -> None:
    """Melding out, or down to the card to discard, with three sevens laid: refused, and not listed."""
    hands = [hand, "5C", "5D", "5H"]
    out = parse_action("meld KH KS KD KC KH KS KD | 7C 7D 7S")
    for _ in each_listing():
        legal_now = legal_by_plan(mac, _game(mac, hands, opened=False))
        assert out not in legal_now and parse_action("meld KH KS KD KC KH KS KD") in legal_now
        assert out in legal_by_plan(lenient, _game(lenient, hands, opened=False))
    assert refusal(_game(mac, hands, opened=False), str(out)) == rule


def test_an_opening_that_completes_its_sevens_may_go_out(mac: Rules) -> None:
    hands = ["7C 7D 7S 7H 7C 7D 7S KC KD KH 9C", "5C", "5D", "5H"]
    out = parse_action("meld 7C 7D 7S 7H 7C 7D 7S | KC KD KH")
    for _ in each_listing():
        game = _game(mac, hands, opened=False)
        assert out in legal_by_plan(mac, game)
    game.apply(out)
    game.apply(parse_action("discard 9C"))
    assert game.is_over and score_hand(mac, game.state).sides[0].parts["SCORE.SEVENS"] == 2500


def test_a_variable_no_clause_reads_is_not_tracked(lenient: Rules, mac: Rules) -> None:
    assert mac.tracks_must_complete and not lenient.tracks_must_complete


def test_an_opening_take_leaving_its_sevens_incomplete_may_not_go_out(mac: Rules, lenient: Rules) -> None:
    """Taking the pile with two sevens and laying a canasta of kings leaves one card (the pile's other card): the
    side could go out, but not with three sevens laid (the take's own meld, ``combos``' start state)."""
    hands = ["7C 7D KC KD KH KS KC KD KH", "5C", "5D", "5H"]
    take = parse_action("take 7C 7D + KC KD KH KS KC KD KH")
    for _ in forced_structure():
        game = _game(mac, hands, opened=False, phase="draw", pile="4D 7H")
        assert take not in legal_by_plan(mac, game)
        other = _game(lenient, hands, opened=False, phase="draw", pile="4D 7H")
        assert take in legal_by_plan(lenient, other)
    assert refusal(_game(mac, hands, opened=False, phase="draw", pile="4D 7H"), str(take)) == "GO_OUT.KEEP_CARD"


def test_an_opening_take_whose_further_sevens_stay_incomplete_may_not_go_out(mac: Rules, lenient: Rules) -> None:
    """The take's own meld is a canasta of kings; the sevens laid beside it are the further melds (the structure's
    end states, ``combos.Combinations.count_from``), and they stay short of a canasta: the side may not go out, so
    the take, which leaves one card, is refused."""
    hands = ["KC KD KS KH KC KD 7C 7D 7S 9C", "5C", "5D", "5H"]
    take = parse_action("take KC KD KS KH KC KD + 7C 7D 7S")
    for _ in each_listing():
        assert take not in legal_by_plan(mac, _game(mac, hands, opened=False, phase="draw", pile="KH"))
        assert take in legal_by_plan(lenient, _game(lenient, hands, opened=False, phase="draw", pile="KH"))
    assert refusal(_game(mac, hands, opened=False, phase="draw", pile="KH"), str(take)) == "GO_OUT.KEEP_CARD"
