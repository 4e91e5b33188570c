"""The examples: a page a bundled scenario (drawn, its file, and what ``canasta-ref explain`` says) and their
index."""

from __future__ import annotations

import functools
import io
from pathlib import Path

from canasta_ref.cli import main as cli_main
from canasta_ref.conformance.scenario import Scenario

from .drawings import scenario_block
from .markup import code, header, md, rel
from .model import Site


def example_page(site: Site, scenario: Scenario) -> str:
    page = site.example_page(scenario.id)
    home = scenario.variants[0]
    rel_file = f"conformance/scenarios/{scenario.id}.yaml"
    out = [header(rel_file), f"# {md(scenario.title)}", ""]
    if scenario.description:
        out += [md(scenario.description), ""]
    applies = site.applies[scenario.id]
    facts = [
        f"Scenario {code(scenario.id)}",
        "tests " + ", ".join(site.rule_link(page, r, scenario.variants) for r in scenario.rules),
        "written for " + ", ".join(variant_link(site, page, v) for v in scenario.variants),
    ]
    extra = [v for v in applies if v not in scenario.variants]
    if extra:
        facts.append("also applies to " + ", ".join(variant_link(site, page, v) for v in extra))
    facts.append(f"level *{scenario.level}*")
    out += ["; ".join(facts) + ".", ""]
    out += ["## The position and the steps {#position}", ""]
    out.append(scenario_block(site, scenario, home, page, title=False))
    out += ["## The scenario file {#file}", "", f"`{rel_file}`:", "", "```yaml"]
    out += [Path(scenario.file).read_text(encoding="utf-8").rstrip(), "```", ""]
    out += ["## What the reference interpreter says {#explain}", "", f"`canasta-ref explain {scenario.id}`:", ""]
    out += ["```text", explain_output(scenario.id).rstrip(), "```", ""]
    return "\n".join(out)


def variant_link(site: Site, page: str, variant_id: str) -> str:
    v = site.variants.get(variant_id)
    return f"[{md(v.name)}]({rel(page, site.variant_page(v.id))})" if v else code(variant_id)


def examples_index(site: Site) -> str:
    page = "examples/index.md"
    out = [header("conformance/scenarios/*.yaml"), "# Examples", ""]
    out += [
        "Every bundled conformance scenario, drawn as a position with the steps and what must happen. The same "
        "drawings appear under the rules they test in each [rulebook](../rules/index.md). To write your own, "
        "see [Settle a dispute](../settle-a-dispute.md) and the [scenario format](../scenario-format.md).",
        "",
    ]
    out += ["| scenario | rules | written for | level |", "|---|---|---|---|"]
    for s in site.scenarios:
        rules = ", ".join(site.rule_link(page, r, s.variants) for r in s.rules)
        written = ", ".join(variant_link(site, page, v) for v in s.variants)
        out.append(f"| [{md(s.title)}]({rel(page, site.example_page(s.id))}) | {rules} | {written} | {s.level} |")
    return "\n".join(out) + "\n"


@functools.cache
def explain_output(scenario_id: str) -> str:
    """What ``canasta-ref explain`` prints for a bundled scenario, run in process through the real entry point."""
    out = io.StringIO()
    code_ = cli_main(["explain", scenario_id], out=out)
    if code_ != 0:
        raise SystemExit(f"gen_docs: canasta-ref explain {scenario_id} exited {code_}")
    return out.getvalue()
