"""canasta-ref protocol adapter for jhtschultz/canasta-openspiel (an OpenSpiel-style Python Canasta).

It reads one JSON request a line and drives the engine's own CanastaState, translating cards, actions, views and
scores. The engine's code is loaded from the checkout COS_ENGINE names (run.sh checks it is set), never copied.
Runs on a Python that has open_spiel installed (the engine imports pyspiel). Why each translation is as it is:
see README.md beside this file.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from typing import Any

ENGINE_DIR = os.environ.get("COS_ENGINE", "")
NAME = "canasta-openspiel"
COMMIT = "a6ba187"

RANK_TEXTS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_TEXTS = ["C", "D", "H", "S"]
PLAYERS, HAND_SIZE, TEAMS = 4, 11, 2

# Engine action codes (the engine's own encoding, read from its module at load time).
G: Any = None  # the engine's canasta_game module
CARDS: Any = None  # the engine's cards module
SCORING: Any = None


class Refused(Exception):
    """The engine (or the translation) refuses an action: answered accepted=false, the hand unchanged."""


class Unexpressible(Exception):
    """A request the engine's model cannot express: answered ok=false with the reason."""


def load_engine() -> None:
    global G, CARDS, SCORING
    if not ENGINE_DIR:
        raise LookupError(
            f"COS_ENGINE is not set: set it to a checkout of jhtschultz/canasta-openspiel at commit {COMMIT}"
        )
    if importlib.util.find_spec("pyspiel") is None:
        raise LookupError(
            f"{sys.executable} has no open_spiel: pip install open_spiel, or set COS_PYTHON to a Python with it"
        )
    sys.path.insert(0, ENGINE_DIR)
    # Loaded by name from COS_ENGINE at run time: the engine's code is never part of this repository.
    G = importlib.import_module("canasta.canasta_game")
    CARDS = importlib.import_module("canasta.cards")
    SCORING = importlib.import_module("canasta.scoring")


# -- cards ----------------------------------------------------------------------------------------------------------
def card_text(card_id: int) -> str:
    if card_id >= 104:
        return "JK"
    offset = card_id % 52
    return RANK_TEXTS[offset % 13] + SUIT_TEXTS[offset // 13]


def card_kind(text: str) -> tuple[int, int] | None:
    """(suit index, rank index) of a card text, (-1, -1) for a joker, None if it is not a card."""
    text = text.strip().upper()
    if text == "JK":
        return (-1, -1)
    rank, suit = text[:-1], text[-1:]
    if rank not in RANK_TEXTS or suit not in SUIT_TEXTS:
        return None
    return (SUIT_TEXTS.index(suit), RANK_TEXTS.index(rank))


def ids_of_text(text: str) -> list[int]:
    """The engine's ids of one card text: two copies (one a pack), or the four jokers."""
    kind = card_kind(text)
    if kind is None:
        raise Unexpressible(f"'{text}' is not a card")
    if kind == (-1, -1):
        return [104, 105, 106, 107]
    suit, rank = kind
    return [suit * 13 + rank, 52 + suit * 13 + rank]


def split_cards(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return list(value)
    raise Unexpressible("cards must be a text or a list of card texts")


def assign_ids(texts: list[str], pool: dict[str, list[int]]) -> list[int]:
    """Give each card text one of its unused engine ids (the two packs' copies are interchangeable)."""
    out = []
    for text in texts:
        key = text.strip().upper()
        if key not in pool:
            pool[key] = ids_of_text(key)
        if not pool[key]:
            raise Unexpressible(f"more copies of {key} than the deck holds")
        out.append(pool[key].pop(0))
    return out


def pick_from(hand: list[int], texts: list[str]) -> list[int]:
    """Engine ids in ``hand`` for the card texts (as a multiset), or Refused if the hand lacks one."""
    left = list(hand)
    chosen = []
    for text in texts:
        key = text.strip().upper()
        match = next((c for c in left if card_text(c) == key), None)
        if match is None:
            raise Refused(f"{key} is not in the hand")
        left.remove(match)
        chosen.append(match)
    return chosen


# -- the deal --------------------------------------------------------------------------------------------------------
def is_red_three_text(text: str) -> bool:
    return text in ("3D", "3H")


def is_wild_text(text: str) -> bool:
    return text == "JK" or text.startswith("2")


def protocol_deal(deck: list[str], first: int) -> tuple[list[list[str]], list[str], list[str], list[list[str]]]:
    """Our deal procedure (PROTOCOL.md, The deal), to know which card the engine's chance node must give whom.
    Returns each seat's dealt hand, the turned cards, the stock after replacements, and each seat's replacements."""
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for i in range(PLAYERS * HAND_SIZE):
        hands[(first + i) % PLAYERS].append(deck[i])
    at = PLAYERS * HAND_SIZE
    pile = [deck[at]]
    at += 1
    while (is_wild_text(pile[-1]) or is_red_three_text(pile[-1])) and at < len(deck):
        pile.append(deck[at])
        at += 1
    stock = deck[at:]
    replacements: list[list[str]] = [[] for _ in range(PLAYERS)]
    held = [list(h) for h in hands]
    for step in range(PLAYERS):
        seat = (first + step) % PLAYERS
        while any(is_red_three_text(c) for c in held[seat]):
            for three in ("3D", "3H"):
                copies = [c for c in held[seat] if c == three]
                for c in copies:
                    held[seat].remove(c)
                drawn, stock = stock[: len(copies)], stock[len(copies) :]
                held[seat].extend(drawn)
                replacements[seat].extend(drawn)
    return hands, pile, stock, replacements


class Adapter:
    def __init__(self) -> None:
        self.game: Any = None
        self.state: Any = None
        self.bonus: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.end: str | None = None
        self.base_scores = [0, 0]
        self.target = 5000
        self.history: list[tuple[Any, list[list[int]], str | None]] = []

    # -- requests ------------------------------------------------------------------------------------------------
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        protocol = 2 if request.get("protocol") == 2 or 2 in (request.get("protocols") or []) else 1
        capabilities: dict[str, Any] = {
            "setup_position": True,
            "parameters": False,
            "legal": "none",
            "rule_ids": False,
            "views": True,
            "score": True,
            "undo": True,
        }
        if protocol == 2:
            capabilities["score"] = "totals"
            capabilities["absent_features"] = ["end"]
        return {
            "ok": True,
            "name": NAME,
            "version": COMMIT,
            "protocol": protocol,
            "variants": ["classic"],
            "capabilities": capabilities,
        }

    def new_state(self) -> Any:
        if self.game is None:
            self.game = G.CanastaGame()
        state = self.game.new_initial_state()
        self.target = state._target_score
        # One hand only: a target nobody misses makes the engine stop after the hand instead of dealing the next.
        state._target_score = -(10**9)
        return state

    def setup(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("variant") != "classic":
            return {"ok": False, "skip": "the engine plays Classic four-handed only"}
        if request.get("parameters"):
            return {"ok": False, "skip": "the engine's rules have no parameters"}
        if "position" in request:
            return self.setup_position(request["position"])
        deck = split_cards(request.get("deck", ""))
        if len(deck) != 108 or sorted(deck) != sorted(card_text(i) for i in range(108)):
            return {"ok": False, "error": "the deck must be the 108 cards of Classic"}
        first = request.get("first_seat", 0)
        scores = request.get("team_scores", [0, 0])
        if first not in range(PLAYERS) or not (isinstance(scores, list) and len(scores) == 2):
            return {"ok": False, "error": "first_seat must be 0-3 and team_scores two numbers"}
        self.deal(deck, first, [int(s) for s in scores])
        return {"ok": True}

    def deal(self, deck: list[str], first: int, scores: list[int]) -> None:
        """The engine deals through its chance node; its deck is first put in the order that makes its own
        procedure (11 cards to each player in turn, replacements, one upcard) give each seat our cards."""
        hands, pile, stock, replacements = protocol_deal(deck, first)
        state = self.new_state()
        pool: dict[str, list[int]] = {}
        hand_ids = [assign_ids(hands[p], pool) for p in range(PLAYERS)]
        repl_ids = [assign_ids(replacements[p], pool) for p in range(PLAYERS)]
        # The engine's replacement queue: red threes in dealing order, a red three drawn goes to the queue's end.
        queue = [p for p in range(PLAYERS) for c in hand_ids[p] if CARDS.is_red_three(c)]
        sequence, owner = [], {}
        for p in range(PLAYERS):
            for c in hand_ids[p]:
                owner[c] = p
        while queue and any(repl_ids):
            p = queue.pop(0)
            if not repl_ids[p]:
                continue
            c = repl_ids[p].pop(0)
            owner[c] = p
            sequence.append(c)
            if CARDS.is_red_three(c):
                queue.append(p)
        rest = assign_ids(pile + stock, pool)
        state._deck = [c for p in range(PLAYERS) for c in hand_ids[p]] + sequence + rest
        while state.is_chance_node():
            state.apply_action(0)
        state._team_scores = list(scores)
        state._current_player = first
        self.state = state
        self.base_scores = list(scores)
        self.bonus = [[] for _ in range(PLAYERS)]
        for team in range(TEAMS):
            for c in state._red_threes[team]:
                self.bonus[owner.get(c, team)].append(c)
        self.end = None
        self.history = []

    def setup_position(self, position: Any) -> dict[str, Any]:
        """A written-out position through the engine's own deserialize()."""
        if not isinstance(position, dict):
            return {"ok": False, "error": "position must be an object"}
        try:
            data = self.position_data(position)
        except Unexpressible as why:
            return {"ok": False, "error": str(why)}
        except (TypeError, ValueError, KeyError) as why:
            return {"ok": False, "error": f"the position cannot be read: {why}"}
        if isinstance(data, str):
            return {"ok": False, "skip": data}
        state = self.new_state()
        fresh = json.loads(state.serialize())
        fresh.update(data)
        state.deserialize(json.dumps(fresh))
        self.state = state
        self.base_scores = list(data["team_scores"])
        self.end = None
        self.history = []
        return {"ok": True}

    def position_data(self, p: dict[str, Any]) -> dict[str, Any] | str:
        pool: dict[str, list[int]] = {}
        hands = [assign_ids(split_cards(h), pool) for h in p["hands"]]
        if len(hands) != PLAYERS:
            raise Unexpressible("the engine plays four hands")
        pile = assign_ids(split_cards(p.get("pile", "")), pool)
        melds: list[list[dict[str, Any]]] = [[], []]
        sides = p.get("melds", [[], []])
        if len(sides) != TEAMS:
            raise Unexpressible("two sides' melds are needed")
        for team, side in enumerate(sides):
            for meld in side:
                cards = assign_ids(split_cards(meld["cards"] if isinstance(meld, dict) else meld), pool)
                naturals = [c for c in cards if not CARDS.is_wild(c)]
                ranks = {CARDS.rank_of(c) for c in naturals}
                if len(ranks) != 1:
                    raise Unexpressible("a meld must hold natural cards of one rank")
                wilds = [c for c in cards if CARDS.is_wild(c)]
                melds[team].append({"rank": ranks.pop(), "natural_cards": naturals, "wild_cards": wilds})
        threes = [assign_ids(split_cards(r), pool) for r in p.get("red_threes", ["", "", "", ""])]
        if "stock" in p:
            stock = assign_ids(split_cards(p["stock"]), pool)
        else:
            placed = {c for ids in (hands, [pile], threes) for group in ids for c in group}
            placed |= {c for side in melds for m in side for c in m["natural_cards"] + m["wild_cards"]}
            stock = [i for i in sorted_unshuffled() if i not in placed]
        used = sum(len(h) for h in hands) + len(pile) + len(stock) + sum(len(t) for t in threes)
        used += sum(len(m["natural_cards"]) + len(m["wild_cards"]) for side in melds for m in side)
        if used != 108:
            raise Unexpressible("the position does not place every card of the deck")
        phase = p.get("phase", "draw")
        permission = p.get("permission", "none")
        to_act = int(p.get("to_act", 0))
        if phase not in ("draw", "play") or permission not in ("none", "yes", "no") or to_act not in range(4):
            raise Unexpressible("phase must be draw or play, permission none/yes/no, to_act 0-3")
        unheld = melded_unheld(p.get("melded", [False] * PLAYERS), melds)
        if unheld:
            return unheld
        top = pile[-1] if pile else None
        canastas = [sum(1 for m in side if len(m["natural_cards"]) + len(m["wild_cards"]) >= 7) for side in melds]
        self.bonus = [list(t) for t in threes]
        return {
            "hands": hands,
            "stock": stock,
            "discard_pile": pile,
            "melds": melds,
            "canastas": canastas,
            "red_threes": [threes[0] + threes[2], threes[1] + threes[3]],
            "cards_dealt": 44,
            "red_three_replacements_needed": [],
            "current_player": to_act,
            "team_scores": [int(s) for s in p.get("team_scores", [0, 0])],
            "dealing_phase": False,
            "game_phase": "playing",
            "turn_phase": "draw" if phase == "draw" else "meld",
            "pile_frozen": bool(p.get("upcard_froze", False)),
            "initial_meld_made": [bool(melds[0]), bool(melds[1])],
            "black_three_blocks_next": bool(top is not None and CARDS.is_black_three(top) and phase == "draw"),
            "go_out_approved": permission == "yes",
            "partner_asked_this_turn": permission != "none",
        }

    # -- apply ---------------------------------------------------------------------------------------------------
    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.state is None:
            return {"ok": False, "error": "no hand has been set up"}
        action = request.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return {"ok": False, "error": "action must be an object with a type"}
        saved = (self.state.clone(), [list(b) for b in self.bonus], self.end)
        try:
            if self.end is not None:
                raise Refused("the hand is over")
            seat = request.get("seat", self.state._current_player)
            if seat != self.state._current_player:
                raise Refused("it is not that seat's turn")
            self.play(action)
        except Refused as why:
            self.restore(saved)
            return {"ok": True, "accepted": False, "message": str(why)}
        except Unexpressible as why:
            self.restore(saved)
            return {"ok": False, "error": str(why)}
        self.history.append(saved)
        return {"ok": True, "accepted": True}

    def restore(self, saved: tuple[Any, list[list[int]], str | None]) -> None:
        state, bonus, end = saved
        state._target_score = -(10**9)
        self.state, self.bonus, self.end = state, bonus, end

    def legal(self) -> list[int]:
        """The engine's legal codes; asking may end the hand (the engine scores inside legal_actions)."""
        actions = list(self.state.legal_actions()) if not self.state.is_terminal() else []
        if self.state.is_terminal() and self.end is None:
            self.end = "stock exhausted"
        return actions

    def describe(self, code: int) -> str:
        return str(self.state._action_to_string(self.state._current_player, code))

    def step(self, code: int) -> None:
        if code not in self.legal():
            raise Refused(f"the engine does not list its action {code} ({self.describe(code)})")
        player = self.state._current_player
        team = player % 2
        before = list(self.state._red_threes[team])
        self.state.apply_action(code)
        for c in self.state._red_threes[team]:
            if c in before:
                before.remove(c)
            else:
                self.bonus[player].append(c)

    def play(self, action: dict[str, Any]) -> None:
        kind = action["type"]
        phase = self.state._turn_phase
        pending = self.state._go_out_query_pending
        if kind in ("yes", "no"):
            if not pending:
                raise Refused("nobody asked")
            self.step(G.ACTION_ANSWER_GO_OUT_YES if kind == "yes" else G.ACTION_ANSWER_GO_OUT_NO)
            return
        if pending:
            raise Refused("the partner must answer first")
        if kind == "draw":
            if phase != "draw":
                raise Refused("not the draw phase")
            if not self.state._stock:
                if self.legal() or self.end is None:
                    raise Refused("the engine does not end the play here")
                return
            self.step(G.ACTION_DRAW_STOCK)
        elif kind == "take":
            self.take(action)
        elif kind == "meld":
            if phase != "meld":
                raise Refused("not the play phase")
            self.melds(action.get("melds"))
        elif kind == "discard":
            self.discard(action.get("card"))
        elif kind == "ask":
            self.step(G.ACTION_ASK_PARTNER_GO_OUT)
        elif kind == "end":
            raise Refused("the engine has no action that ends the hand without a discard")
        else:
            raise Unexpressible(f"unknown action type '{kind}'")
        self.maybe_emptied()

    def maybe_emptied(self) -> None:
        """A hand emptied by melding: the engine ends the hand when its discard phase finds the hand empty."""
        state = self.state
        playing = self.end is None and not state.is_terminal() and state._turn_phase == "meld"
        if playing and not state._hands[state._current_player]:
            self.step(G.ACTION_SKIP_MELD)
            self.legal()
            if state.is_terminal():
                self.end = "went out"

    def take(self, action: dict[str, Any]) -> None:
        state = self.state
        if state._turn_phase != "draw" or not state._discard_pile:
            raise Refused("the pile cannot be taken now")
        top = state._discard_pile[-1]
        cards = split_cards(action.get("cards", []))
        self.step(G.ACTION_TAKE_PILE)
        hand = state._hands[state._current_player]
        chosen = pick_from([c for c in hand if c != top], cards)
        # The engine's meld codes give a rank and a count, not the cards: a natural of another rank named with the
        # take would be replaced by one the engine picks, so it is refused here, as the rules refuse it.
        if any(not CARDS.is_wild(c) and CARDS.rank_of(c) != CARDS.rank_of(top) for c in chosen):
            raise Refused("the cards named with the take must make a meld with the top card")
        group = [top, *chosen]
        self.lay(group, CARDS.rank_of(top), allow_new=bool(chosen))
        extra = action.get("melds", [])
        if extra:
            self.melds(extra)

    def melds(self, groups: Any) -> None:
        if not isinstance(groups, list) or not groups:
            raise Refused("a meld action needs at least one group")
        hand = self.state._hands[self.state._current_player]
        planned = []
        left = list(hand)
        for group in groups:
            if not isinstance(group, dict):
                raise Unexpressible("each meld group must be an object")
            ids = pick_from(left, split_cards(group.get("cards", [])))
            for c in ids:
                left.remove(c)
            naturals = {CARDS.rank_of(c) for c in ids if not CARDS.is_wild(c)}
            if "rank" in group and not naturals:
                kind = card_kind(str(group["rank"]) + "C")
                if kind is None:
                    raise Unexpressible(f"unknown rank {group['rank']}")
                naturals = {kind[1]}
            if len(naturals) != 1:
                raise Refused("a meld's natural cards must be of one rank")
            planned.append((ids, naturals.pop()))
        # The engine checks an opening meld by meld: the biggest first gives it its best chance.
        planned.sort(key=lambda g: -sum(CARDS.card_point_value(c) for c in g[0]))
        for ids, rank in planned:
            self.lay(ids, rank, allow_new=True)

    def lay(self, ids: list[int], rank: int, *, allow_new: bool) -> None:
        """One group as the engine's create or add code; the hand is ordered so its first-n choice is ``ids``."""
        state = self.state
        player = state._current_player
        team = player % 2
        hand = state._hands[player]
        rest = list(hand)
        for c in ids:
            rest.remove(c)
        hand[:] = ids + rest
        naturals = sum(1 for c in ids if not CARDS.is_wild(c))
        wilds = len(ids) - naturals
        index = next((i for i, m in enumerate(state._melds[team]) if m.rank == rank), None)
        if index is None:
            if not allow_new:
                raise Refused("the side has no meld of that rank")
            combo = naturals * 4 + wilds
            if wilds > 3 or combo >= 50:
                raise Refused("the engine cannot lay that meld")
            self.step(G.ACTION_CREATE_MELD_START + rank * 50 + combo)
            return
        if naturals and wilds:
            combo = 20 + naturals * 4 + wilds
        elif naturals:
            combo = naturals
        else:
            combo = 10 + wilds
        if wilds > 3 or combo >= 50 or (naturals >= 10 and not wilds):
            raise Unexpressible("the engine's action codes cannot add that many cards at once")
        self.step(G.ACTION_ADD_TO_MELD_START + index * 50 + combo)

    def discard(self, card: Any) -> None:
        state = self.state
        if not isinstance(card, str):
            raise Unexpressible("discard needs a card")
        if state._turn_phase != "meld":
            raise Refused("not the play phase")
        player = state._current_player
        (chosen,) = pick_from(state._hands[player], [card])
        self.step(G.ACTION_SKIP_MELD)
        if len(state._hands[player]) == 1 and G.ACTION_GO_OUT in self.legal():
            self.step(G.ACTION_GO_OUT)
            self.end = "went out"
            return
        self.step(G.ACTION_DISCARD_START + chosen)

    # -- what players see ------------------------------------------------------------------------------------------
    def phase(self) -> str:
        state = self.state
        if self.end is not None or state.is_terminal():
            return "over"
        if state._go_out_query_pending:
            return "answer"
        return "draw" if state._turn_phase == "draw" else "play"

    def frozen_for(self, seat: int) -> bool:
        state = self.state
        saved = state._current_player
        state._current_player = seat
        try:
            return bool(state._is_pile_frozen())
        finally:
            state._current_player = saved

    def team_scores(self) -> list[int]:
        return list(self.base_scores)

    def view(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.state is None:
            return {"ok": False, "error": "no hand has been set up"}
        seat = request.get("seat")
        if not isinstance(seat, int) or seat not in range(PLAYERS):
            return {"ok": False, "error": "seat must be 0-3"}
        state = self.state
        permission = "none"
        if state._go_out_approved:
            permission = "yes"
        elif state._partner_asked_this_turn and not state._go_out_query_pending:
            permission = "no"
        view = {
            "seat": seat,
            "to_act": state._current_player,
            "phase": self.phase(),
            "hand": [card_text(c) for c in state._hands[seat]],
            "hand_sizes": [len(h) for h in state._hands],
            "stock_size": len(state._stock),
            "pile": [card_text(c) for c in state._discard_pile],
            "pile_frozen": self.frozen_for(seat),
            "melds": [
                [
                    {"cards": [card_text(c) for c in m.natural_cards + m.wild_cards], "canasta": is_canasta(m)}
                    for m in state._melds[team]
                ]
                for team in range(TEAMS)
            ],
            "canastas": [sum(1 for m in state._melds[t] if is_canasta(m)) for t in range(TEAMS)],
            "bonus_cards": [[card_text(c) for c in b] for b in self.bonus],
            "team_scores": self.team_scores(),
            "permission": permission,
            "end": self.end,
        }
        return {"ok": True, "view": view}

    def score(self) -> dict[str, Any]:
        if self.state is None:
            return {"ok": False, "error": "no hand has been set up"}
        state = self.state
        over = self.end is not None
        if over:
            totals = list(state._hand_scores)
        else:
            totals = []
            for t in range(TEAMS):
                melded = [c for m in state._melds[t] for c in m.natural_cards + m.wild_cards]
                held = state._hands[t] + state._hands[t + 2]
                totals.append(
                    SCORING.calculate_hand_score(melded, state._melds[t], len(state._red_threes[t]), held, False, False)
                )
        match_over = over and any(b + s >= self.target for b, s in zip(self.base_scores, totals, strict=True))
        return {
            "ok": True,
            "over": over,
            "end": self.end,
            "totals": totals,
            "parts": [{}, {}],
            "match_over": match_over,
        }

    def undo(self) -> dict[str, Any]:
        if not self.history:
            return {"ok": False, "error": "nothing to undo"}
        self.restore(self.history.pop())
        return {"ok": True}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        cmd = request.get("cmd")
        if cmd == "hello":
            return self.hello(request)
        if cmd == "setup":
            return self.setup(request)
        if cmd == "apply":
            return self.apply(request)
        if cmd == "view":
            return self.view(request)
        if cmd == "score":
            return self.score()
        if cmd == "undo":
            return self.undo()
        if cmd == "legal":
            return {"ok": False, "error": "the engine's listing is of its own sampled codes; legal is not offered"}
        if cmd == "quit":
            return {"ok": True}
        return {"ok": False, "error": f"unknown command {cmd!r}"}


def is_canasta(meld: Any) -> bool:
    return bool(G.is_canasta(meld))


def melded_unheld(melded: Any, melds: list[list[dict[str, Any]]]) -> str:
    """Why the engine cannot hold a position's ``melded`` flags, or "" when it can.

    The engine keeps no per-player "has melded": its rules ask only whether the side has melds (its opening,
    `_initial_meld_made`, and going out concealed, `_is_concealed_go_out`). So its state holds every flag that
    play can give: a player who has not melded, whose partner has, is in the engine a player of a side with melds,
    and what the engine then answers (no concealed going out) is its rule, which a run should compare. Only a
    player who has melded in a side with no meld, which no play gives, cannot be set up.
    """
    if not isinstance(melded, list) or len(melded) != PLAYERS or not all(isinstance(f, bool) for f in melded):
        raise Unexpressible("melded must be four true/false flags, one a seat")
    if any(flag and not melds[seat % TEAMS] for seat, flag in enumerate(melded)):
        return "a player who has melded in a side with no meld is no state of the engine (its melds are by side)"
    return ""


def sorted_unshuffled() -> list[int]:
    """Engine ids in the protocol's unshuffled order: pack by pack, 2C 2D 2H 2S 3C ... AS, then the jokers."""
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    ids = []
    for pack in range(2):
        for rank in order:
            for suit in range(4):
                ids.append(pack * 52 + suit * 13 + RANK_TEXTS.index(rank))
        ids.extend([104 + 2 * pack, 105 + 2 * pack])
    return ids


def main() -> int:
    adapter = Adapter()
    try:
        load_engine()
    except Exception as error:
        load_error: str | None = f"the engine could not be loaded from {ENGINE_DIR or 'COS_ENGINE'}: {error}"
    else:
        load_error = None
    for line in sys.stdin:
        if not line.strip():
            continue  # a blank line is no request (as canasta-ref serve reads it)
        try:
            request = json.loads(line)
        except ValueError:
            reply: dict[str, Any] = {"ok": False, "error": "the request is not JSON"}
            print(json.dumps(reply), flush=True)
            continue
        if not isinstance(request, dict):
            print(json.dumps({"ok": False, "error": "the request is not an object"}), flush=True)
            continue
        if load_error and request.get("cmd") not in ("quit",):
            reply = {"ok": False, "error": load_error}
        else:
            try:
                reply = adapter.handle(request)
            except Exception as error:
                reply = {"ok": False, "error": f"adapter error: {type(error).__name__}: {error}"}
        if "id" in request:
            reply["id"] = request["id"]
        print(json.dumps(reply), flush=True)
        if request.get("cmd") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
