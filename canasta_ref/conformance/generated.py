"""Generated games: random hands played on an engine and on the reference at once, step by step, compared.

``run_generated_games(engine, games, seed, variants=...)`` plays games 1 to ``games`` of the campaign of ``seed``
(``games_range=(first, last)``: only those). A game is named by the campaign's seed and its number: its every
choice comes from a generator seeded by those two numbers alone (``choices``), so its deal, its moves and (against
a deterministic engine) its result are the same whichever run, shard or worker plays it, alone or among others.
Each game picks a variant both sides play, a deck order (from a seed), the first seat and the scores before the
hand; then, step by step, the reference (an in-process ``canasta_ref.Game``) lists its legal actions and the game
picks a move: a legal action (sometimes first sent for a seat that is not to act, which must be refused), or, 15
times in a hundred, a move meant to be refused (a candidate the rules refuse, a card not held, the wrong seat, an
action out of its phase, a meld made up from the hand). The move goes to the engine (``apply``) and to the
reference; they must agree on accepted or refused, and on the rule cited when the engine has the ``rule_ids``
capability.

The deal is checked in full before any move (as the checked steps below are). A game then plays a run of
``prefix`` steps (drawn from 0 to ``max_prefix``) where only the verdicts are compared, so that play reaches the
middle and the end of hands cheaply (with the defaults about half the games reach the end of the hand); the next
``checked_steps`` steps are checked in full: after each, every seat's ``view`` (normalised as the runner does),
the ``score`` (totals, over, end) and the legal actions (as sets of canonical actions, when the engine lists
them; their number when it counts them). A game that ends during its prefix is checked in full at the end.

Generic properties, checked on the engine in every game:

* cards are conserved: in every view, the seat's own hand has the size its ``hand_sizes`` says, and hands, stock,
  pile, melds and bonus cards add up to the whole deck;
* a view has the protocol's fields only (conformance/PROTOCOL.md, ``view``): an extra field could hold hidden cards;
* only the seat to act may act: a legal action sent for another seat first is refused (``TURN.ORDER``);
* the hand ends: the engine's score says ``over`` exactly when the reference's does, and once it is over a further
  ``draw`` is refused (the reference ends every hand within ``hand_bound(rules)`` actions, 868 with two packs and
  four jokers; our games are shorter);
* the same deck and actions give the same transcript: the game is replayed on the engine (set up again, every move
  sent again) and the verdicts and final views must be the same;
* a seat's view does not depend on cards hidden from it: with ``setup_position``, the final position is written
  out with the other hands' cards and the stock dealt anew among them, and that seat's view must not change.

A run goes on past a disagreement, so that one missing feature does not hide the others. Each disagreement has a
key (``deviations.DeviationKey``: the check that failed, the rule behind it when one is known, the kind of action);
the run logs it under its key, and then, if the engine can be set up at a written-out position, sets engine and
reference alike to the reference's position and plays on; otherwise (or where no position can say where the
reference is: a partner asked to answer) it sets the engine up again where the game started and replays the
reference's actions, and plays on if the engine takes them all (else that game ends and the next one starts).
After the games, each distinct deviation is shrunk (``shrinking``): the game where its key was first seen is
played again alone, from its own choices, and made smaller, a smaller game counting only if it shows a deviation
of the same key (within ``shrink_seconds`` and ``max_shrink_runs`` a key, for at most ``max_shrunk`` keys). The
shrunk game becomes a scenario in the format of ``conformance/scenario.schema.json``: the deck order (or the
written-out position it was re-synchronised at), every move with the *reference's* verdict as the expectation,
and at the step where they disagreed the reference's view, score or legal actions. ``GeneratedReport.report_lines``
prints each, ready to save as ``conformance/scenarios/<id>.yaml``. Known deviations (``masks``, from a known-failures
file) are reported as known failures and not shrunk; a mask no game needed is reported as stale. An engine that
crashes, hangs or answers garbage is reported as errored or timed out for that game, restarted, and the run goes
on (it stops after five such games in a row).

The modules: ``generated_game`` (one game, its checks), ``choices`` (a game's choices), ``campaign`` (games of a
campaign on one engine), ``campaign_report`` (the report, and the merging of the reports of a campaign's parts),
``shrinking`` and ``workers`` (a campaign spread over processes or a Dask cluster).

What an engine declares in protocol 2 is respected: actions of a feature it lacks are neither sent nor expected,
the parameters it fixes are set on the reference too, and an action the reference refuses only by its own
notation (a clause whose every source is the project's convention) is neither sent as a move meant to be refused
nor held against an engine that lists it. An engine speaking a version older than 6 plays no variant whose melds
must be named (``Rules.names_melds``: sequences, or several melds of one rank), which its actions cannot do: the
run leaves those variants out, saying so; nor is it sent a move meant to be refused that names a meld.

Requests to a subprocess engine are pipelined: a step's requests are written at once and the reference computes
its side while the engine answers. The ``rules`` a generated scenario cites are a best guess (the reference's
refusal, the score parts that differ, the rules by which the reference refuses what the engine lists), to be
checked when the scenario is saved.
"""

from .campaign import MAX_FAILED_IN_A_ROW, CampaignOptions, run_generated_games
from .campaign_report import GeneratedReport, GeneratedScenario, merge_reports
from .failures import Failure, scenario_yaml
from .generated_game import LEGAL_LIMIT, PIPELINE_DEPTH, Disagreement, speaks_position
from .setup import position_json

__all__ = [
    "LEGAL_LIMIT",
    "MAX_FAILED_IN_A_ROW",
    "PIPELINE_DEPTH",
    "CampaignOptions",
    "Disagreement",
    "Failure",
    "GeneratedReport",
    "GeneratedScenario",
    "merge_reports",
    "position_json",
    "run_generated_games",
    "scenario_yaml",
    "speaks_position",
]
