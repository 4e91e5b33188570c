"""The disputes page: every parameter on which the sources disagree, each value with the sources that give it
and the variants that take it.

A disputed parameter is an enum, whose options cite their sources, or a parameter of another type (a number, a
table, a list or a map) whose value cites its sources and which lists ``alternatives``: the values other sources
give instead, each with its sources."""

from __future__ import annotations

from canasta_ref.conformance.explain import disputed_values
from canasta_ref.spec import Parameter, SourceRef, Variant

from .markup import WIDE_PAGE, code, header, md, param_anchor, rel, source_anchor
from .model import Site
from .spec_text import fmt_value, quote_line


def disputed_parameters(site: Site) -> dict[str, tuple[Variant, Parameter]]:
    """Every disputed parameter by name, with the first variant (in site order) where it is disputed."""
    params: dict[str, tuple[Variant, Parameter]] = {}
    for v in site.variants.values():
        for name, p in v.parameters.items():
            if name not in params and disputed_values(p):
                params[name] = (v, p)
    return params


def _source_link(site: Site, page: str, home: Variant, ref: SourceRef) -> tuple[Variant, str | None]:
    """The variant whose list of sources a quotation links to (``home`` if it lists the source), and the link."""
    owner = home if ref.source in home.sources else None
    owner = owner or next((v for v in site.variants.values() if ref.source in v.sources), None)
    if owner is None:
        return home, None
    return owner, rel(page, site.variant_page(owner.id), source_anchor(ref.source))


def disputes_page(site: Site) -> str:
    page = "disputes.md"
    variants = list(site.variants.values())
    out = [WIDE_PAGE + header("spec/*.yaml", "conformance/scenarios/*.yaml"), "# Where sources disagree", ""]
    out += [
        "Canasta has no single authority. Where the sources disagree the specs name the disagreement: an *enum* "
        "parameter whose every option quotes the sources that take it, or a number, table, list or map whose "
        "value quotes its sources and whose `alternatives` quote the sources that give another value. Each "
        "variant picks one value; the others can be tried with `canasta-ref explain` (see "
        "[Settle a dispute](settle-a-dispute.md)) or by a variant that `extends` this one and sets the parameter.",
        "",
    ]
    params = disputed_parameters(site)
    out += ["| parameter | options | " + " | ".join(md(v.name) for v in variants) + " |"]
    out += ["|---|---|" + "---|" * len(variants)]
    for name, (_, p) in params.items():
        cells = [code(fmt_value(v.parameters[name].value)) if name in v.parameters else "—" for v in variants]
        count = len(disputed_values(p))
        out.append(f"| [{code(name)}](#{param_anchor(name)}) | {count} | " + " | ".join(cells) + " |")
    out.append("")
    for name, (home, p) in params.items():
        out += [f"## {code(name)} {{#{param_anchor(name)}}}", "", md(p.doc), ""]
        readers = site.clause_links(page, parameter=name)
        if readers:
            out += [f"Rules that read it: {readers}.", ""]
        for index, (option, refs) in enumerate(disputed_values(p)):
            takers = [v for v in variants if name in v.parameters and v.parameters[name].value == option]
            who = ", ".join(f"[{md(v.name)}]({rel(page, site.variant_page(v.id), param_anchor(name))})" for v in takers)
            default = " (default)" if p.type != "enum" and index == 0 else ""
            out += [
                '<div class="cr-option" markdown>',
                "",
                f"**{code(fmt_value(option))}**{default} — taken by {who or 'no variant'}",
                "",
            ]
            for ref in refs:
                owner, link = _source_link(site, page, home, ref)
                out += [f"> {quote_line(ref, owner, link)}", ""]
            if not refs:
                out += ["No source: the project chose it.", ""]
            tests = [s for s in site.scenarios if s.parameters.get(name) == option]
            if tests:
                out += [
                    "Scenarios played with it: "
                    + ", ".join(f"[{md(s.title)}]({rel(page, site.example_page(s.id))})" for s in tests)
                    + ".",
                    "",
                ]
            out += ["</div>", ""]
    return "\n".join(out).rstrip() + "\n"
