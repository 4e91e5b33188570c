"""The hooks page: every hook of the turn structure, its kind and variables, and the clauses attached to it."""

from __future__ import annotations

from canasta_ref.engine.hooks import HOOKS

from .markup import code, header, hook_anchor, md
from .model import Site


def hooks_page(site: Site) -> str:
    page = "hooks.md"
    out = [header("canasta_ref/engine/hooks.py", "spec/*.yaml"), "# Hooks", ""]
    out += [
        "The turn structure is Python; every decision that varies between variants is a rule clause attached to "
        "one of these hooks (`canasta-ref hooks` prints the same list). The kind fixes how a hook's clauses "
        "combine: every `require` clause must hold, and the first that fails refuses the action; a `predicate` "
        "is yes if any clause says yes; `value` clauses add up.",
        "",
    ]
    for hook in HOOKS.values():
        out += [f"## {code(hook.name)} {{#{hook_anchor(hook.name)}}}", "", f"*{hook.kind}* — {md(hook.doc)}", ""]
        if hook.variables:
            out += ["Variables: " + ", ".join(f"{code(n)} *{t}*" for n, t in hook.variables.items()) + ".", ""]
        clauses = site.clause_links(page, hook=hook.name)
        if clauses:
            out += [f"Clauses: {clauses}.", ""]
    return "\n".join(out).rstrip() + "\n"
