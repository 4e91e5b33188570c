"""The adapters of the open-source engines (conformance/adapters/) and their committed reports.

The engines themselves live outside the repository; a test that needs one skips, saying where to get it."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from canasta_ref.engine.cards import card_name
from canasta_ref.engine.game import Game, deck_for_seed
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import load_variant

ROOT = Path(__file__).resolve().parents[2]


def _load_tool() -> Any:
    """tools/conform_adapters.py, loaded from its file (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("conform_adapters", ROOT / "tools" / "conform_adapters.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["conform_adapters"] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


conform_adapters = _load_tool()

ADAPTERS = {adapter.key: adapter for adapter in conform_adapters.ALL}
REPORTS = sorted((ROOT / "conformance" / "reports").glob("*.json"))
#: Deck of seed 7 as the runner sends it: our deal procedure decides what each seat holds.
SEED = 7


def _talk(adapter: Any, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send ``requests`` to a fresh adapter process, one a line, and read one answer for each."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [adapter.command], input=lines, capture_output=True, text=True, timeout=120, check=False, cwd=ROOT
    )
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(requests), done.stderr
    return answers


def _need(adapter: Any) -> None:
    why = adapter.missing()
    if why is not None:
        pytest.skip(why)


def _reference_deal(seed: int) -> tuple[str, dict[str, Any]]:
    """The deck of ``seed`` as the runner sends it, and seat 0's view after the reference deals it."""
    rules = rules_for(load_variant("classic"))
    deck = deck_for_seed(rules, seed)
    game = Game(rules, deck=deck)
    return " ".join(card_name(c) for c in deck), game.view(0)


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_handshake_answers_protocol_1_and_2(key: str) -> None:
    adapter = ADAPTERS[key]
    _need(adapter)
    one, two = _talk(
        adapter,
        [{"id": 1, "cmd": "hello", "protocol": 1}, {"id": 2, "cmd": "hello", "protocol": 2, "protocols": [1, 2]}],
    )
    assert (one["id"], one["ok"], one["protocol"], one["variants"]) == (1, True, 1, ["classic"])
    assert all(isinstance(v, bool) for k, v in one["capabilities"].items() if k != "legal")
    assert (two["id"], two["protocol"], two["capabilities"]["score"]) == (2, 2, "totals")
    assert "end" in two["capabilities"]["absent_features"]


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_a_deal_gives_each_seat_our_cards(key: str) -> None:
    adapter = ADAPTERS[key]
    _need(adapter)
    deck, expected = _reference_deal(SEED)
    hello, setup, view, refused = _talk(
        adapter,
        [
            {"id": 1, "cmd": "hello", "protocol": 1},
            {"id": 2, "cmd": "setup", "variant": "classic", "parameters": {}, "deck": deck},
            {"id": 3, "cmd": "view", "seat": 0},
            {"id": 4, "cmd": "apply", "seat": 1, "action": {"type": "draw"}},
        ],
    )
    assert hello["ok"] and setup == {"ok": True, "id": 2}
    got = view["view"]
    assert sorted(got["hand"]) == sorted(expected["hand"])
    assert (got["to_act"], got["phase"], got["hand_sizes"]) == (0, "draw", expected["hand_sizes"])
    assert refused["accepted"] is False


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_bad_requests_are_answered_not_crashed(key: str) -> None:
    adapter = ADAPTERS[key]
    _need(adapter)
    answers = _talk(
        adapter,
        [
            {"id": 1, "cmd": "setup", "variant": "classic", "deck": "KH KH"},
            {"id": 2, "cmd": "apply", "action": {"type": "draw"}},
            {"id": 3, "cmd": "teleport"},
        ],
    )
    assert [a["ok"] for a in answers] == [False, False, False]
    assert all(isinstance(a["error"], str) and a["error"] for a in answers)


@pytest.mark.parametrize("path", REPORTS, ids=[p.stem for p in REPORTS])
def test_committed_reports_are_complete_and_clean(path: Path) -> None:
    report = json.loads(path.read_text(encoding="utf-8"))
    assert {"engine", "counts", "results", "adapter"} <= set(report)
    assert report["adapter"]["repository"] == ADAPTERS[path.stem].repository
    assert re.fullmatch(r"[0-9a-f]{7,40}", report["adapter"]["commit"])
    assert sum(report["counts"].values()) == len(report["results"])
    text = path.read_text(encoding="utf-8")
    assert "/work/" not in text and "/home/" not in text and "/tmp/" not in text


def test_there_is_a_report_for_each_adapter() -> None:
    assert {p.stem for p in REPORTS} == set(ADAPTERS)


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_each_adapter_readme_names_its_repository_and_commit(key: str) -> None:
    adapter = ADAPTERS[key]
    readme = (adapter.folder / "README.md").read_text(encoding="utf-8")
    assert adapter.repository in readme
    assert re.search(r"\b[0-9a-f]{7,40}\b", readme)
    assert adapter.commit in readme
    assert (adapter.folder / "DEVIATIONS.md").is_file()


def test_reports_lose_this_machines_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COS_ENGINE", "/srv/checkouts/canasta-openspiel")
    adapter = ADAPTERS["cos"]
    pairs = conform_adapters.placeholders(adapter)
    report = {"stderr": f"{adapter.engine_dir}/canasta/x.py failed in {conform_adapters.ROOT}/conformance"}
    assert conform_adapters.scrub(report, pairs) == {"stderr": "<COS_ENGINE>/canasta/x.py failed in <repo>/conformance"}


def test_an_absent_engine_is_skipped_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FEUD_ENGINE", str(tmp_path / "nowhere"))
    adapter = ADAPTERS["feud"]
    args = conform_adapters.argparse.Namespace(games=1, no_known_failures=True, write_known_failures=False)
    ran: list[list[str]] = []

    def runner(command: list[str]) -> int:
        ran.append(command)
        return 0

    outcome = conform_adapters.run_adapter(adapter, args, runner=runner)
    assert outcome["status"] == "skipped" and "README.md" in outcome["reason"] and not ran


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_an_unset_engine_variable_is_named_with_what_to_set(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    adapter = ADAPTERS[key]
    monkeypatch.delenv(adapter.env, raising=False)
    assert adapter.engine_dir is None
    why = adapter.missing()
    assert why == (
        f"{key} engine not found: set {adapter.env} to a checkout of {adapter.repository} at commit "
        f"{adapter.commit}: see conformance/adapters/{key}/README.md"
    )


def _start(adapter: Any, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The adapter's run.sh started with only ``environment`` (and a PATH), given nothing to read."""
    return subprocess.run(
        [adapter.command],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", **environment},
    )


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_run_sh_without_the_engine_says_which_variable_to_set(key: str) -> None:
    adapter = ADAPTERS[key]
    done = _start(adapter, {})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"{key} adapter: {adapter.env} is not set: set it to a checkout of {adapter.repository} at commit "
        f"{adapter.commit} (see conformance/adapters/{key}/README.md)\n"
    )


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_run_sh_with_a_folder_that_is_no_checkout_names_the_missing_file(key: str, tmp_path: Path) -> None:
    adapter = ADAPTERS[key]
    done = _start(adapter, {adapter.env: str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.startswith(f"{key} adapter: {adapter.env}={tmp_path} has no {adapter.marker}: ")


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_run_sh_without_its_runtime_says_which_variable_to_set(key: str, tmp_path: Path) -> None:
    adapter = ADAPTERS[key]
    (tmp_path / adapter.marker).parent.mkdir(parents=True)
    (tmp_path / adapter.marker).write_text("", encoding="utf-8")
    done = _start(adapter, {adapter.env: str(tmp_path), adapter.runtime_env: str(tmp_path / "no-such-program")})
    assert done.returncode == 2
    assert done.stderr.startswith(f"{key} adapter: {tmp_path / 'no-such-program'} not found: ")
    assert f"set {adapter.runtime_env}" in done.stderr


def test_the_cos_adapter_on_a_python_without_open_spiel_says_so(tmp_path: Path) -> None:
    adapter = ADAPTERS["cos"]
    (tmp_path / adapter.marker).parent.mkdir(parents=True)
    (tmp_path / adapter.marker).write_text("", encoding="utf-8")
    done = subprocess.run(
        [adapter.command],
        input=json.dumps({"id": 1, "cmd": "hello", "protocol": 2}) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "COS_ENGINE": str(tmp_path), "COS_PYTHON": sys.executable},
    )
    answer = json.loads(done.stdout)
    assert answer["ok"] is False and answer["id"] == 1
    assert answer["error"] == (
        f"the engine could not be loaded from {tmp_path}: {sys.executable} has no open_spiel: "
        "pip install open_spiel, or set COS_PYTHON to a Python with it"
    )


def _cos_adapter_module() -> Any:
    """The cos adapter's module, loaded from its file (it imports the engine only when it starts)."""
    spec = importlib.util.spec_from_file_location(
        "cos_adapter", ROOT / "conformance" / "adapters" / "cos" / "adapter.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cos_holds_the_melded_flags_play_can_give_and_skips_the_others() -> None:
    cos = _cos_adapter_module()
    queens = {"rank": 11, "natural_cards": [11, 24, 37], "wild_cards": []}
    # South has melded for North-South, North has not: the engine's side with melds, held.
    assert cos.melded_unheld([False, False, True, False], [[queens], []]) == ""
    assert cos.melded_unheld([False] * 4, [[], []]) == ""
    # East has melded but East-West have no meld: no play gives it.
    assert cos.melded_unheld([False, True, False, False], [[queens], []]).startswith(
        "a player who has melded in a side with no meld"
    )
    with pytest.raises(cos.Unexpressible, match="melded must be four true/false flags"):
        cos.melded_unheld([True, "yes", False, False], [[queens], []])
