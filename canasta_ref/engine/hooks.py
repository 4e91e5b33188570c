"""The points where the engine consults the spec, and the names each one offers to rule expressions.

The turn structure is Python; every decision that varies between variants is a rule clause attached to one of
these hooks. A hook's kind fixes how its clauses combine:

- ``require``: every clause must hold; the first that fails refuses the action and is cited by id.
- ``predicate``: the engine asks a yes/no question; the answer is yes if any clause says yes.
- ``value``: the clauses are numbers that add up (a score is the sum of its components).

The spec loader compiles each clause against its hook's variables, so a misspelt name is caught at load time
with the file, line and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

HookKind = Literal["require", "predicate", "value"]
VarType = Literal["int", "bool", "str"]

_CARD: Final[dict[str, VarType]] = {
    "rank": "str",
    "is_wild": "bool",
    "is_joker": "bool",
    "is_red_three": "bool",
    "is_black_three": "bool",
}

#: What hooks about one meld read of it: ``rank`` as ``meld.valid`` names it ("JK" for wild cards alone, "" for a
#: sequence), its kind, and its cards by sort. ``twos`` are its wild cards other than jokers.
_MELD: Final[dict[str, VarType]] = {
    "rank": "str",
    "kind": "str",
    "size": "int",
    "naturals": "int",
    "wilds": "int",
    "twos": "int",
    "jokers": "int",
}

_TABLE: Final[dict[str, VarType]] = {
    "seat": "int",
    "team_has_melded": "bool",
    "team_canastas": "int",
    "stock_size": "int",
    "pile_size": "int",
    "hand_size": "int",
}


#: The table-wide variables many hooks share, in a fixed order (cache keys are built in it).
TABLE_VARIABLES: Final = tuple(_TABLE)
#: The variables of hooks about one card, in a fixed order.
CARD_VARIABLES: Final = tuple(_CARD)
#: The variables of hooks about one meld's cards, in a fixed order (``checks.meld_values_of``).
MELD_VARIABLES: Final = tuple(_MELD)
#: The variables of ``initial_meld.valid`` that ask what an opening's melds are made of (``checks.composition_of``).
COMPOSITION_VARIABLES: Final = ("clean_meld", "wild_meld", "three_naturals_meld")
#: The variables of ``special_hand.shape``: what a whole hand is made of (``special.shape_values``).
SHAPE_VARIABLES: Final = (
    "hand_size",
    "ranks",
    "shape",
    "natural_shape",
    "wild_shape",
    "twos",
    "jokers",
    "threes",
    "sevens",
    "aces",
)
#: The variables, by hook, that ask what the sides' canastas make of a rank (``checks.RankFacts``).
RANK_FACT_VARIABLES: Final[dict[str, tuple[str, ...]]] = {
    "meld.valid": ("other_canasta_of_rank", "other_natural_canasta_of_rank", "team_wild_meld_open"),
    "discard.allowed": ("canasta_of_rank",),
    "discard.preferred": ("canasta_of_rank",),
}


def special_hand_name(clause_id: str) -> str:
    """The name a special hand is declared by (``declare wild_pairs``): the last part of the id of its
    ``special_hand.shape`` clause, in lower case."""
    return clause_id.rsplit(".", 1)[-1].lower()


@dataclass(frozen=True)
class Hook:
    """One decision point of the engine."""

    name: str
    kind: HookKind
    doc: str
    variables: dict[str, VarType] = field(default_factory=dict)


def _hook(name: str, kind: HookKind, doc: str, /, *groups: dict[str, VarType], **extra: VarType) -> Hook:
    variables: dict[str, VarType] = {}
    for group in groups:
        variables.update(group)
    variables.update(extra)
    return Hook(name, kind, doc, variables)


HOOKS: Final[dict[str, Hook]] = {
    hook.name: hook
    for hook in (
        # The cards and the deal.
        _hook("deck.packs", "value", "How many 52-card packs make the deck."),
        _hook("deck.jokers", "value", "How many jokers each pack adds."),
        _hook("deal.hand_size", "value", "How many cards each player is dealt."),
        _hook(
            "deal.foot_size",
            "value",
            "How many cards each player is dealt face down as a foot, picked up when the hand is played out (no "
            "clause: no foot). A player goes out only once the foot is picked up and played out too.",
        ),
        _hook(
            "deal.no_upcard",
            "predicate",
            "Whether no card is turned up after the deal, so that the pile starts empty and the first player simply "
            "draws (no clause: an upcard is turned, and upcard.* decide what follows).",
        ),
        _hook(
            "bonus_card.keep",
            "predicate",
            "Whether a player who has just received bonus cards in play (those dealt, at the first turn; one drawn, "
            "or drawn to replace another) may keep one of them in hand instead of laying it out (``team_has_melded``: "
            "the player's side has melded). Play then waits for the player's choice, in phase ``keep``: ``keep`` a "
            "card, laying out the others, or ``layout`` them all. A player keeps one at most: a card kept before is "
            "one of those to choose from. Once no clause allows keeping, a kept card is laid out with the next ones "
            "received, or at the player's next draw.",
            team_has_melded="bool",
        ),
        _hook(
            "stock.turn_card_depth",
            "value",
            "How many cards lie below the turn card, the card of the stock that marks the end of the bonus draws "
            "(hook bonus_draw.count): once it is drawn, no initial meld earns bonus cards, and no more are earned "
            "than the cards lying above it. It is counted in the stock as it stands after the deal (an upcard "
            "buried at the bottom lies below it too). The player who draws it announces it to everyone (an event; "
            "views say ``turn_card_drawn``). No clause, or 0: no turn card, and bonus draws may take the stock "
            "down to its last card.",
        ),
        _hook(
            "card.value",
            "value",
            "The point value of a card: melded (``melded``), or left in hand at the end (not ``melded``; "
            "``anyone_went_out``: the hand ended by a player going out).",
            _CARD,
            melded="bool",
            anyone_went_out="bool",
        ),
        _hook("card.wild", "predicate", "Whether a card is wild.", rank="str"),
        _hook("upcard.turn_again", "predicate", "Whether the upcard is covered by another turned card.", _CARD),
        _hook("upcard.freezes", "predicate", "Whether a turned upcard freezes the pile.", _CARD),
        _hook(
            "upcard.buried",
            "predicate",
            "Whether a turned upcard is buried: put back at the bottom of the stock, and another card turned in its "
            "place (asked before upcard.turn_again).",
            _CARD,
        ),
        # Threes.
        _hook(
            "bonus_card",
            "predicate",
            "Whether a card is laid out at once as a bonus card (red threes).",
            _CARD,
        ),
        _hook(
            "bonus_card.at_first_turn",
            "predicate",
            "Whether bonus cards dealt to a player wait in the hand until that player's first turn, rather than "
            "being laid out at the deal.",
        ),
        _hook(
            "bonus_card.replace",
            "predicate",
            "Whether a laid-out bonus card is replaced from the stock.",
            from_pile="bool",
            stock_size="int",
        ),
        _hook(
            "stock.last_card_bonus_ends",
            "predicate",
            "Whether drawing a bonus card as the last stock card ends play at once.",
            stock_size="int",
        ),
        _hook(
            "stock.last_card_bonus_kept",
            "predicate",
            "Whether a bonus card drawn as the last card of the stock stays in the hand, play ending at once, rather "
            "than being laid out (the cards of that draw all stay in the hand; what a bonus card held at the end "
            "counts is card.value's matter, with ``melded`` false). Asked before stock.last_card_bonus_ends.",
        ),
        # Bonus cards for the initial meld.
        _hook(
            "bonus_draw.count",
            "value",
            "How many bonus cards the player who makes their side's initial meld draws (no clause: none). They are "
            "drawn from the stock at the start of that player's next turn, before the turn's draw or take, or at "
            "once if the player melds their hand away (as Hand and Foot's foot is picked up), and until then they "
            "count among the cards the player still has to play: emptying the hand after the initial meld is not "
            "going out. The count is fixed when the meld is made, at no more than the cards then lying above the "
            "turn card (hook stock.turn_card_depth); the cards earned are drawn even if the turn card is drawn "
            "meanwhile, since the condition is on the meld (pagat; this project's reading). Under "
            "bonus_draw.from_talons the counts are the talons' sizes instead. ``first_side_to_meld``: no other "
            "side has made its initial meld; ``sides_melded_before``: how many have; ``taking_pile``: the initial "
            "meld is made by taking the pile (asked of bonus cards from the stock: talons are sized at the deal, "
            "with it false).",
            first_side_to_meld="bool",
            sides_melded_before="int",
            taking_pile="bool",
        ),
        _hook(
            "bonus_draw.from_talons",
            "predicate",
            "Whether the bonus cards of the initial meld (hook bonus_draw.count) come from talons: packets dealt "
            "face down after the hands (and feet), one per side, sized by bonus_draw.count for the first, second, "
            "... side to meld. The player who makes a side's initial meld claims the next talon and takes it into "
            "the hand at the start of their next turn, as a bonus draw would be drawn; views show the talons' sizes "
            "(no clause: bonus cards are drawn from the stock).",
        ),
        # The turn.
        _hook(
            "action.allowed",
            "require",
            "Who may act, and which kinds of action fit the phase of the turn (``cards_in_hand``: the cards the "
            "action lays are in the player's hand, and the melds it names are the side's).",
            kind="str",
            phase="str",
            seat="int",
            seat_to_act="int",
            cards_in_hand="bool",
            last_card_bonus="bool",
        ),
        _hook(
            "turn.pass",
            "require",
            "Whether the player may end the turn without discarding, keeping their cards (Hoyle's \"pass the "
            'discard"); asked only where action.allowed does not refuse the kind pass outright.',
            _TABLE,
            phase="str",
            may_go_out="bool",
            last_card_bonus="bool",
        ),
        _hook("draw.count", "value", "How many cards a draw from the stock takes."),
        _hook(
            "draw.allowed",
            "require",
            "Whether the player may draw from the stock now.",
            _TABLE,
            phase="str",
            must_take_pile="bool",
        ),
        # The discard pile.
        _hook(
            "pile.frozen",
            "predicate",
            "Whether the pile is frozen against the player's side.",
            _TABLE,
            pile_has_wild="bool",
            pile_has_red_three="bool",
            pile_has_black_three="bool",
            upcard_froze="bool",
        ),
        _hook(
            "pile.take",
            "require",
            "Whether the player may take the pile with the cards offered.",
            _TABLE,
            phase="str",
            frozen="bool",
            top_rank="str",
            top_is_wild="bool",
            top_is_black_three="bool",
            top_is_red_three="bool",
            take_cards="int",
            take_naturals="int",
            take_wilds="int",
            team_has_meld_of_rank="bool",
            team_meld_is_canasta="bool",
            take_target="bool",
            target_kind="str",
            target_is_canasta="bool",
            take_sequence="bool",
            extra_melds="int",
            extra_of_top_rank="int",
            extra_repeated_ranks="int",
            may_go_out="bool",
        ),
        _hook(
            "stock_empty.must_take",
            "predicate",
            "Once the stock is empty, whether the player must take the top discard.",
            _TABLE,
            frozen="bool",
            top_matches_team_meld="bool",
        ),
        _hook(
            "pile.take_top_only",
            "predicate",
            "Whether a take moves only the pile's top card, the rest staying as the pile (no clause: the whole pile).",
            _TABLE,
            frozen="bool",
            top_matches_team_meld="bool",
        ),
        # Melds.
        _hook(
            "meld.valid",
            "require",
            "Whether a meld (new, or an existing one after cards are added) is allowed. "
            "``other_canasta_of_rank``: another side has completed a canasta of the meld's rank "
            "(``other_natural_canasta_of_rank``: a natural one), which some rules make a dead rank; "
            "``team_wild_meld_open``: the side has a meld of wild cards still short of a canasta; "
            "``take_onto_meld``: a take of the pile lays its top card, with the cards from hand that meld it, on "
            "this meld the side already had.",
            _TABLE,
            rank="str",
            size="int",
            naturals="int",
            wilds="int",
            jokers="int",
            natural_ranks="int",
            kind="str",
            suits="int",
            consecutive="bool",
            lowest="str",
            is_new="bool",
            added="int",
            added_wilds="int",
            was_canasta="bool",
            going_out="bool",
            initial="bool",
            other_canasta_of_rank="bool",
            other_natural_canasta_of_rank="bool",
            team_wild_meld_open="bool",
            take_onto_meld="bool",
        ),
        _hook(
            "meld.merge_same_rank",
            "predicate",
            "Whether a new meld of a rank the side already has is merged into it (no clause: it starts a meld of "
            "its own, and cards join an existing meld only by naming it, as in 'meld @2: KH').",
            rank="str",
        ),
        _hook(
            "meld.take_apart",
            "predicate",
            "Whether a take of the pile whose cards would join the side's meld of the top card's rank (hook "
            "meld.merge_same_rank) starts a second meld of that rank instead: ``onto_canasta``, whether that meld "
            "is a canasta, ``onto_wilds``, its wild cards, ``added_wilds``, the take's (no clause: they join it).",
            rank="str",
            onto_canasta="bool",
            onto_wilds="int",
            added_wilds="int",
        ),
        _hook(
            "meld.sequence",
            "predicate",
            'Whether a group of natural cards of several ranks is a sequence meld (kind "sequence", judged by '
            "meld.valid) rather than a group of one rank (no clause: never, and meld.valid sees a group).",
        ),
        _hook(
            "meld.combine",
            "require",
            "Whether two of the side's melds may be combined, the second's cards joining the first (meld.valid is "
            "asked of the combined meld too).",
            _TABLE,
            first_kind="str",
            second_kind="str",
            same_rank="bool",
            first_is_canasta="bool",
            second_is_canasta="bool",
        ),
        _hook(
            "meld.action",
            "require",
            "Whether a meld action of this shape is allowed.",
            _TABLE,
            phase="str",
            groups="int",
            repeated_ranks="int",
            initial="bool",
        ),
        _hook(
            "meld.closed",
            "predicate",
            "Whether a meld is closed: set aside, so that no card may join it and cards of its rank start a new "
            "meld (no clause: melds stay open).",
            rank="str",
            size="int",
            naturals="int",
            wilds="int",
        ),
        _hook(
            "meld.must_complete",
            "predicate",
            "Whether a meld must be made a canasta before its side may go out (sevens, pure aces, wild cards alone "
            "in Modern American): go_out.allowed's ``incomplete_required_melds_after`` counts the side's melds this "
            "marks that are not canastas. ``kind`` is meld.valid's (group, wild, sequence). No clause: none.",
            _MELD,
        ),
        _hook(
            "canasta.size",
            "value",
            "How many cards make a meld a canasta (a sequence's rank is empty).",
            rank="str",
            kind="str",
        ),
        # The initial meld.
        _hook(
            "initial_meld.minimum",
            "value",
            "The count the first melds of a side must reach.",
            team_score="int",
            player_score="int",
            hand_number="int",
        ),
        _hook(
            "initial_meld.count",
            "value",
            "What counts towards the minimum.",
            hand_points="int",
            top_card_points="int",
            natural_canastas="int",
            mixed_canastas="int",
            wild_canastas="int",
            sequence_canastas="int",
        ),
        _hook(
            "initial_meld.valid",
            "require",
            "Whether the first melds of a side are enough. What they are made of, for rules that ask for a kind "
            "of meld among them: ``clean_meld``, a meld of three or more natural cards and no wild card; "
            "``wild_meld``, a meld of wild cards alone; ``three_naturals_meld``, a meld with three or more natural "
            "cards (the pile's top card in its meld, as laid, unless hook initial_meld.composition_from_hand sets it "
            "aside); and the canastas they lay, by kind (the pile's top card is in its meld, as laid).",
            count="int",
            minimum="int",
            going_out_concealed="bool",
            going_out_concealed_by_discard="bool",
            taking_pile="bool",
            clean_meld="bool",
            wild_meld="bool",
            three_naturals_meld="bool",
            natural_canastas="int",
            mixed_canastas="int",
            wild_canastas="int",
        ),
        _hook(
            "initial_meld.composition_from_hand",
            "predicate",
            "Whether what initial_meld.valid's ``clean_meld``, ``wild_meld`` and ``three_naturals_meld`` ask of an "
            "initial meld that takes the pile is judged on the cards from hand alone, the pile's top card set aside "
            "(the opening qualifies wholly from hand before the top card is added); no clause: the top card's meld "
            "is judged as laid, with the top card in it.",
        ),
        # Going out.
        _hook(
            "go_out.allowed",
            "require",
            "Whether the player may go out now; the ``_after`` counts are of the side's melds once the action "
            "judged is made (``incomplete_required_melds_after``: melds that hook meld.must_complete marks and that "
            "are not canastas).",
            _TABLE,
            permission="str",
            canastas_after="int",
            natural_canastas_after="int",
            mixed_canastas_after="int",
            wild_canastas_after="int",
            sequence_canastas_after="int",
            incomplete_required_melds_after="int",
        ),
        _hook(
            "go_out.keep_card",
            "require",
            "How many cards a player who may not go out must keep.",
            hand_after="int",
            discard_pending="bool",
            may_go_out="bool",
        ),
        _hook(
            "go_out.ask",
            "require",
            "Whether the player may ask partner for permission to go out now (``asked_this_hand``: this player "
            "has asked before in this hand).",
            _TABLE,
            phase="str",
            melded_this_turn="bool",
            asked_this_turn="bool",
            asked_this_hand="bool",
            has_partner="bool",
        ),
        # Special hands.
        _hook(
            "special_hand.allowed",
            "require",
            "Whether the player may declare a special hand now (action ``declare``): ``hand`` is the name the "
            "declaration gives, ``known`` whether the variant has a special hand of that name (hook "
            "special_hand.shape).",
            _TABLE,
            phase="str",
            hand="str",
            known="bool",
        ),
        _hook(
            "special_hand.shape",
            "predicate",
            "What one special hand is made of: one clause a hand, named by the last part of its id in lower case "
            "(a clause SPECIAL.WILD_PAIRS is declared as ``declare wild_pairs``). A declaration is judged by the "
            "clause of the hand it names alone, on the player's whole hand: ``ranks``, the ranks held (threes, twos "
            "and jokers each a rank of their own); ``shape``, the sizes of the groups of each rank held, largest "
            'first, joined by "-" ("4-3-3-2-2"); ``natural_shape``, the same of the natural ranks (four to ace); '
            '``wild_shape``, of the twos and of the jokers ("2" for a pair of twos or of jokers, "" for none).',
            hand_size="int",
            ranks="int",
            shape="str",
            natural_shape="str",
            wild_shape="str",
            twos="int",
            jokers="int",
            threes="int",
            sevens="int",
            aces="int",
        ),
        _hook(
            "special_hand.score",
            "value",
            "What a special hand scores its side (``hand``: its name). The side that declared it scores this "
            "instead of its score for the hand (every score.* component); the other sides score as usual.",
            hand="str",
        ),
        _hook(
            "special_hand.wins_match",
            "predicate",
            "Whether the special hand that ended the hand (``hand``: its name) wins the match outright for the side "
            "that declared it (match.over's ``won_outright``); no clause: it scores like any other hand.",
            hand="str",
        ),
        _hook(
            "go_out.answerer",
            "value",
            'Which seat a player\'s "may I go out?" is put to (modulo the number of players): it must be a partner. '
            "A variant without a clause here asks the next seat in turn order on the same side.",
            seat="int",
        ),
        _hook(
            "go_out.answer_binding",
            "require",
            "What a partner's answer obliges the asking player to do.",
            permission="str",
            hand_after="int",
            can_still_meld="bool",
        ),
        _hook(
            "go_out.concealed",
            "predicate",
            "Whether a player who goes out has gone out concealed.",
            melded_before="bool",
            added_to_partner="bool",
            made_canasta="bool",
            took_pile="bool",
        ),
        # Discarding.
        _hook(
            "discard.allowed",
            "require",
            "Whether this card may be discarded (``canasta_of_rank``: some side, the player's own included, has "
            "completed a canasta of the card's rank).",
            _CARD,
            _TABLE,
            hand_after="int",
            canasta_of_rank="bool",
        ),
        _hook(
            "discard.preferred",
            "require",
            "Which discards come before others, strongest clause first: a card these clauses refuse may still be "
            "discarded, but only when every card the player holds that discard.allowed lets go is refused here "
            'too, by the same clause or an earlier one (rules that say "unless you have no legal alternative"; '
            "a card no clause refuses stands best). No clause: every card discard.allowed lets go.",
            _CARD,
            _TABLE,
            hand_after="int",
            canasta_of_rank="bool",
        ),
        # Scoring, per side.
        _hook(
            "score.hand",
            "value",
            "A component of a side's score for the hand. ``red_threes`` counts every bonus card the side laid out, "
            "``red_bonus_cards`` and ``black_bonus_cards`` those of each colour (threes scored by colour).",
            melded_points="int",
            hand_points="int",
            foot_points="int",
            natural_canastas="int",
            mixed_canastas="int",
            wild_canastas="int",
            sequence_canastas="int",
            canastas="int",
            red_threes="int",
            team_has_melded="bool",
            went_out="bool",
            other_went_out="bool",
            concealed="bool",
            anyone_went_out="bool",
            out_melded_before="bool",
            out_added_to_partner="bool",
            black_threes_melded="int",
            most_black_threes_held="int",
            bonus_cards_held="int",
            penalties="int",
            red_bonus_cards="int",
            black_bonus_cards="int",
        ),
        _hook(
            "score.meld",
            "value",
            "A component of a side's score for the hand, asked of each of the side's melds and summed over them "
            "under the clause's id (a sevens canasta, an incomplete wild meld). ``kind`` is meld.valid's (group, "
            "wild, sequence); ``team_canastas``: the side's canastas; ``went_out``: the side went out.",
            _MELD,
            is_canasta="bool",
            team_canastas="int",
            went_out="bool",
        ),
        _hook(
            "score.held",
            "value",
            "A component of a side's score for the hand, asked for each of its players and each rank of which "
            "the player is left holding cards (``count`` of them; ``rank`` as card.value names it, a foot not "
            "included), and summed under the clause's id. ``went_out``: the side went out; ``anyone_went_out``: "
            "the hand ended by a player going out.",
            rank="str",
            count="int",
            went_out="bool",
            anyone_went_out="bool",
        ),
        # Penalties of play.
        _hook(
            "penalty.turn_end",
            "value",
            "Points a player's side is penalised when the player ends a turn by discarding without going out.",
            asked_this_turn="bool",
            permission="str",
            took_pile_this_turn="bool",
        ),
        # Scoring, per player: added to the hand total of each seat's own score (after its side's total).
        _hook(
            "score.player",
            "value",
            "A component of one player's own score for the hand, added to the side's total for that player.",
            red_threes="int",
            team_has_melded="bool",
            canastas="int",
            went_out="bool",
        ),
        # Sides that form during the hand.
        _hook(
            "sides.lone_hand",
            "predicate",
            "Whether the acting player now becomes the lone hand, every other player joining one side against them.",
            trigger="str",
            sides_formed="bool",
        ),
        # The end of the stock.
        _hook(
            "stock.ends_with_discard",
            "predicate",
            "Whether a discard made when the stock is empty ends the play.",
            stock_size="int",
        ),
        # The match.
        _hook(
            "match.over",
            "predicate",
            "Whether the match ends after this hand. ``won_outright``: the hand ended with a special hand that wins "
            "the match for the side that declared it (hook special_hand.wins_match), which is then the winner "
            "whatever the totals.",
            highest_score="int",
            hands_played="int",
            leaders="int",
            won_outright="bool",
        ),
    )
}
