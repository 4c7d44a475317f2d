"""Build of the compiled searches; metadata is in pyproject.toml.

Each extension `games.<game>._core` is one translation unit in native/, which composes, in
this order: the game's rules in C (games/<game>/_core.c), the solver's search skeleton over
them (solver/_search_core.h for Adaman and Royal Assassin, solver/_simultaneous_core.h for
Devil's Throne), then the Python binding.  Games include nothing from solver/ and the
skeletons know no game: native/ alone puts the two together.

The extensions are optional: where no C compiler (or no Python headers) is to be had, the
build of an extension fails quietly and the install goes on, and the engine `auto` then
uses the Python engines (saying so once on stderr).
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """Builds what it can: a failed extension is reported in one line, never fatal."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all: the distutils errors are not exported
            self._skip("the compiled engines", exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(ext.name, exc)

    @staticmethod
    def _skip(what: str, exc: Exception) -> None:
        print(f"usurper: {what} not built ({exc}); the Python engines will be used", file=sys.stderr)


#: Each game's extension and the search skeleton its native/ unit includes.
SKELETONS = {
    "adaman": "solver/_search_core.h",
    "royal_assassin": "solver/_search_core.h",
    "devils_throne": "solver/_simultaneous_core.h",
}


def core(package: str) -> Extension:
    return Extension(
        f"games.{package}._core",
        sources=[f"native/{package}.c"],
        depends=[f"games/{package}/_core.c", SKELETONS[package], "solver/_fields.h",
                 "solver/_table_memory.h"],
        extra_compile_args=["-O3", "-std=c11"],
    )


setup(
    ext_modules=[core(package) for package in SKELETONS],
    cmdclass={"build_ext": OptionalBuildExt},
)
