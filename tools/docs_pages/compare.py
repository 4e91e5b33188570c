"""The comparison page: every variant's parameters side by side, and the rules whose text differs."""

from __future__ import annotations

from canasta_ref.conformance.explain import disputed_values
from canasta_ref.spec import Variant

from .markup import WIDE_PAGE, code, header, md, param_anchor, rel, rule_anchor
from .model import Site
from .spec_text import fmt_value

COMPARE_ROWS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Players", (("players", "players"), ("teams", "sides"))),
    ("Cards", (("packs", "52-card packs"), ("jokers_per_pack", "jokers a pack"), ("wild_ranks", "wild ranks"))),
    ("Deal", (("cards_dealt", "cards dealt each"), ("upcard_turn_again", "upcard turned again when"))),
    ("Draw", (("draw_count", "cards a draw takes"),)),
    (
        "Melds and wild limits",
        (
            ("min_meld_size", "fewest cards in a meld"),
            ("min_naturals", "fewest natural cards"),
            ("max_wilds", "most wild cards"),
            ("wild_ratio", "wild cards against natural"),
            ("canasta_size", "cards in a canasta"),
            ("canasta_naturals", "natural cards in a canasta"),
        ),
    ),
    (
        "Initial meld minimums",
        (("initial_meld_table", "minimum by score"), ("top_discard_counts", "top discard counts")),
    ),
    (
        "Pile rules",
        (("black_three", "black three"), ("one_card_pile", "one card, one-card pile"), ("stock_empty", "empty stock")),
    ),
    (
        "Going out",
        (
            ("canastas_to_go_out", "canastas to go out"),
            ("concealed_pile_take", "concealed after taking pile"),
            ("concealed_exemption", "no minimum when going out concealed by"),
        ),
    ),
    (
        "Bonuses",
        (
            ("natural_canasta_bonus", "natural canasta"),
            ("mixed_canasta_bonus", "mixed canasta"),
            ("going_out_bonus", "going out"),
            ("concealed_going_out_bonus", "going out concealed"),
            ("red_three_value", "red three"),
            ("four_red_threes_value", "all four red threes"),
            ("red_three_penalty", "red threes count against when"),
        ),
    ),
    ("Target", (("match_target", "match target"), ("match_tie", "tie at the target"))),
)


def compare_page(site: Site) -> str:
    page = "compare.md"
    variants = list(site.variants.values())
    out = [WIDE_PAGE + header("spec/*.yaml"), "# Compare variants", ""]
    out += [
        "Every variant side by side, generated from the specs. Each value links to the rule that uses it (or to "
        'the parameter, where no rule does); a <span class="cr-differs">highlighted</span> value differs from '
        "the first column. The name of a parameter the sources disagree about links to its entry in "
        "[where sources disagree](disputes.md).",
        "",
    ]
    heads = " | ".join(f"[{md(v.name)}]({rel(page, site.variant_page(v.id))})" for v in variants)
    out += ['<div class="cr-compare" markdown>', "", f"| | {heads} |", "|---|" + "---|" * len(variants)]
    listed: set[str] = set()
    groups: list[tuple[str, list[tuple[str, str]]]] = [(g, list(rows)) for g, rows in COMPARE_ROWS]
    declared = {name for v in variants for name in v.parameters}
    rest = [
        (n, "") for v in variants for n in v.parameters if n not in {r for _, rows in COMPARE_ROWS for r, _ in rows}
    ]
    if rest:
        groups.append(("Other parameters", list(dict.fromkeys(rest))))
    disputed = {n for v in variants for n, p in v.parameters.items() if disputed_values(p)}
    for group, rows in groups:
        shown = [(n, label) for n, label in rows if n in declared and n not in listed]
        if not shown:
            continue
        out.append(f'| <span class="cr-group">{md(group)}</span> | ' + " | ".join("" for _ in variants) + " |")
        for name, label in shown:
            listed.add(name)
            cells = [compare_cell(site, v, name, page, variants[0]) for v in variants]
            param_text = code(name)
            if name in disputed:
                param_text = f"[{code(name)}](disputes.md#{param_anchor(name)})"
            text = f'{md(label)}<br><span class="cr-param-name">{param_text}</span>' if label else param_text
            out.append(f"| {text} | " + " | ".join(cells) + " |")
    out += ["", "</div>", ""]
    out += ["## Rules that differ {#rules-that-differ}", ""]
    out += ["Rules whose text or expression is not the same in every variant, or that some variant lacks.", ""]
    out += [f"| rule | {heads} |", "|---|" + "---|" * len(variants)]
    ids: dict[str, None] = {}
    for v in variants:
        ids.update(dict.fromkeys(v.clauses))
    differing = 0
    for rule_id in ids:
        shapes = {
            (c.title, " ".join(c.expression.split()), c.text) if (c := v.clauses.get(rule_id)) else None
            for v in variants
        }
        if len(shapes) == 1:
            continue
        differing += 1
        cells = []
        for v in variants:
            c = v.clauses.get(rule_id)
            if c is None:
                cells.append("—")
                continue
            link = rel(page, site.variant_page(v.id), rule_anchor(rule_id))
            cells.append(f"[{md(c.title)}]({link}): {code(' '.join(c.expression.split()))}")
        out.append(f"| {code(rule_id)} | " + " | ".join(cells) + " |")
    if not differing:
        out += ["| none | " + " | ".join("" for _ in variants) + " |"]
    return "\n".join(out) + "\n"


def compare_cell(site: Site, variant: Variant, name: str, page: str, base: Variant) -> str:
    param = variant.parameters.get(name)
    if param is None:
        return "—"
    text = code(fmt_value(param.value))
    users = [c for c in variant.clauses.values() if name in c.parameters]
    target = rule_anchor(users[0].id) if users else param_anchor(name)
    title = f' "{users[0].id}"' if users else f' "parameter {name}"'
    link = f"[{text}]({rel(page, site.variant_page(variant.id), target)}{title})"
    if name in base.parameters and base.parameters[name].value != param.value:
        return f'<span class="cr-differs">{link}</span>'
    return link
