"""Properties of the engine over random deals and random legal play, for every bundled variant.

Each property plays whole hands: the deal comes from a Hypothesis-drawn seed, first seat and running scores (which
set the initial meld minimum), and each move is a uniform choice among the legal actions made by a
Hypothesis-controlled ``random.Random``, so a failure replays from the example database.

The bound on the length of a hand
---------------------------------
Let D, T, M be the numbers of draws, pile takes and meld actions in a hand.

* Every turn starts with exactly one draw or take (TURN.DRAW_FIRST, TURN.ONE_DRAW), so turns <= D + T.
* Every draw either ends the hand (empty stock) or removes at least one card from the stock, and nothing puts
  cards back into the stock, so D <= 108 + 1.
* Every take moves the pile's top card to the table and every meld moves at least one card from hand to the
  table; no card ever leaves the table, so T + M <= 108.
* Besides its draw or take, a turn has at most one ask (GO_OUT.ASK.BEFORE_MELDING), one answer to it and one
  discard or ``pass`` (either ends the turn) or ``end`` (which ends the hand), i.e. at most 3 further non-meld
  actions. A pass keeps the player's last card in hand, but the count above never relied on cards leaving the
  hand: the next turn still starts with a draw or take, each draw still removes a stock card, and each take a
  pile card, so passes add no turn the bound does not already count.

So actions <= (D + T) + 3 (D + T) + M <= 4 D + 4 (T + M) <= 4 * 109 + 4 * 108 = 868, well inside the 10 * 108
that a looser count gives. ``hand_bound`` gives that 868 (4 (N + 1) + 4 N for an N-card deck); random play
has to end every hand within it.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from canasta_ref import Action, Game, IllegalAction, MeldGroup, Rules, list_variants, load_variant
from canasta_ref.bots import RandomBot
from canasta_ref.engine.cards import Card, cards_of, counts_of, full_deck, rank_of
from canasta_ref.engine.named import candidates
from canasta_ref.engine.position import Position
from canasta_ref.engine.state import HandState
from canasta_ref.errors import CanastaError
from canasta_ref.match import MatchResult, play_match

VARIANTS = tuple(list_variants())
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}


def hand_bound(rules: Rules) -> int:
    """The most actions a hand of ``rules`` can take: 868 for a 108-card deck; see the module docstring."""
    deck_size = rules.packs * (52 + rules.jokers_per_pack)
    return 4 * (deck_size + 1) + 4 * deck_size


REFUSAL = re.compile(r"^[A-Z].*[.!?] \[([A-Z0-9_]+(?:\.[A-Z0-9_]+)+)\]$", re.DOTALL)

SCORES = (0, 0, 0, -300, 1500, 3000, 4990)  # the running scores pick the initial meld minimum
Deal = tuple[int, int, int, int]

variants = st.sampled_from(VARIANTS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
deals = st.tuples(seeds, st.integers(min_value=0, max_value=3), st.sampled_from(SCORES), st.sampled_from(SCORES))
players = st.randoms(use_true_random=False)


def fast(n: int) -> Any:
    """Settings for a property that plays ``n`` whole hands (a hand of random play takes ~50 ms).

    No shrinking: a hand of random play is a long run of choices, and shrinking it costs minutes; the falsifying
    example printed (variant, seed and the random draws, replayable from the example database) is enough.
    Under CI (``CI`` set) the examples are derandomized, so that CI's run time is the same from run to run; a
    developer's runs keep exploring new deals. The second pass of ``tools/test.sh`` (pure Python, after the same
    properties ran on the compiled engine; ``CANASTA_REF_SECOND_PASS`` set) plays half as many hands: it is there
    to catch an answer the compiled build changes, which the scenarios, perft files and goldens pin exactly.
    """
    if os.environ.get("CANASTA_REF_SECOND_PASS"):
        n = max(1, n // 2)
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=bool(os.environ.get("CI")),
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.large_base_example,
            HealthCheck.data_too_large,
        ],
    )


def side_random(rnd: random.Random) -> random.Random:
    """A plain generator for the bulk randomness (shuffles, made-up actions), seeded from Hypothesis's."""
    return random.Random(rnd.getrandbits(64))


# -- helpers ---------------------------------------------------------------------------------------------------
def new_game(rules: Rules, deal: Deal) -> Game:
    """A hand dealt from a seed, by a given first player, with given running scores."""
    seed, first, *scores = deal
    team_scores = [scores[side % len(scores)] for side in range(rules.teams)]
    return Game(rules, seed=seed, first_seat=first % rules.players, team_scores=team_scores)


def playout(
    rules: Rules, deal: Deal, rnd: random.Random, step: Callable[[Game, list[Action]], None] | None = None
) -> Game:
    """Play a hand with uniformly random legal actions; ``step(game, legal)`` runs before every action."""
    game = new_game(rules, deal)
    for _ in range(hand_bound(rules)):
        if game.is_over:
            return game
        legal = list(game.legal_actions())
        assert legal, f"no legal action in a live position (phase {game.state.phase}, seat {game.to_act})"
        if step is not None:
            step(game, legal)
        game.apply(rnd.choice(legal))
    assert game.is_over, f"the hand did not end within {hand_bound(rules)} actions"
    return game


def with_state(game: Game, state: HandState) -> Game:
    """A second game over ``state`` (sharing nothing mutable with ``game``)."""
    other = Game(game.rules, seed=0)  # (a compiled Game is not copyable: make one and replace what it holds)
    other.seed, other.deck, other.first_seat = game.seed, game.deck, game.first_seat
    other.state = state
    other.history = list(game.history)
    other.events = list(game.events)
    other._stack = []
    other._event_counts = []
    return other


def hidden_shuffled(rules: Rules, state: HandState, seat: int, rnd: random.Random) -> HandState:
    """A copy of ``state`` whose cards hidden from ``seat`` (other hands, sizes kept, and the stock) are dealt
    anew at random. The stock order decides future draws but is no part of what anyone sees now."""
    clone = state.copy()
    others = [s for s in range(rules.players) if s != seat]
    pool: list[Card] = list(clone.stock)
    for s in others:
        pool.extend(cards_of(clone.hands[s]))
    for foot in clone.feet:  # face down: hidden from every seat, its owner's included
        pool.extend(foot)
    rnd.shuffle(pool)
    clone.stock = pool[: len(clone.stock)]
    at = len(clone.stock)
    for s in others:
        size = clone.hand_sizes[s]
        clone.hands[s] = tuple(counts_of(pool[at : at + size]))
        at += size
    for s, foot in enumerate(clone.feet):
        clone.feet[s] = tuple(pool[at : at + len(foot)])
        at += len(foot)
    assert at == len(pool)
    return clone


def position_of(
    state: HandState,
    hands: list[list[Card]] | None = None,
    stock: list[Card] | None = None,
    feet: list[list[Card]] | None = None,
) -> Position:
    """The written position of ``state`` (optionally with other hands, stock and feet, the stock top first)."""
    return Position(
        hands=hands if hands is not None else [cards_of(h) for h in state.hands],
        pile=list(state.pile),
        stock=stock if stock is not None else list(reversed(state.stock)),
        melds=[[list(m.cards) for m in team] for team in state.melds],
        bonus=[list(b) for b in state.bonus],
        team_scores=list(state.team_scores),
        to_act=state.to_act,
        phase=state.phase,
        upcard_froze=state.upcard_froze,
        seat_melded=list(state.seat_melded),
        permission=state.permission,
        sides=list(state.side_of),
        feet=feet if feet is not None else [list(f) for f in state.feet],
        hand_number=state.hand_number,
        talons=[list(t) for t in state.talons],
        bonus_draws_owed=list(state.bonus_draws_owed),
    )


def snapshot(game: Game) -> tuple[HandState, list[str], list[Any], int]:
    return game.state.copy(), [str(a) for a in game.history], list(game.events), len(game._stack)


def assert_unchanged(game: Game, before: tuple[HandState, list[str], list[Any], int]) -> None:
    state, history, events, stack = before
    assert game.state == state
    assert [str(a) for a in game.history] == history
    assert game.events == events
    assert len(game._stack) == stack


def assert_conserved(game: Game) -> None:
    state = game.state
    assert sorted(state.all_cards()) == sorted(game.deck)
    assert len(game.deck) == game.rules.packs * (52 + game.rules.jokers_per_pack)
    for seat, counts in enumerate(state.hands):
        assert min(counts) >= 0
        assert sum(counts) == state.hand_sizes[seat]


def transcript(game: Game) -> dict[str, Any]:
    return {
        "history": [str(a) for a in game.history],
        "events": [(e.seat, e.what, e.cards, str(e)) for e in game.events],
        "views": [game.view(s) for s in range(game.rules.players)],
        "score": game.score().to_json(),
        "over": game.is_over,
    }


def probes(game: Game) -> Iterator[Action]:
    """Actions that cannot be legal now, whatever the cards: each is refused and never listed."""
    state = game.state
    held = state.hands[state.to_act]
    missing = next(c for c in range(53) if held[c] == 0)
    yield Action.discard(missing)
    yield Action.meld([MeldGroup.of([missing, missing, missing])])
    if state.phase == "play":
        yield Action.draw()
        yield Action.take()
    if state.phase == "draw":
        yield Action.ask()
        yield Action("pass")
        some = next((c for c in range(53) if held[c]), None)
        if some is not None:
            yield Action.discard(some)
    if state.phase != "answer":
        yield Action.answer(True)
        yield Action.answer(False)
    if state.phase == "answer":
        yield Action.draw()
        yield Action.ask()
    if not state.last_card_bonus:
        yield Action("end")


def plausible_actions(game: Game, rnd: random.Random, count: int) -> Iterator[Action]:
    """Random melds and takes built from the cards of the player to act: often legal, never checked by movegen."""
    rules = game.rules
    state = game.state
    seat = state.to_act
    team = state.side_of[seat]
    hand = cards_of(state.hands[seat])
    top_rank = rank_of(state.pile[-1]) if state.pile else -1
    for _ in range(count):
        pool = list(hand)
        rnd.shuffle(pool)

        def pick(fits: Callable[[Card], bool], pool: list[Card] = pool) -> Card | None:
            for i, card in enumerate(pool):
                if fits(card):
                    return pool.pop(i)
            return None

        def group(pool: list[Card] = pool) -> MeldGroup | None:
            ranks = [rank_of(c) for c in pool if not rules.is_wild[c]] + [m.rank for m in state.melds[team]]
            if not ranks:
                return None
            rank = rnd.choice(ranks)
            cards = [pick(lambda c: rank_of(c) == rank and not rules.is_wild[c]) for _ in range(rnd.randint(0, 4))]
            cards += [pick(lambda c: rules.is_wild[c]) for _ in range(rnd.choice((0, 0, 1, 1, 2, 3)))]
            chosen = [c for c in cards if c is not None]
            if not chosen:
                return None
            natural = any(not rules.is_wild[c] for c in chosen)
            return MeldGroup.of(chosen, None if natural else rank)

        if state.phase == "draw" and state.pile:
            pair = [
                pick(lambda c: rules.is_wild[c] or rank_of(c) == top_rank)
                for _ in range(rnd.choice((0, 1, 2, 2, 2, 3)))
            ]
            extras = [g for g in (group() for _ in range(rnd.choice((0, 0, 1, 2, 3)))) if g is not None]
            yield Action.take([c for c in pair if c is not None], extras)
        elif state.phase == "play":
            groups = [g for g in (group() for _ in range(rnd.choice((1, 1, 1, 2, 3)))) if g is not None]
            if groups:
                yield Action.meld(groups)


# -- properties ------------------------------------------------------------------------------------------------
@fast(40)
@given(variant=variants, deal=deals, rnd=players)
def test_cards_conserved_and_hand_ends_within_bound(variant: str, deal: Deal, rnd: random.Random) -> None:
    rules = RULES[variant]

    def step(game: Game, legal: list[Action]) -> None:
        assert_conserved(game)

    game = playout(rules, deal, rnd, step)
    assert_conserved(game)
    assert game.is_over and game.state.end_reason is not None
    assert len(game.history) <= hand_bound(rules)
    assert sorted(game.deck) == sorted(full_deck(rules.packs, rules.jokers_per_pack))
    assert not list(game.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        game.apply(Action.draw())
    assert refused.value.rule_id == "TURN.HAND_OVER"


@fast(15)
@given(variant=variants, deal=deals, rnd=players)
def test_only_the_seat_to_act_can_act(variant: str, deal: Deal, rnd: random.Random) -> None:
    rules = RULES[variant]

    def step(game: Game, legal: list[Action]) -> None:
        before = snapshot(game)
        for action in legal:
            assert game.is_legal(action, seat=game.to_act)
            for seat in range(rules.players):
                if seat == game.to_act:
                    continue
                assert not game.is_legal(action, seat=seat)
                with pytest.raises(IllegalAction) as refused:
                    game.apply(action, seat=seat)
                assert refused.value.rule_id == "TURN.ORDER", (str(action), seat, str(refused.value))
                assert_unchanged(game, before)

    game = playout(rules, deal, rnd, step)
    # The seat to act may name itself.
    replay = new_game(rules, deal)
    for action in game.history:
        replay.apply(action, seat=replay.to_act)
    assert replay.state == game.state


@fast(15)
@given(variant=variants, deal=deals, play=st.integers(min_value=0, max_value=2**32 - 1))
def test_same_seed_and_actions_give_the_same_transcript(variant: str, deal: Deal, play: int) -> None:
    rules = RULES[variant]
    first = playout(rules, deal, random.Random(play))
    # The same choices from the same seed: legal actions are listed in a reproducible order.
    second = playout(rules, deal, random.Random(play))
    assert transcript(first) == transcript(second)
    # The same actions replayed on a fresh game (from the seed, and from the deck), step by step.
    by_seed = new_game(rules, deal)
    by_deck = Game(
        Rules(load_variant(variant)),
        deck=first.deck,
        first_seat=first.first_seat,
        team_scores=first.state.team_scores,
    )
    assert by_seed.deck == by_deck.deck == first.deck
    for action in first.history:
        assert by_seed.apply(action) == by_deck.apply(action)
        assert transcript(by_seed) == transcript(by_deck)
    assert transcript(by_seed) == transcript(first)


@fast(25)
@given(variant=variants, deal=deals, rnd=players)
def test_undo_restores_the_exact_prior_state(variant: str, deal: Deal, rnd: random.Random) -> None:
    rules = RULES[variant]
    states: list[HandState] = []

    def step(game: Game, legal: list[Action]) -> None:
        before = snapshot(game)
        states.append(game.state.copy())
        action = rnd.choice(legal)
        events = game.apply(action)
        after = game.state.copy()
        assert game.undo() == action
        assert_unchanged(game, before)
        assert list(game.legal_actions()) == legal
        assert game.apply(action) == events  # replaying gives the same
        assert game.state == after
        game.undo()
        assert_unchanged(game, before)

    game = playout(rules, deal, rnd, step)
    final, history, events = game.state.copy(), list(game.history), list(game.events)
    # Undo everything, checking each state on the way back, then replay it all.
    for expected in reversed(states):
        game.undo()
        assert game.state == expected
    assert game.history == [] and game.events == new_game(rules, deal).events
    assert game.state == new_game(rules, deal).state
    with pytest.raises(CanastaError):
        game.undo()
    for action in history:
        game.apply(action)
    assert game.state == final and game.history == history and game.events == events


@fast(20)
@given(variant=variants, deal=deals, rnd=players)
def test_view_ignores_hidden_cards(variant: str, deal: Deal, rnd: random.Random) -> None:
    rules = RULES[variant]
    aux = side_random(rnd)

    def step(game: Game, legal: list[Action]) -> None:
        state = game.state
        for seat in range(rules.players):
            shuffled = hidden_shuffled(rules, state, seat, aux)
            assert sorted(shuffled.all_cards()) == sorted(game.deck)
            other = with_state(game, shuffled)
            assert other.view(seat) == game.view(seat)
            if seat == state.to_act:
                # What the player to act may do depends only on what that player sees.
                assert set(other.legal_actions()) == set(legal)

    game = playout(rules, deal, rnd, step)
    for seat in range(rules.players):
        assert with_state(game, hidden_shuffled(rules, game.state, seat, aux)).view(seat) == game.view(seat)


@fast(20)
@given(variant=variants, deal=deals, rnd=players)
def test_view_of_a_written_position_ignores_hidden_cards(variant: str, deal: Deal, rnd: random.Random) -> None:
    """Game.from_position, with the other hands and the stock redealt, shows each seat what the game shows it."""
    rules = RULES[variant]
    aux = side_random(rnd)

    def step(game: Game, legal: list[Action]) -> None:
        state = game.state
        if state.phase in ("answer", "keep"):  # a written position has no question or choice pending: refused
            with pytest.raises(CanastaError):
                Game.from_position(rules, position_of(state))
            return
        same = Game.from_position(rules, position_of(state))
        assert sorted(same.state.all_cards()) == sorted(same.deck)
        for seat in range(rules.players):
            assert same.view(seat) == game.view(seat)
        if state.phase == "draw":
            assert list(same.legal_actions()) == legal
        seat = aux.randrange(rules.players)
        shuffled = hidden_shuffled(rules, state, seat, aux)
        written = Game.from_position(
            rules,
            position_of(
                state, [cards_of(h) for h in shuffled.hands], list(reversed(shuffled.stock)), list(shuffled.feet)
            ),
        )
        assert written.view(seat) == game.view(seat)

    playout(rules, deal, rnd, step)


@fast(10)
@given(variant=variants, deal=deals, rnd=players)
def test_legal_actions_are_the_legal_candidates(variant: str, deal: Deal, rnd: random.Random) -> None:
    rules = RULES[variant]

    def step(game: Game, legal: list[Action]) -> None:
        listing = game.legal_actions()
        assert len(set(legal)) == len(legal), "legal_actions() lists an action twice"
        assert listing.count() == len(legal) and bool(listing)
        legal_set = set(legal)
        seen: set[Action] = set()
        for candidate in candidates(rules, game.state):
            if candidate in seen:
                continue
            seen.add(candidate)
            try:
                game.check(candidate)
            except IllegalAction as refusal:
                assert candidate not in legal_set
                assert REFUSAL.match(str(refusal)), str(refusal)
                assert str(refusal).endswith(f"[{refusal.rule_id}]")
                assert refusal.rule_id in rules.variant.clauses
            else:
                assert candidate in legal_set, f"legal candidate {candidate} is not listed"
        assert legal_set <= seen
        before = snapshot(game)
        for action in legal:
            assert action in listing and game.is_legal(action)
            game.apply(action)
            assert_conserved(game)
            game.undo()
            assert_unchanged(game, before)
        for action in probes(game):
            assert action not in legal_set and action not in listing
            with pytest.raises(IllegalAction) as refused:
                game.apply(action)
            assert REFUSAL.match(str(refused.value)), str(refused.value)
            assert_unchanged(game, before)

    playout(rules, deal, rnd, step)


@fast(25)
@given(variant=variants, deal=deals, rnd=players)
def test_every_legal_action_is_listed(variant: str, deal: Deal, rnd: random.Random) -> None:
    """Melds and takes built at random from the hand: whenever the rules accept one, legal_actions() lists it
    (movegen promises a superset of the legal actions, and ``a in legal_actions()`` must agree with iterating)."""
    rules = RULES[variant]
    aux = side_random(rnd)

    def step(game: Game, legal: list[Action]) -> None:
        legal_set = set(legal)
        for action in plausible_actions(game, aux, 20):
            if game.is_legal(action):
                assert action in legal_set, f"{action} is legal but legal_actions() does not list it"

    playout(rules, deal, rnd, step)


def _match_record(result: MatchResult) -> list[Any]:
    hands = [
        (h.number, h.first_seat, h.seed, [str(e) for e in h.events], h.actions, h.score.to_json(), h.totals_after)
        for h in result.hands
    ]
    return [hands, result.totals, result.winner, result.finished]


@fast(8)
@given(variant=variants, seed=seeds, max_hands=st.integers(min_value=1, max_value=12))
def test_match_is_deterministic_and_ends(variant: str, seed: int, max_hands: int) -> None:
    rules = RULES[variant]

    def run() -> MatchResult:
        bots = [RandomBot(f"{seed}/bot{s}") for s in range(rules.players)]
        return play_match(rules, bots, seed, max_hands=max_hands)

    first, second = run(), run()
    assert _match_record(first) == _match_record(second)
    assert first.finished or len(first.hands) == max_hands
    assert 1 <= len(first.hands) <= max_hands
    totals = [0] * rules.teams
    for hand in first.hands:
        totals = [t + s for t, s in zip(totals, hand.score.totals, strict=True)]
        assert hand.totals_after == totals
        assert len(hand.actions) <= hand_bound(rules)
    assert first.totals == totals
    if first.finished:
        assert max(totals) >= rules.param("match_target")
        if first.winner is not None:
            assert totals[first.winner] == max(totals) and totals.count(max(totals)) == 1
    else:
        assert first.winner is None
