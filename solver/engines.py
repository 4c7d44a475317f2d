"""The engines the single-player search offers (solver/search.py), named here alone so that the
command line can list them without importing the search."""

ENGINES = ("auto", "plain", "pruned", "cpsat", "compiled", "compiled-plain")
