"""Build of the compiled searches (games/_adaman_core.c, games/_royal_assassin_core.c, both
over the shared search skeleton games/_search_core.h); metadata is in pyproject.toml.

`pip install -e .` (or `pip install .`) compiles the extensions with the platform's C
compiler and Python headers.  The pure-Python engines never need them: only engines
`compiled` and `auto` import them (and `auto` falls back to Python without them).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games._adaman_core",
            sources=["games/_adaman_core.c"],
            depends=["games/_search_core.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        Extension(
            "games._royal_assassin_core",
            sources=["games/_royal_assassin_core.c"],
            depends=["games/_search_core.h"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
    ]
)
