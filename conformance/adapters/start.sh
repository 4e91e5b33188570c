#!/bin/sh
# Starts an adapter once what it needs is there, else says on stderr (where canasta-ref conform shows it) what is
# missing and what to set. Called by each adapter's run.sh:
#   start.sh KEY ENGINE_VAR REPOSITORY COMMIT MARKER RUNTIME_VAR RUNTIME_DEFAULT RUNTIME_HINT SCRIPT
key=$1 engine_var=$2 repository=$3 commit=$4 marker=$5 runtime_var=$6 runtime_default=$7 hint=$8 script=$9
readme="conformance/adapters/$key/README.md"
checkout="a checkout of $repository at commit $commit (see $readme)"
eval "engine=\${$engine_var:-}"
eval "runtime=\${$runtime_var:-$runtime_default}"
if [ -z "$engine" ]; then
    echo "$key adapter: $engine_var is not set: set it to $checkout" >&2
    exit 2
fi
if [ ! -f "$engine/$marker" ]; then
    echo "$key adapter: $engine_var=$engine has no $marker: it must be $checkout" >&2
    exit 2
fi
if ! command -v "$runtime" >/dev/null 2>&1; then
    echo "$key adapter: $runtime not found: $hint (see $readme)" >&2
    exit 2
fi
exec "$runtime" "$(dirname "$0")/$key/$script"
