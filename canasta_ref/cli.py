"""The ``canasta-ref`` command line: play a match, print a rule book, lint a spec, show a position."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .bots import BOTS, make_bot
from .cliargs import add_command, output_file, plain, positive
from .conformance.commands import add_commands as add_conformance_commands
from .conformance.session import VERSION
from .core import STATUS as CORE_STATUS
from .engine._native import STATUS
from .engine.actions import parse_action
from .engine.game import Game
from .engine.hooks import HOOKS
from .engine.rules import Rules
from .errors import CanastaError, IllegalAction, NotationError
from .match import HandRecord, play_match
from .spec import check_file, check_warnings, list_variants, load_variant


def _play(args: argparse.Namespace, out: TextIO) -> int:
    from .render import hand_log, score_sheet

    rules = Rules(load_variant(args.variant))
    names = args.bots.split(",") if args.bots else ["greedy"]
    if len(names) == 1:
        names = names * rules.players
    if len(names) != rules.players:
        raise CanastaError(f"--bots: {args.variant} has {rules.players} seats; give one bot or {rules.players}")
    bots = [make_bot(name, f"{args.seed}/bot{seat}") for seat, name in enumerate(names)]
    log: list[str] = []

    def on_hand(record: HandRecord) -> None:
        if args.quiet and not args.log:
            return
        lines = hand_log(rules, record)
        if args.log:
            log.extend([*lines, ""])
        if not args.quiet:
            out.write("\n".join(lines) + "\n\n")

    result = play_match(rules, bots, args.seed, max_hands=args.max_hands, on_hand=on_hand)
    sheet = score_sheet(rules, result)
    if args.log:
        Path(args.log).write_text("\n".join(log + sheet) + "\n", encoding="utf-8")
    out.write("\n".join(sheet) + "\n")
    return 0


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    from .render import rulebook

    variant = load_variant(args.variant)
    if args.json:
        data = {
            "id": variant.id,
            "lineage": list(variant.lineage),
            "parameters": {p.name: p.value for p in variant.parameters.values()},
            "rules": [
                {
                    "id": c.id,
                    "section": c.section,
                    "title": c.title,
                    "text": c.text,
                    "hook": c.hook,
                    c.kind: c.expression,
                    "declared_in": c.declared_in,
                    "sources": [
                        {"source": r.source, "quote": r.quote, "section": r.section, "summary": r.summary}
                        for r in c.sources
                    ],
                }
                for c in variant.clauses.values()
            ],
        }
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(rulebook(variant)) + "\n")
    return 0


def _check(args: argparse.Namespace, out: TextIO) -> int:
    failed = 0
    for name in args.files:
        errors = check_file(Path(name))
        for error in errors:
            out.write(f"{error}\n")
        failed += len(errors)
        if not errors:
            for warning in check_warnings(Path(name)):
                out.write(f"{warning}\n")
            out.write(f"{name}: ok\n")
    return 1 if failed else 0


def _new(args: argparse.Namespace, out: TextIO) -> int:
    from .house import write_house_spec

    path = Path(args.file)
    variant_id = write_house_spec(path, load_variant(args.extends), name=args.name, force=args.force)
    out.write(f"{path}: wrote variant {variant_id}, which extends {args.extends}; edit its values, then run\n")
    out.write(f"  canasta-ref check {path}\n  canasta-ref rules {path}\n")
    return 0


def _diff(args: argparse.Namespace, out: TextIO) -> int:
    from .spec.diff import diff_variants

    difference = diff_variants(load_variant(args.a), load_variant(args.b))
    if args.json or args.format == "json":
        out.write(json.dumps(difference.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(difference.lines()) + "\n")
    return 0 if difference.identical else 1


def _game_from_args(args: argparse.Namespace) -> Game:
    """The dealt game after ``--actions``; an action refused or misspelt is named by its place and its text."""
    game = Game(load_variant(args.variant), seed=args.seed)
    actions = [text for text in (t.strip() for t in (args.actions or "").split(";")) if text]
    for number, text in enumerate(actions, 1):
        where = f'--actions: action {number} of {len(actions)}, "{text}",'
        try:
            action = parse_action(text)
        except NotationError as error:
            raise CanastaError(f"{where} cannot be read: {error}") from None
        try:
            game.apply(action)
        except IllegalAction as refusal:
            raise CanastaError(f"{where} is refused: {refusal}") from None
    return game


def _show(args: argparse.Namespace, out: TextIO) -> int:
    from .render import view_text

    game = _game_from_args(args)
    seat = game.to_act if args.seat is None else args.seat
    view = game.view(seat)
    if args.json:
        out.write(json.dumps(view, indent=2) + "\n")
    else:
        out.write("\n".join(view_text(game.rules, view)) + "\n")
    return 0


def _legal(args: argparse.Namespace, out: TextIO) -> int:
    game = _game_from_args(args)
    actions = [str(a) for a in game.legal_actions()]
    out.write("\n".join(actions) + ("\n" if actions else ""))
    out.write(f"{len(actions)} legal actions\n")
    return 0


def _hooks(args: argparse.Namespace, out: TextIO) -> int:
    for hook in HOOKS.values():
        out.write(f"{hook.name} ({hook.kind}): {plain(hook.doc)}\n")
        for name, kind in hook.variables.items():
            out.write(f"    {name}: {kind}\n")
    return 0


#: What ``--version`` prints: the package's version, which build of the engine this process runs and which core.
VERSION_TEXT = f"canasta-ref {VERSION}\nengine: {STATUS}\ncore: {CORE_STATUS}"
#: The help of a ``--variant`` naming one variant.
VARIANT_HELP = "variant id or spec file (default: classic)"


def build_parser() -> argparse.ArgumentParser:
    # Raw text: --version prints its lines as they are written.
    parser = argparse.ArgumentParser(
        prog="canasta-ref", description=plain(__doc__ or ""), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=VERSION_TEXT, help="print the version and engine build")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")

    play = add_command(sub, "play", "play a match between built-in bots and print the log and score sheet")
    play.add_argument("--variant", default="classic", help=VARIANT_HELP)
    play.add_argument("--seed", default="1", help="match seed: the same seed gives the same match")
    play.add_argument("--bots", help=f"comma-separated bots per seat, from: {', '.join(sorted(BOTS))}")
    play.add_argument("--log", type=output_file, help="also write the hand-by-hand log to this file")
    play.add_argument("--max-hands", type=positive, default=200, help="stop after this many hands")
    play.add_argument("--quiet", action="store_true", help="print only the score sheet")
    play.set_defaults(run=_play)

    rules = add_command(sub, "rules", "print a variant's flattened rule set with ids, text and sources")
    rules.add_argument("variant", help=f"variant id ({', '.join(list_variants())}) or spec file")
    rules.add_argument("--json", action="store_true", help="print the rule set as JSON, with each clause's expression")
    rules.set_defaults(run=_rules)

    check = add_command(sub, "check", "lint spec files; exit 1 with file:line:col for each error")
    check.add_argument("files", nargs="+", metavar="FILE", help="spec files to check")
    check.set_defaults(run=_check)

    new = add_command(
        sub,
        "new",
        "start a house variant: a spec file listing every parameter of the variant it extends",
        "Each parameter is restated with its value, its range or options and their sources as comments. check "
        "accepts the file as written; change the values your table plays otherwise.",
    )
    new.add_argument(
        "file", type=output_file, help="the spec file to write, named after its variant id: our-table.yaml"
    )
    new.add_argument("--extends", default="classic", help="the variant id or spec file it extends (default: classic)")
    new.add_argument("--name", help="the variant's name for people (default: Our house rules, and the parent's name)")
    new.add_argument("--force", action="store_true", help="replace the file if it exists")
    new.set_defaults(run=_new)

    diff = add_command(
        sub,
        "diff",
        "show how two variants differ, parameter by parameter and clause by clause",
        "Parameters, clauses (in rulebook order) and their sources. "
        "Exit 0 if they are identical, 1 if they differ, 2 if one cannot be loaded, as diff(1) does.",
    )
    diff.add_argument("a", metavar="A", help="variant id or spec file to compare from")
    diff.add_argument("b", metavar="B", help="variant id or spec file to compare to")
    diff.add_argument("--json", action="store_true", help="print the differences as JSON")
    diff.add_argument("--format", choices=("text", "json"), default="text", help=argparse.SUPPRESS)  # before --json
    diff.set_defaults(run=_diff)

    for name, run, text in (
        ("show", _show, "render the position for a seat after some actions"),
        ("legal", _legal, "list the legal actions after some actions"),
    ):
        cmd = add_command(sub, name, text)
        cmd.add_argument("--variant", default="classic", help=VARIANT_HELP)
        cmd.add_argument("--seed", type=int, default=1, help="deal seed")
        cmd.add_argument("--actions", help="actions to apply first, separated by ';' (as 'draw; discard KH')")
        if name == "show":
            cmd.add_argument("--seat", type=int, help="whose view (default: the seat to act)")
            cmd.add_argument("--json", action="store_true", help="print the view as JSON, as the protocol's view")
        cmd.set_defaults(run=run)

    add_conformance_commands(sub)

    hooks = add_command(sub, "hooks", "list the hooks rule clauses attach to, with their variables")
    hooks.set_defaults(run=_hooks)
    return parser


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """The parser, built once a process: building it costs about as much as a small command (argparse looks up
    the translation of each help text), and the rulebook's generator runs the command line hundreds of times."""
    return build_parser()


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = _parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        code: int = args.run(args, stream)
    except CanastaError as error:
        sys.stderr.write(f"canasta-ref: {error}\n")
        return 2
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); not an error of ours
        return 0
    return code


if __name__ == "__main__":
    raise SystemExit(main())
