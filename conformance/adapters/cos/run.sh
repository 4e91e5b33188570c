#!/bin/sh
# Starts the cos adapter: COS_ENGINE names a checkout of jhtschultz/canasta-openspiel, and adapter.py runs on a
# Python that has open_spiel (COS_PYTHON names it, else `python3` on PATH). start.sh says what is missing.
exec "$(dirname "$0")/../start.sh" cos COS_ENGINE jhtschultz/canasta-openspiel a6ba187 canasta/canasta_game.py \
    COS_PYTHON python3 "set COS_PYTHON to a Python 3.11 that has open_spiel" adapter.py
