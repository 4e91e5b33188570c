"""The examples: a page a bundled scenario (drawn, its file, and what ``canasta-ref explain`` says) and their
index."""

from __future__ import annotations

import functools
import io
from pathlib import Path

from canasta_ref.cli import main as cli_main
from canasta_ref.conformance.scenario import Scenario

from .drawings import scenario_block
from .markup import code, header, md, rel, rule_anchor
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
    out += [live_link(scenario.id), ""]
    out += ["## The position and the steps {#position data-search-exclude}", ""]
    out.append(scenario_block(site, scenario, home, page, title=False))
    # Plain text, not highlighted YAML: Pygments' spans made this listing six times its size, a third of the site.
    out += ["## The scenario file {#file data-search-exclude}", "", f"`{rel_file}`:", "", "```text"]
    out += [Path(scenario.file).read_text(encoding="utf-8").rstrip(), "```", ""]
    out += [
        "## What the reference interpreter says {#explain data-search-exclude}",
        "",
        f"`canasta-ref explain {scenario.id}`:",
        "",
    ]
    out += ["```text", explain_output(scenario.id).rstrip(), "```", ""]
    return "\n".join(out)


def live_link(scenario_id: str) -> str:
    """A link that opens the scenario in the live page, which settles it in the browser. Raw HTML: the address
    part after # is the page's state, not an anchor MkDocs could check."""
    return (
        f'<p class="cr-live-link"><a href="../../try/settle/#example={scenario_id}">Settle it in your browser</a>: '
        "change the position or the actions and read the verdicts again, with nothing installed.</p>"
    )


def variant_link(site: Site, page: str, variant_id: str) -> str:
    v = site.variants.get(variant_id)
    return f"[{md(v.name)}]({rel(page, site.variant_page(v.id))})" if v else code(variant_id)


def examples_index(site: Site) -> str:
    """Every example once, under the variant it is written for, then every rule with its examples' count; a small
    script adds a filter by words, rule id or variant (the page reads the same without it)."""
    page = "examples/index.md"
    out = [header("conformance/scenarios/*.yaml"), "# Examples", ""]
    out += [
        f"The {len(site.scenarios)} bundled conformance scenarios, each drawn on its own page as a position with the "
        "steps and what must happen. They are listed [by the variant](#by-variant) each is written for, with the "
        "rules it tests; [by rule](#by-rule), each rule links to its place in a rulebook, which lists its examples. "
        "To write your own, see [Settle a dispute](../settle-a-dispute.md) and the "
        "[scenario format](../scenario-format.md).",
        "",
    ]
    out += by_variant(site, page) + by_rule(site, page) + [FILTER_SCRIPT, ""]
    return "\n".join(out) + "\n"


def by_variant(site: Site, page: str) -> list[str]:
    out = ["## By variant {#by-variant}", ""]
    homes = {v: [s for s in site.scenarios if s.variants[0] == v] for v in site.variants}
    out += [" · ".join(f"[{md(site.variants[v].name)}](#variant-{v}) ({len(s)})" for v, s in homes.items() if s), ""]
    for vid, scenarios in homes.items():
        if not scenarios:
            continue
        variant = site.variants[vid]
        out += [f"### {md(variant.name)} {{#variant-{vid}}}", ""]
        out += [f"Written for {variant_link(site, page, vid)}; *also* names other variants an example applies to.", ""]
        out += [
            f'<div class="cr-examples" data-variant="{vid}" markdown>',
            "",
            "| example | rules it tests | also | level |",
            "|---|---|---|---|",
        ]
        for s in scenarios:
            rules = " ".join(f'<span class="cr-id">{md(r)}</span>' for r in s.rules)
            also = " ".join(f'<span class="cr-id">{v}</span>' for v in site.applies[s.id] if v != vid)
            out.append(f"| [{md(s.title)}]({rel(page, site.example_page(s.id))}) | {rules} | {also} | {s.level} |")
        out += ["", "</div>", ""]
    return out


def by_rule(site: Site, page: str) -> list[str]:
    out = ["## By rule {#by-rule}", ""]
    out += ["Each rule the examples test, how many do, and the rule in a rulebook with the list of its examples.", ""]
    out += ["| rule | title | examples |", "|---|---|---|"]
    counts: dict[str, int] = {}
    first_variants: dict[str, tuple[str, ...]] = {}
    for s in site.scenarios:
        for r in s.rules:
            counts[r] = counts.get(r, 0) + 1
            first_variants.setdefault(r, tuple(s.variants))
    for rule_id in sorted(counts):
        home = site.rule_home(rule_id, first_variants[rule_id])
        title = md(site.variants[home].clauses[rule_id].title) if home else ""
        anchor = f'<span class="cr-id" id="rule-{rule_anchor(rule_id)}">{md(rule_id)}</span>'
        link = site.rule_link(page, rule_id, first_variants[rule_id]).replace(code(rule_id), "in its rulebook")
        out.append(f"| {anchor} | {title} | {counts[rule_id]}: {link} |")
    return [*out, ""]


# Offline and optional: a text box and a variant list that hide the rows of the by-variant tables that do not match.
FILTER_SCRIPT = r"""<script>
(() => {
  const rows = [...document.querySelectorAll(".cr-examples tbody tr")];
  const first = document.querySelector(".cr-examples");
  if (!rows.length || !first) return;
  const box = document.createElement("p");
  box.className = "cr-filter";
  box.innerHTML = '<label>Filter the examples: <input type="search" placeholder="words or a rule id"></label> ' +
    '<label>variant <select><option value="">any</option></select></label> <span></span>';
  const [input, select, count] = [box.querySelector("input"), box.querySelector("select"), box.querySelector("span")];
  document.querySelectorAll('h3[id^="variant-"]').forEach(h => {
    const o = document.createElement("option");
    o.value = h.id.slice(8); o.textContent = h.textContent.replace(/\u00b6$/, "").trim(); select.append(o);
  });
  const apply = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean), v = select.value;
    let shown = 0;
    rows.forEach(tr => {
      const home = tr.closest(".cr-examples").dataset.variant;
      const text = tr.textContent.toLowerCase();
      const ok = words.every(w => text.includes(w)) && (!v || home === v || text.split(/\s+/).includes(v));
      tr.hidden = !ok; shown += ok;
    });
    count.textContent = shown + " of " + rows.length + " shown";
  };
  input.addEventListener("input", apply); select.addEventListener("change", apply);
  document.getElementById("by-variant").after(box); apply();
})();
</script>"""


@functools.cache
def explain_output(scenario_id: str) -> str:
    """What ``canasta-ref explain`` prints for a bundled scenario, run in process through the real entry point."""
    out = io.StringIO()
    code_ = cli_main(["explain", scenario_id], out=out)
    if code_ != 0:
        raise SystemExit(f"gen_docs: canasta-ref explain {scenario_id} exited {code_}")
    return out.getvalue()
