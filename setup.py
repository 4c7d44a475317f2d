"""Build of the compiled searches: each game's `_core.c` (games/adaman/, games/royal_assassin/
over the game-agnostic search skeleton solver/_search_core.h; games/devils_throne/, its own
simultaneous-move search); metadata is in pyproject.toml.

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


def core(package: str) -> Extension:
    return Extension(
        f"games.{package}._core",
        sources=[f"games/{package}/_core.c"],
        depends=["solver/_search_core.h"],
        include_dirs=["solver"],
        extra_compile_args=["-O3", "-std=c11"],
    )


setup(
    ext_modules=[core("adaman"), core("royal_assassin"), core("devils_throne")],
    cmdclass={"build_ext": OptionalBuildExt},
)
