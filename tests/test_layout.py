"""The house's shape, read from the code's own imports: the solver, the Python API and the
application (usurper/) know games only through the contract, games know neither, the solver
knows no caller, the import graph has no circle, the compiled sources compose one way, and the
README's layout names what is there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "solver", "usurper")
#: What the solver, the API, the application and the CLI may import of games/: the registry and the contract.
GAME_AGNOSTIC_IMPORTS = {"games", "games.base"}


def project_modules() -> dict[str, Path]:
    """Every module of the project by dotted name (packages by their __init__)."""
    modules = {"cli": ROOT / "cli.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `path` (module `name`) imports, at the top or inside a function alike."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:  # `from games.kings_reign import rules` imports a module
                submodule = f"{node.module}.{alias.name}"
                if submodule in modules:
                    found.add(submodule)
                elif not name.startswith(node.module + "."):  # a module's own compiled extension is no arrow up
                    found.add(node.module)
    return {module for module in found if module in modules}


def import_graph() -> nx.DiGraph:
    modules = project_modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        graph.add_edges_from((name, target) for target in imports_of(name, path, modules) if target != name)
    return graph


def test_solver_api_app_and_cli_import_no_specific_game():
    graph = import_graph()
    users = [name for name in graph if name == "cli" or name.split(".")[0] in ("solver", "usurper")]
    offending = sorted(f"{user} imports {target}" for user in users for target in graph.successors(user)
                       if target.startswith("games") and target not in GAME_AGNOSTIC_IMPORTS)
    assert offending == []


def test_games_never_import_the_solver_or_the_application():
    graph = import_graph()
    offending = sorted(f"{name} imports {target}" for name in graph if name.startswith("games")
                       for target in graph.successors(name) if target.split(".")[0] in ("solver", "usurper", "cli"))
    assert offending == []


def test_the_solver_never_imports_the_api_the_application_or_the_cli():
    graph = import_graph()
    offending = sorted(f"{name} imports {target}" for name in graph if name.startswith("solver")
                       for target in graph.successors(name) if target.split(".")[0] in ("usurper", "cli"))
    assert offending == []


def test_the_import_graph_has_no_circle():
    graph = import_graph()
    # A package's __init__ re-exporting its own modules is how a package names its public
    # class; a circle through it would still show as a module importing its package.
    circles = list(nx.simple_cycles(graph))
    assert circles == []


def test_every_game_package_has_the_one_layout():
    for package in ("adaman", "royal_assassin", "kings_reign", "devils_throne"):
        folder = ROOT / "games" / package
        for module in ("game.py", "rules.py", "notation.py"):
            assert (folder / module).is_file(), f"games/{package}/{module}"


def test_game_c_sources_include_nothing_of_the_solver():
    for source in (ROOT / "games").rglob("*.[ch]"):
        includes = re.findall(r'#include\s+"([^"]+)"', source.read_text())
        assert not [name for name in includes if "search" in name or "solver" in name], source


def test_readme_layout_names_only_what_is_there_and_every_package():
    text = (ROOT / "README.md").read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    named, folder = set(), Path(".")
    for line in block.splitlines():
        words = [word.strip(",;()") for word in line.split()]
        words = [word for word in words if word.endswith(("/", ".py", ".c", ".h", ".md", ".toml"))]
        if words and not line.startswith(" "):  # a row names its place first; bare names live there
            folder = Path(words[0]) if words[0].endswith("/") else Path(words[0]).parent
        for word in words:
            path = word if (ROOT / word).exists() else str(folder / word)
            assert (ROOT / path).exists(), f"README's layout names {word}, which is not in the tree"
            named.add(path)
    top = {path.name + "/" for path in ROOT.iterdir() if path.is_dir() and not path.name.startswith(".")
           and path.name not in ("build", "usurper.egg-info")
           and (any(path.rglob("*.py")) or any(path.rglob("*.c")))}
    top_named = {word.split("/")[0] + "/" for word in named if "/" in word}
    assert top - top_named == set()
    for package in ("adaman", "royal_assassin", "kings_reign", "devils_throne"):
        assert any(word.startswith(f"games/{package}") for word in named), package


def test_readme_stays_short():
    assert len((ROOT / "README.md").read_text().splitlines()) < 300


#: The search families' own modules: only solver/ may import them.  What lies outside reads
#: the solver's answers from solver.answers and asks through solver.analysis.
SEARCH_FAMILIES = ("solver.search", "solver.simultaneous", "solver.cycles")


def test_outside_the_solver_nothing_imports_a_search_family():
    graph = import_graph()
    outside = [name for name in graph if name.split(".")[0] != "solver"]
    offending = sorted(f"{name} imports {target}" for name in outside for target in graph.successors(name)
                       if target.startswith(SEARCH_FAMILIES))
    assert offending == []
