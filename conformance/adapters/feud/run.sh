#!/bin/sh
# Runs the adapter with tsx (TSX, default /work/engines/node_modules/.bin/tsx); the engine's code from FEUD_ENGINE.
exec "${TSX:-/work/engines/node_modules/.bin/tsx}" "$(dirname "$0")/adapter.ts"
