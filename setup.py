"""Build of the compiled Adaman search (games/_adaman_core.c); metadata is in pyproject.toml.

`pip install -e .` (or `pip install .`) compiles the extension with the platform's C
compiler and Python headers.  The pure-Python engines never need it: only
`--engine compiled` imports it.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games._adaman_core",
            sources=["games/_adaman_core.c"],
            extra_compile_args=["-O3", "-std=c11"],
        )
    ]
)
