#!/usr/bin/env bash
# The documentation site: generate the pages from the specs and scenarios, then run MkDocs (Material theme).
#   tools/site.sh build   generate, then build the site into site/ (strict: a broken link or anchor fails)
#   tools/site.sh serve   generate, then serve with live reload on http://127.0.0.1:8000/ (ADDR overrides)
#   tools/site.sh check   fail if a generated page is stale, then build strictly into a temporary folder
# Needs the docs extras: pip install -e ".[test,docs]". Works offline.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${VIRTUAL_ENV:-}" ] && [ -f .venv/bin/activate ]; then
  . .venv/bin/activate
fi
export NO_MKDOCS_2_WARNING=1   # Material's notice about MkDocs 2.0; it is not about this site
case "${1:-}" in
  build)
    python tools/gen_docs.py
    mkdocs build --strict --site-dir site
    ;;
  serve)
    python tools/gen_docs.py
    mkdocs serve --strict --dev-addr "${ADDR:-127.0.0.1:8000}"
    ;;
  check)
    python tools/gen_docs.py --check
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
    mkdocs build --strict --site-dir "$out"
    ;;
  *)
    echo "usage: tools/site.sh build|serve|check" >&2
    exit 2
    ;;
esac
