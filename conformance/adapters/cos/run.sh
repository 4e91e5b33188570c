#!/bin/sh
# Runs the adapter on the Python that has open_spiel (COS_PYTHON), the engine's code from COS_ENGINE.
exec "${COS_PYTHON:-/work/engines/cos-venv/bin/python}" "$(dirname "$0")/adapter.py"
