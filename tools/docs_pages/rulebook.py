"""The rulebooks: a page a variant (every rule with its sources, expression, parameters and the scenarios that
test it) and the index of rulebooks with every rule by id."""

from __future__ import annotations

from pathlib import Path

from canasta_ref.engine.hooks import HOOKS
from canasta_ref.render import section_title
from canasta_ref.spec import Clause, Variant
from canasta_ref.spec.diff import clause_changes

from .markup import code, header, hook_anchor, md, param_anchor, plural, rel, rule_anchor, section_anchor, source_anchor
from .model import Site
from .paths import ROOT
from .spec_text import fmt_value, quote_line


def rulebook_page(site: Site, variant: Variant) -> str:
    page = site.variant_page(variant.id)
    parent = site.parent(variant)
    out = [header(variant_file(variant)), f"# {md(variant.name)}", "", md(variant.description), ""]
    facts = [f"Variant id {code(variant.id)}", f"spec `{variant_file(variant)}`"]
    if parent is not None:
        facts.append(f"extends [{md(parent.name)}]({rel(page, site.variant_page(parent.id))})")
    kids = [v for v in site.variants.values() if site.parent(v) == variant]
    if kids:
        facts.append("extended by " + ", ".join(f"[{md(k.name)}]({rel(page, site.variant_page(k.id))})" for k in kids))
    facts.append(f"{len(variant.clauses)} rules, {len(variant.parameters)} parameters")
    out += ["; ".join(facts) + ".", ""]
    out += [f"`canasta-ref rules {variant.id}` prints the same rule set as text.", ""]
    out += contents_line(variant)
    if parent is not None:
        out += changes_section(site, variant, parent, page)
    for section in variant.sections:
        clauses = [c for c in variant.clauses.values() if c.section == section]
        if not clauses:
            continue
        out += [f"## {section_title(section)} {{#{section_anchor(section)}}}", ""]
        for clause in clauses:
            out += rule_block(site, variant, clause, page)
    out += parameters_section(site, variant, page)
    out += sources_section(variant)
    return "\n".join(out).rstrip() + "\n"


def contents_line(variant: Variant) -> list[str]:
    """One line of links to the sections: the rule ids are in the page's table of contents, so the first rule
    follows the introduction closely."""
    links = []
    for section in variant.sections:
        count = sum(c.section == section for c in variant.clauses.values())
        if count:
            links.append(f"[{section_title(section)}](#{section_anchor(section)}) ({count})")
    links += ["[Parameters](#parameters)", "[Sources](#sources)"]
    return ['<p class="cr-contents" id="contents" markdown>Sections: ' + " · ".join(links) + "</p>", ""]


def variant_file(variant: Variant) -> str:
    path = Path(variant.file)
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return f"spec/{path.name}"


def changes_section(site: Site, variant: Variant, parent: Variant, page: str) -> list[str]:
    parent_page = site.variant_page(parent.id)
    items = []
    for name, param in variant.parameters.items():
        before = parent.parameters.get(name)
        if before is None:
            items.append(f"- New parameter [{code(name)}](#{param_anchor(name)}) = {code(fmt_value(param.value))}.")
        elif before.value != param.value:
            items.append(
                f"- Parameter [{code(name)}](#{param_anchor(name)}) is {code(fmt_value(param.value))}; "
                f"[{md(parent.name)} has {code(fmt_value(before.value))}]"
                f"({rel(page, parent_page, param_anchor(name))})."
            )
    for clause in variant.clauses.values():
        if clause.declared_in != variant.id:
            continue
        if clause.id in parent.clauses:
            replaced = parent.clauses[clause.id]
            theirs = f"[{md(parent.name)}'s]({rel(page, parent_page, rule_anchor(clause.id))})"
            items.append(
                f"- Rule [{code(clause.id)}](#{rule_anchor(clause.id)}) *{md(clause.title)}* "
                f"{replacement(parent, replaced, variant, clause, theirs)}."
            )
        else:
            items.append(f"- New rule [{code(clause.id)}](#{rule_anchor(clause.id)}) *{md(clause.title)}*.")
    for rule_id, clause in parent.clauses.items():
        if rule_id not in variant.clauses:
            items.append(
                f"- Rule [{code(rule_id)}]({rel(page, parent_page, rule_anchor(rule_id))}) *{md(clause.title)}* "
                "is removed."
            )
    if not items:
        return [f"It changes nothing from {md(parent.name)}: it restates its parent.", ""]
    return [
        '<details class="cr-changes" id="changes" markdown>',
        f"<summary>What it changes from {md(parent.name)}: {plural(len(items), 'change')}</summary>",
        "",
        *items,
        "",
        "</details>",
        "",
    ]


def replacement(parent: Variant, before: Clause, variant: Variant, clause: Clause, theirs: str) -> str:
    """How a child's clause differs from the parent's it replaces, their texts compared as each words them: a
    rule whose worded title is the same is not said to replace an identical title."""
    fields = [change.field for change in clause_changes(parent, before, variant, clause)]
    if "title" in fields:
        return f"replaces {theirs} *{md(before.title)}*"
    if "text" in fields:
        return f"rewords {theirs} rule of the same title"
    if fields:
        return f"keeps {theirs} text (what differs: {', '.join(fields)})"
    return f"restates {theirs} rule as it is"


def rule_block(site: Site, variant: Variant, clause: Clause, page: str) -> list[str]:
    anchor = rule_anchor(clause.id)
    parent = site.parent(variant)
    out = [f'<div class="cr-rule" id="{clause.id}" markdown>', ""]
    out += [f"### {code(clause.id)} {md(clause.title)} {{#{anchor} .cr-rule-title}}", ""]
    out += [md(clause.text), ""]
    if parent is not None and clause.declared_in == variant.id:
        if clause.id in parent.clauses:
            before = parent.clauses[clause.id]
            link = rel(page, site.variant_page(parent.id), anchor)
            fields = [change.field for change in clause_changes(parent, before, variant, clause)]
            if "title" in fields or "text" in fields:
                note = f"replaces [{code(clause.id)} of {md(parent.name)}]({link}): "
                note += f"*{md(before.title)}*. {md(before.text)}"
            else:
                note = f"keeps the text of [{code(clause.id)} of {md(parent.name)}]({link}); what differs: "
                note += ", ".join(fields) or "nothing"
            out += [f'!!! note "Changed in {md(variant.name)}"', f"    This rule {note}", ""]
        else:
            out += [
                f'!!! note "New in {md(variant.name)}"',
                f"    {md(parent.name)} has no rule {code(clause.id)}.",
                "",
            ]
    for child in site.children_replacing(variant, clause.id):
        link = rel(page, site.variant_page(child.id), anchor)
        out += [
            f'!!! info "Replaced in {md(child.name)}"',
            f"    [{md(child.name)}]({link}) has instead: *{md(child.clauses[clause.id].title)}*.",
            "",
        ]
    out += ['<div class="cr-sources" markdown>', ""]
    for ref in clause.sources:
        out += [f"> {quote_line(ref, variant, '#' + source_anchor(ref.source))}", ""]
    out += ["</div>", ""]
    hook = HOOKS.get(clause.hook)
    hook_text = (
        f"[{code(clause.hook)}]({rel(page, 'hooks.md', hook_anchor(clause.hook))})" if hook else code(clause.hook)
    )
    out += [f"**{clause.kind.capitalize()}** on hook {hook_text}:", "", "```text", clause.expression.strip(), "```", ""]
    if clause.message:
        out += [f"Refusal: *{md(clause.message)}*", ""]
    if clause.parameters:
        values = []
        for name in clause.parameters:
            param = variant.parameters[name]
            changed = ""
            if parent is not None and name in parent.parameters and parent.parameters[name].value != param.value:
                changed = " (changed here)"
            values.append(f"[{code(name)}](#{param_anchor(name)}) = {code(fmt_value(param.value))}{changed}")
        out += ["Parameters: " + ", ".join(values) + ".", ""]
    out += examples_line(site, variant, clause, page)
    out += ["</div>", ""]
    return out


def examples_line(site: Site, variant: Variant, clause: Clause, page: str) -> list[str]:
    """Links to the example pages that test the rule: drawn there, so the rulebook stays light."""
    tests = site.scenarios_for(variant, clause.id)
    if not tests:
        return []
    links = ", ".join(f"[{md(s.title)}]({rel(page, site.example_page(s.id))})" for s in tests)
    return [f'<p class="cr-tested" markdown>Tested by {plural(len(tests), "example")}: {links}.</p>', ""]


def parameters_section(site: Site, variant: Variant, page: str) -> list[str]:
    parent = site.parent(variant)
    out = ["## Parameters {#parameters}", ""]
    intro = (
        "Settings the rule expressions read by name. Where sources disagree, a parameter is an *enum* whose "
        "options cite their sources; the value this variant takes is marked."
    )
    if any(p.type != "enum" and p.alternatives for p in variant.parameters.values()):
        intro += " A number, table, list or map the sources disagree about lists, after its own sources, the other "
        intro += "values some sources give."
    out += [intro, ""]
    for name, param in variant.parameters.items():
        users = [c.id for c in variant.clauses.values() if name in c.parameters]
        out += [f'<div class="cr-param" id="{param_anchor(name)}" markdown>', ""]
        out += [f"**{code(name)}** *{param.type}* = {code(fmt_value(param.value))} — {md(param.doc)}", ""]
        if parent is not None and name in parent.parameters:
            before = parent.parameters[name]
            link = rel(page, site.variant_page(parent.id), param_anchor(name))
            if before.value != param.value:
                out += [
                    f"Changed in {md(variant.name)}: [{md(parent.name)} has {code(fmt_value(before.value))}]({link}).",
                    "",
                ]
            elif param.set_in == variant.id:
                out += [
                    f"Restated in {md(variant.name)} with its own sources; "
                    f"[{md(parent.name)}]({link}) has the same value.",
                    "",
                ]
        if param.options:
            for option, refs in param.options.items():
                mark = " **(this variant)**" if option == param.value else ""
                quotes = "; ".join(quote_line(r, variant, "#" + source_anchor(r.source)) for r in refs)
                out.append(f"- {code(option)}{mark}: {quotes or 'no source; the project chose it'}")
            out.append("")
        for ref in param.sources:
            out += [f"> {quote_line(ref, variant, '#' + source_anchor(ref.source))}", ""]
        if param.type != "enum" and param.alternatives:
            out += ["Other sources give another value:", ""]
            for alternative in param.alternatives:
                quotes = "; ".join(quote_line(r, variant, "#" + source_anchor(r.source)) for r in alternative.sources)
                out.append(f"- {code(fmt_value(alternative.value))}: {quotes or 'no source'}")
            out.append("")
        if users:
            out += ["Used by " + ", ".join(f"[{code(u)}](#{rule_anchor(u)})" for u in users) + ".", ""]
        out += ["</div>", ""]
    return out


def sources_section(variant: Variant) -> list[str]:
    out = ["## Sources {#sources}", ""]
    for source in variant.sources.values():
        bits = [f"**{code(source.id)}** {md(source.title)}"]
        if source.url:
            bits.append(f"<{source.url}>")
        if source.file:
            bits.append(f"copy: {code(source.file)}")
        if source.note:
            bits.append(md(source.note))
        out += [
            f'<div class="cr-source" id="{source_anchor(source.id)}" markdown>',
            "",
            "; ".join(bits),
            "",
            "</div>",
            "",
        ]
    return out


def rules_index(site: Site) -> str:
    page = "rules/index.md"
    out = [header("spec/*.yaml"), "# Rulebooks", ""]
    out += [
        "Each variant's rules in order of play: every rule with its permanent id (a link anchor), its text, the "
        "sources it is taken from, its expression and its parameters, and the scenarios that test it.",
        "",
    ]
    out += ["| variant | extends | players | description |", "|---|---|---|---|"]
    for v in site.variants.values():
        parent = site.parent(v)
        ext = f"[{md(parent.name)}]({rel(page, site.variant_page(parent.id))})" if parent else "—"
        out.append(
            f"| [{md(v.name)}]({rel(page, site.variant_page(v.id))}) ({code(v.id)}) | {ext} | "
            f"{v.param('players')} | {md(v.description)} |"
        )
    out += [
        "",
        "## Every rule {#every-rule}",
        "",
        "Find a rule by id. A link goes to the rule in each variant that has it; *scenarios* counts the "
        "conformance scenarios that cite it.",
        "",
    ]
    names = list(site.variants.values())
    out += ["| rule | title | section | scenarios | " + " | ".join(md(v.name) for v in names) + " |"]
    out += ["|---|---|---|---|" + "---|" * len(names)]
    all_ids: dict[str, Clause] = {}
    for v in names:
        for clause in v.clauses.values():
            all_ids.setdefault(clause.id, clause)
    for rule_id, clause in all_ids.items():
        cells = []
        for v in names:
            if rule_id not in v.clauses:
                cells.append("—")
                continue
            mine = v.clauses[rule_id]
            own = mine.declared_in == v.id and site.parent(v) is not None
            label = "changed" if own else "✔"
            cells.append(f"[{label}]({rel(page, site.variant_page(v.id), rule_anchor(rule_id))})")
        tested = sum(rule_id in s.rules for s in site.scenarios)
        out.append(
            f"| {code(rule_id)} | {md(clause.title)} | {section_title(clause.section)} | {tested or '—'} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(out) + "\n"
