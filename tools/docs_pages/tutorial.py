"""The tutorial "Settle a dispute": one bundled scenario written, run through ``canasta-ref explain`` and read."""

from __future__ import annotations

from pathlib import Path

from canasta_ref.conformance.scenario import Scenario

from .drawings import scenario_block
from .examples import explain_output
from .markup import header, md, rel
from .model import Site

# The scenario the tutorial walks through, if it exists; otherwise the first that touches a disputed parameter.
TUTORIAL_SCENARIO = "dispute-one-card-pile"


def tutorial_scenario(site: Site) -> Scenario:
    by_id = {s.id: s for s in site.scenarios}
    if TUTORIAL_SCENARIO in by_id:
        return by_id[TUTORIAL_SCENARIO]
    for s in site.scenarios:
        for rule in s.rules:
            home = site.rule_home(rule, s.variants)
            if home and any(
                site.variants[home].parameters[p].type == "enum" for p in site.variants[home].clauses[rule].parameters
            ):
                return s
    return site.scenarios[0]


def tutorial_page(site: Site) -> str:
    page = "settle-a-dispute.md"
    scenario = tutorial_scenario(site)
    rel_file = f"conformance/scenarios/{scenario.id}.yaml"
    yaml_text = Path(scenario.file).read_text(encoding="utf-8").rstrip()
    home = scenario.variants[0]
    out = [header(rel_file, "canasta-ref explain"), "# Settle a dispute", ""]
    out += [
        "Players disagree about a position: may North take the pile here? Write the position down as a *scenario*, "
        "then let `canasta-ref explain` play it under every variant and under every option of each disputed "
        "parameter the cited rules depend on, citing the rule and the source behind each verdict.",
        "",
        "## 1. Write the position down {#write}",
        "",
        "A scenario is a YAML file (the [scenario format](scenario-format.md) lists every field). This one is the "
        f"bundled scenario [{md(scenario.title)}]({rel(page, site.example_page(scenario.id))}), `{rel_file}`:",
        "",
        "```yaml",
        yaml_text,
        "```",
        "",
        "- `rules` names the rules the position is about, by their permanent ids; `variants` the variants it is "
        "written for (a variant that extends one of them inherits the scenario unless it changes a cited rule).",
        "- `setup.position` is the table: one hand a seat (seat 0 is North, then clockwise; seat *s* plays for side "
        "*s* mod the number of sides), the `pile` bottom to top, each side's `melds`, who is `to_act` and whether "
        "they have drawn yet (`phase`). Cards not placed anywhere form the stock. A deal can be given instead as "
        "`setup.deck` (a `seed` or an explicit `order`).",
        "- `steps` are the actions in the [notation](index.md#notation), each with what must happen: `accepted`, "
        "or `refused` citing the rule that refuses it, and optionally legal actions, a seat's view or the score.",
        "",
        "Drawn as the documentation draws it:",
        "",
        scenario_block(site, scenario, home, page, title=False),
        "## 2. Run it {#run}",
        "",
        "```sh",
        f"canasta-ref explain {rel_file}      # or just the id: canasta-ref explain {scenario.id}",
        "```",
        "",
        "This is its real output, produced by the tool when these pages were generated:",
        "",
        "```text",
        explain_output(scenario.id).rstrip(),
        "```",
        "",
        "## 3. Read the verdict {#read}",
        "",
        "- Each block is one variant (`[classic]`), then the same variant with one disputed parameter set to each "
        "other option (`with one_card_pile = forbid`), quoting the sources that take that option.",
        "- Each step says `allowed`, listing the cited rules that held, or `REFUSED by` a rule id with its title, "
        "text and first source. The rule ids link to the rulebooks: see for instance "
        + ", ".join(site.rule_link(page, r, scenario.variants) for r in scenario.rules)
        + ".",
        "- A variant the scenario is not written for is still tried, and says so; a position it cannot set up (such "
        "as four hands in a two-player variant) is reported instead of judged.",
        "",
        "`--variant classic,classic-2p` limits the variants; `--no-alternatives` skips the disputed options. "
        "[Where sources disagree](disputes.md) lists every disputed parameter with its sources.",
        "",
        "## 4. Add it to the suite {#contribute}",
        "",
        "A scenario whose file is in `conformance/scenarios/` (named after its `id`) is part of the conformance "
        "suite: `canasta-ref conform` checks every engine against it, and these pages give it a page, "
        "linked from each rule it cites and listed in the [Examples](examples/index.md). Regenerate the pages with "
        "`tools/site.sh build`.",
        "",
    ]
    return "\n".join(out)
