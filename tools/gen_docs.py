#!/usr/bin/env python3
"""Write the documentation site's generated pages from the specs, the scenarios and the protocol.

    python tools/gen_docs.py            # (re)write every generated page
    python tools/gen_docs.py --check    # exit 1, naming each stale page, if the tree differs from a fresh run

Generated: ``docs/rules/`` (a rulebook a variant), ``docs/examples/`` (a page a scenario),
``docs/compare.md``, ``docs/disputes.md``, ``docs/settle-a-dispute.md``, ``docs/scenario-format.md``,
``docs/protocol.md``, ``docs/hooks.md``, ``docs/implementations.md`` (from the committed reports in
``conformance/reports/``; ``--reports DIR`` reads another folder), ``docs/schemas/`` and the ``nav`` block of
``mkdocs.yml``. Every other page under ``docs/`` is written by hand. Each kind of page is made by its own module
in ``docs_pages/``; this file only says which pages there are, writes them and checks them.

MkDocs also loads this file as a hook (``hooks:`` in ``mkdocs.yml``): :func:`on_page_markdown` points links to
files outside ``docs/`` (such as ``../spec/schema.json``) at their copies under ``docs/schemas/``, and
:func:`on_post_page` drops the theme's blank lines and indentation, which weigh a third of a small page, and
:func:`on_post_build` adds the Python runtime of the two live pages (tools/browser/bundle.py).
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from browser.bundle import BundleError
from browser.bundle import build as build_runtime
from docs_pages.compare import compare_page
from docs_pages.disputes import disputes_page
from docs_pages.examples import example_page, examples_index
from docs_pages.hooks import hooks_page
from docs_pages.implementations import PAGE as IMPLEMENTATIONS_PAGE
from docs_pages.implementations import implementations_page
from docs_pages.model import Site
from docs_pages.nav import mkdocs_yml
from docs_pages.paths import DOCS, MIRRORS, MKDOCS_YML, REPORTS, ROOT
from docs_pages.protocol import protocol_page
from docs_pages.reports import Report, ReportError, load_reports
from docs_pages.rulebook import rulebook_page, rules_index
from docs_pages.scenario_format import scenario_format_page
from docs_pages.tutorial import tutorial_page

from canasta_ref import cliargs

__all__ = [
    "DOCS",
    "MKDOCS_YML",
    "ROOT",
    "Site",
    "generate",
    "main",
    "on_page_markdown",
    "on_post_build",
    "on_post_page",
    "stale",
]

# Folders whose every file is generated (a file there that a fresh run would not write is stale).
GENERATED_DIRS = ("rules", "examples", "schemas")


def reports_in(folder: Path) -> list[Report]:
    """The committed reports of ``folder``; a malformed one ends the run with one line naming file and field."""
    shown = folder.relative_to(ROOT).as_posix() if folder.is_relative_to(ROOT) else folder.as_posix()
    try:
        return load_reports(folder, shown)
    except ReportError as error:
        raise SystemExit(f"gen_docs: {error}") from None


def generate(reports: Path = REPORTS) -> dict[Path, str]:
    """Every generated file and its content, by path; the implementations page is made from ``reports``."""
    committed = reports_in(reports)
    site = Site()
    if not site.scenarios:
        raise SystemExit("gen_docs: no scenarios found in conformance/scenarios")
    pages: dict[str, str] = {
        "rules/index.md": rules_index(site),
        "compare.md": compare_page(site),
        "disputes.md": disputes_page(site),
        "settle-a-dispute.md": tutorial_page(site),
        "examples/index.md": examples_index(site),
        "protocol.md": protocol_page(),
        "scenario-format.md": scenario_format_page(site),
        "hooks.md": hooks_page(site),
        IMPLEMENTATIONS_PAGE: implementations_page(site, committed, site.scenarios),
    }
    for variant in site.variants.values():
        pages[site.variant_page(variant.id)] = rulebook_page(site, variant)
    for scenario in site.scenarios:
        pages[site.example_page(scenario.id)] = example_page(site, scenario)
    for repo_path, docs_path in MIRRORS.items():
        pages[docs_path] = (ROOT / repo_path).read_text(encoding="utf-8")
    out = {DOCS / name: text for name, text in pages.items()}
    out[MKDOCS_YML] = mkdocs_yml(site)
    return out


def stale(files: Mapping[Path, str]) -> tuple[list[Path], list[Path]]:
    """(files that differ from a fresh run or are missing, generated-folder files a fresh run would not write)."""
    changed = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    extra = []
    for folder in GENERATED_DIRS:
        for path in sorted((DOCS / folder).rglob("*")) if (DOCS / folder).is_dir() else []:
            if path.is_file() and path not in files:
                extra.append(path)
    return changed, extra


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming stale generated files")
    parser.add_argument(
        "--reports",
        type=cliargs.folder,
        default=REPORTS,
        metavar="DIR",
        help="the folder of conformance reports to show",
    )
    args = parser.parse_args(argv)
    files = generate(args.reports.resolve())
    changed, extra = stale(files)
    if args.check:
        for path in changed:
            print(f"stale: {path.relative_to(ROOT)}", file=sys.stderr)
        for path in extra:
            print(f"stale (no longer generated): {path.relative_to(ROOT)}", file=sys.stderr)
        if changed or extra:
            print("gen_docs: the generated pages are out of date; run python tools/gen_docs.py", file=sys.stderr)
            return 1
        print(f"gen_docs: {len(files)} generated files are up to date")
        return 0
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
    for path in extra:
        path.unlink()
    print(f"gen_docs: wrote {len(changed)} of {len(files)} generated files, removed {len(extra)}")
    return 0


# ------------------------------------------------------------------------------------------------ MkDocs hook
_LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")


def on_page_markdown(markdown: str, /, *, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: point links to repository files outside ``docs/`` at their copies under ``docs/schemas/``."""
    src: str = page.file.src_uri
    here = posixpath.dirname(src)

    def fix(match: re.Match[str]) -> str:
        target, anchor = match.group(1), match.group(2) or ""
        if "://" in target:
            return match.group(0)
        repo_path = posixpath.normpath(posixpath.join("docs", here, target))
        mirror = MIRRORS.get(repo_path)
        if mirror is None:
            return match.group(0)
        return f"]({posixpath.relpath(mirror, here or '.')}{anchor})"

    return _LINK.sub(fix, markdown)


# Blocks whose whitespace is content: left exactly as they are.
_KEEP_WHITESPACE = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2>)", re.S | re.I)
_LINE_BREAK_RUN = re.compile(r"[ \t]*\n\s*")


def squeeze_whitespace(html: str) -> str:
    """Each run of whitespace holding a line break becomes one line break, outside ``<pre>`` and the like: the
    browser renders any such run as one space, so the page looks the same and weighs less."""
    parts = _KEEP_WHITESPACE.split(html)
    out = []
    # split() with two groups yields: text, whole block, tag name, text, whole block, tag name, ..., text
    for index in range(0, len(parts), 3):
        out.append(_LINE_BREAK_RUN.sub("\n", parts[index]))
        if index + 1 < len(parts):
            out.append(parts[index + 1])
    return "".join(out)


_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_BARE_WORD_CODE = re.compile(r"<code>([^<\s]+)</code>")


def mark_table_ids(html: str) -> str:
    """In tables, inline code without a space (a rule id, a parameter, a scenario, a one-word value) gets the class
    ``cr-id``, which canasta.css keeps on one line: the browser would otherwise break it at a hyphen."""
    return _TABLE.sub(lambda table: _BARE_WORD_CODE.sub(r'<code class="cr-id">\1</code>', table.group(0)), html)


def on_post_page(output: str, /, *, page: Any, config: Any) -> str:
    """MkDocs hook: the page's HTML without the template's blank lines and indentation, its ids kept whole."""
    return mark_table_ids(squeeze_whitespace(output))


def on_post_build(*, config: Any) -> None:
    """MkDocs hook: the Python runtime the two live pages load (docs/try/), into ``assets/runtime/`` of the site."""
    try:
        build_runtime(Path(config["site_dir"]) / "assets" / "runtime")
    except BundleError as error:
        raise SystemExit(f"gen_docs: {error}") from None


if __name__ == "__main__":
    raise SystemExit(main())
