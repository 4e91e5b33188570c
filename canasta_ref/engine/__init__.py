"""The engine: the state of a hand and the rules asked about it, one concept a module.

Layered from the bottom up, each module importing only those before it:

- ``cards``: card codes, names and the deck; ``actions``: the actions and their notation;
- ``state``: a hand in progress; ``position``: a position written out card by card;
- ``hooks``: the questions the engine asks a spec and the facts it offers; ``rules``: a variant's answers, cached;
- ``checks``: one rule at a time, the verdict on a meld or a take and the facts it needs;
- ``movegen``: candidate melds and takes by shape; ``legal``: the listing of legal actions;
- ``judge``: the verdict on any action (a discard bound by partner's answer asks the listing);
- ``sides``: who plays with whom as the hand goes; ``scoring``: a hand's score;
- ``game``: dealing, applying and undoing actions, the views each seat may see.

``_native`` decides, before any of them is imported, whether their mypyc-compiled build is used.
"""

from ._native import COMPILED

__all__ = ["COMPILED"]
