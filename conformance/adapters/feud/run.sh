#!/bin/sh
# Starts the feud adapter: FEUD_ENGINE names a checkout of feudalism-dev/Canasta, and tsx 4 runs adapter.ts
# (TSX names it, else `tsx` on PATH). start.sh says what is missing.
exec "$(dirname "$0")/../start.sh" feud FEUD_ENGINE feudalism-dev/Canasta 8aa7f0a src/core/rules.ts TSX tsx \
    "install tsx 4 (npm install --global tsx@4) or set TSX to its path" adapter.ts
