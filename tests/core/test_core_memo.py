"""The core's memo of rule answers (C, Python on a miss) and its table values, on their own; the step-by-step proof
against the reference in every variant is test_core_proof.py."""

from __future__ import annotations

from types import ModuleType

import pytest

from canasta_ref import Game, core
from canasta_ref.core import memo as core_memo
from canasta_ref.core.memo import EncodingError, NativeAnswers, NativeQuestion
from canasta_ref.core.proof import prove
from canasta_ref.engine.cards import MELD_RANK_NAMES, parse_card
from canasta_ref.engine.checks import DISCARD_ALLOWED, MELD_VALID, table_values
from canasta_ref.engine.rules import QUESTIONS, rules_for
from canasta_ref.spec import load_variant


class _Asked:
    """A callback that answers with the key's sum and remembers each key it was called with."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, ...]] = []

    def __call__(self, key: tuple[int, ...]) -> int:
        self.keys.append(key)
        return sum(key)


def test_a_miss_asks_python_once_and_a_hit_does_not(library: ModuleType) -> None:
    asked = _Asked()
    memo = library.RuleMemo(3, asked, 1000)
    assert memo.ask((1, 2, 3)) == 6
    assert memo.ask([1, 2, 3]) == 6
    assert memo.ask((3, 2, 1)) == 6
    assert asked.keys == [(1, 2, 3), (3, 2, 1)]
    assert memo.counts() == {"hits": 1, "misses": 2, "size": 2}


def test_the_memo_grows_and_keeps_every_answer(library: ModuleType) -> None:
    asked = _Asked()
    memo = library.RuleMemo(2, asked, 100_000)
    keys = [(i, -i - 1) for i in range(1000)] + [(i, i * 7) for i in range(1000)]
    assert memo.ask_all(keys) == [sum(key) for key in keys]
    assert memo.ask_all(keys) == [sum(key) for key in keys]
    assert len(asked.keys) == 2000
    assert memo.counts() == {"hits": 2000, "misses": 2000, "size": 2000}


def test_a_full_memo_starts_again(library: ModuleType) -> None:
    asked = _Asked()
    memo = library.RuleMemo(1, asked, 3)
    memo.ask_all([(1,), (2,), (3,), (4,)])
    assert memo.counts()["size"] == 1
    memo.ask((1,))
    assert asked.keys[-1] == (1,)
    memo.clear()
    assert memo.counts() == {"hits": 0, "misses": 0, "size": 0}


def test_bad_keys_and_memos_are_refused_by_name(library: ModuleType) -> None:
    memo = library.RuleMemo(2, _Asked(), 10)
    with pytest.raises(ValueError, match="a memo key of 3 values, expected 2"):
        memo.ask((1, 2, 3))
    with pytest.raises(ValueError, match="a memo key's value is 4294967296, expected"):
        memo.ask((1, 2**32))
    with pytest.raises(TypeError, match="a memo's callback must be callable"):
        library.RuleMemo(2, 5, 10)
    with pytest.raises(ValueError, match="a memo's key is 40 values, expected 0 to 32"):
        library.RuleMemo(40, _Asked(), 10)
    assert memo.counts()["size"] == 0


def test_a_callback_that_raises_is_reported_and_nothing_is_kept(library: ModuleType) -> None:
    def broken(key: tuple[int, ...]) -> int:
        raise KeyError("no answer")

    memo = library.RuleMemo(1, broken, 10)
    with pytest.raises(KeyError, match="no answer"):
        memo.ask((1,))
    assert memo.counts()["size"] == 0


def test_a_rank_is_coded_as_the_meld_rank_the_core_holds(library: ModuleType) -> None:
    rules = rules_for(load_variant("classic"))
    encoding = NativeQuestion(rules, MELD_VALID, QUESTIONS.index("failing")).encoding
    rank = encoding.names.index("rank")
    assert encoding.vocabularies[rank] is not None
    assert [encoding.vocabularies[rank].code(name) for name in MELD_RANK_NAMES] == list(range(len(MELD_RANK_NAMES)))


def test_answers_are_the_reference_clauses_and_a_wrong_type_is_refused(library: ModuleType) -> None:
    rules = rules_for(load_variant("modern-american"))
    game = Game(rules, seed="core-memo/1")
    answers = NativeAnswers(rules)
    failing = QUESTIONS.index("failing")
    table = table_values(rules, game.state, game.state.to_act)
    black_three, red_three, ace = parse_card("3S"), parse_card("3H"), parse_card("AS")
    verdicts = []
    for card in (black_three, ace, red_three, parse_card("AH"), black_three):
        values = (*table, *rules.card_values[card], 10, False)
        verdicts.append(answers.ask(DISCARD_ALLOWED, failing, values))
        assert verdicts[-1] is rules.failing_of(DISCARD_ALLOWED, values)
    assert [clause.id if clause else None for clause in verdicts] == [
        "DISCARD.NO_THREES",
        None,
        "DISCARD.NO_THREES",
        None,
        "DISCARD.NO_THREES",
    ]
    assert answers.counts() == (2, 3)  # keyed on the two flags its clause reads: (black), (neither), (red)
    values = (*table, *rules.card_values[ace][:3], 1, *rules.card_values[ace][4:], 10, False)
    with pytest.raises(EncodingError, match=r"discard\.allowed: is_red_three is 1, expected a yes or no"):
        answers.ask(DISCARD_ALLOWED, failing, values)


def test_table_values_are_the_reference_for_every_seat(library: ModuleType) -> None:
    game = Game(load_variant("classic"), seed="core-memo/2")
    for _ in range(30):
        game.apply(next(iter(game.legal_actions())))
    position = core.load_state(core.new_position(game.rules), game.state)
    for seat in range(4):
        assert position.table_values(seat) == table_values(game.rules, game.state, seat)
    with pytest.raises(ValueError, match="there is no seat 4"):
        position.table_values(4)


def test_the_proof_finds_a_wrong_answer(library: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    def wrong(self: NativeQuestion, key: tuple[int, ...]) -> object:
        return "a wrong answer"

    monkeypatch.setattr(core_memo.NativeQuestion, "_miss", wrong)
    proof = prove(rules_for(load_variant("classic")), ["core-memo/3"])
    assert proof.disagreements
    assert any("core a wrong answer, reference" in found for found in proof.disagreements)
