"""`import usurper`: every example of docs/api.md runs, the API agrees with the command line,
refuses bad arguments in one line, costs nothing to import, and what pip installs claims only
the layout's own top-level names."""

from __future__ import annotations

import doctest
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
import usurper
from games.base import UsurperError

ROOT = Path(__file__).resolve().parent.parent
#: What a wheel of the project may put at the top of site-packages: the layout's own names.
TOP_LEVEL = {"cli", "games", "solver", "usurper"}


def doctest_failures(text: str, name: str, globs: dict) -> list[str]:
    """Run the `>>>` examples of every ```python block of `text` in one namespace, in order."""
    parser, failures = doctest.DocTestParser(), []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for block in re.finditer(r"```python\n(.*?)```", text, re.S):
        line = text.count("\n", 0, block.start()) + 1
        test = parser.get_doctest(block.group(1), globs, f"{name}:{line}", name, line)
        runner.run(test, out=failures.append, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs in a copy: the next block sees what this one named
    return failures


def test_every_example_of_docs_api_runs():
    text = (ROOT / "docs" / "api.md").read_text()
    assert text.count(">>>") >= 10
    assert doctest_failures(text, "docs/api.md", {}) == []


def test_the_package_docstring_example_runs():
    assert doctest.testmod(usurper, optionflags=doctest.ELLIPSIS).failed == 0


def test_importing_usurper_imports_neither_the_solver_nor_the_games():
    code = "import sys, usurper\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    loaded = set(done.stdout.split())
    assert "usurper" in loaded
    assert not {name for name in loaded if name.split(".")[0] in ("games", "solver", "click", "cli")}


def test_solve_agrees_with_the_command_line():
    done = CliRunner().invoke(cli.usurper, ["solve", "royal-assassin", "--seed", "1", "--json"])
    assert done.exit_code == 0, done.output
    printed = json.loads(done.output)
    result = usurper.solve("royal-assassin", seed=1)
    assert (str(result.verdict), result.score, result.line_score) == (
        printed["verdict"], printed["optimal_score"], printed["line_score"])


def test_the_defaults_are_the_command_lines():
    from usurper.app.play import FAIR_SECONDS

    solve_limit = next(param for param in cli.solve_command.params if param.name == "time_limit").default
    for function in (usurper.solve, usurper.hint):
        assert inspect.signature(function).parameters["time_limit"].default == solve_limit
    assert inspect.signature(usurper.fair_hint).parameters["time_limit"].default == FAIR_SECONDS


def test_a_game_given_by_name_and_variants_is_the_game_made_with_them():
    by_name = usurper.solve("adaman", seed=5, variants=["excuse"], winnable_only=True)
    made = usurper.solve(usurper.make_game("adaman", ["excuse"]), seed=5, winnable_only=True)
    assert (by_name.verdict, by_name.line) == (made.verdict, made.line)
    assert by_name.mode == "winnable"


def test_the_position_after_moves_is_the_replayed_one():
    game, state = usurper.position("adaman", seed=5, moves="Huntress <- Journey + Chance Meeting")
    start = game.initial_state(game.deal_from_seed(5))
    assert state == game.apply_line(start, game.parse_line(start, "Huntress <- Journey + Chance Meeting"))


def test_a_fair_hint_from_the_visible_text_is_the_fair_hint_of_the_position():
    from solver.fair import visible_text

    game, state = usurper.position("adaman", seed=5)
    from_state = usurper.fair_hint(game, seed=5, samples=30, random_seed=3, time_limit=None)
    from_text = usurper.fair_hint("adaman", visible=visible_text(game, state), samples=30, random_seed=3,
                                  time_limit=None)
    assert (from_text.move_text, from_text.samples) == (from_state.move_text, from_state.samples)


@pytest.mark.parametrize("call, words", [
    (lambda: usurper.solve("adaman", seed=1, deal="Bet, Ori"), "exactly one of a seed or a deal"),
    (lambda: usurper.solve("adaman", seed=-1), "a seed is a whole number"),
    (lambda: usurper.solve("adaman", seed=5, time_limit=float("inf")), "is not a time limit"),
    (lambda: usurper.solve("adaman", seed=5, time_limit=0), "is not a time limit"),
    (lambda: usurper.solve("adaman", seed=5, max_states=0), "is not a number of states"),
    (lambda: usurper.solve("adaman", seed=5, seat=2), "asked of Devil's Throne"),
    (lambda: usurper.solve("devils-throne", seed=0, questions=["q9"]), "unknown question"),
    (lambda: usurper.solve(usurper.make_game("adaman"), seed=5, variants=["excuse"]), "already has its own"),
    (lambda: usurper.hint("devils-throne", seed=0), "usurper.solve(..., seat=N)"),
    (lambda: usurper.fair_hint("adaman", seed=5, visible="Deck: 24 left"), "give no seed, deal or moves"),
    (lambda: usurper.make_game("chess"), "unknown game"),
    (lambda: usurper.solve("adaman", seed=5, moves="Huntress <- Nothing"), "move 1"),
])
def test_bad_arguments_are_refused_in_one_line(call, words):
    with pytest.raises(UsurperError) as refused:
        call()
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_usurper_error_is_the_games_one_and_other_names_are_missing():
    assert usurper.UsurperError is UsurperError
    with pytest.raises(AttributeError):
        usurper.no_such_name  # noqa: B018


# ----- what pip installs ----------------------------------------------------------------------
def fresh_clone(target: Path) -> Path:
    """The files a clone of the working tree holds (tracked and new, nothing ignored: no
    build/, no compiled extension, no virtual environment)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def build_wheel(source: Path, out: Path, name: str) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(out)], check=True, capture_output=True, timeout=600)
    (wheel,) = out.glob(f"{name}-*.whl")
    return wheel


def top_level_names(wheel: Path) -> set[str]:
    names = zipfile.ZipFile(wheel).namelist()
    return {Path(name.split("/")[0]).stem for name in names if not name.split("/")[0].endswith(".dist-info")}


def other_app_distribution(folder: Path) -> Path:
    """A distribution that ships top-level `app` and `usurper_data` modules of its own."""
    folder.mkdir()
    (folder / "app.py").write_text("WHOSE = 'other'\n")
    (folder / "usurper_data.py").write_text("WHOSE = 'other'\n")
    (folder / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "other-app"\nversion = "1.0"\n[tool.setuptools]\npy-modules = ["app", "usurper_data"]\n')
    return folder


@pytest.mark.slow
def test_the_wheel_claims_only_the_layouts_names_and_works_beside_another_app(tmp_path):
    wheels = tmp_path / "wheels"
    wheel = build_wheel(fresh_clone(tmp_path / "clone"), wheels, "usurper")
    assert top_level_names(wheel) == TOP_LEVEL
    other = build_wheel(other_app_distribution(tmp_path / "other"), wheels, "other_app")
    assert top_level_names(other) == {"app", "usurper_data"}

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # The dependencies (ortools, click, ...) come from this environment, after the new one's own
    # site-packages: a path in a .pth file, whose own .pth files (this checkout's editable
    # install) are not read.
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel), str(other)],
                   check=True, capture_output=True, timeout=300)

    elsewhere = tmp_path / "elsewhere"  # not the checkout: nothing importable from the working directory
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    solved = subprocess.run([str(venv / "bin" / "usurper"), "solve", "adaman", "--seed", "5"], cwd=elsewhere,
                            env=env, capture_output=True, text=True, timeout=300)
    assert solved.returncode == 0, solved.stderr
    assert "Verdict: WON, optimal score 95" in solved.stdout
    code = ("import app, usurper, usurper.data, usurper_data\n"
            "from solver.catalogue.pick import SHIPPED_DIR\n"
            "print(app.WHOSE, usurper_data.WHOSE, usurper.solve('adaman', seed=5).score, usurper.__file__,"
            " (SHIPPED_DIR / 'adaman.jsonl').is_file(), SHIPPED_DIR)")
    done = subprocess.run([str(python), "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    whose, data_whose, score, package, shipped, shipped_dir = done.stdout.split()
    assert (whose, data_whose, score, shipped) == ("other", "other", "95", "True")
    assert Path(package).is_relative_to(venv) and Path(shipped_dir).is_relative_to(venv)
