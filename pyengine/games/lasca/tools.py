"""Lasca's worker tools (declared in ``__init__``, exported by the shell under their names).

``perft`` counts move sequences in whatever interpreter runs it, so the benchmark
``bench/lasca_perft_pyodide.py`` can compare Pyodide with CPython.
"""

import time

from ...core.errors import TabernaError
from .rules import START, parse, perft

MAX_DEPTH = 16


def perft_call(request: dict) -> dict:
    """``{"depth", "lfen"?}`` -> ``{"results": [{"depth", "nodes", "seconds"}, ...]}``."""
    depth = request.get("depth")
    if type(depth) is not int or not 0 < depth <= MAX_DEPTH:
        raise TabernaError("The depth must be a whole number from 1 to 16", "bad_request")
    try:
        position = parse(request.get("lfen") or START)
    except ValueError as error:
        raise TabernaError(f"Not a position: {error}", "bad_request") from error
    results = []
    for ply in range(1, depth + 1):
        began = time.perf_counter()
        nodes = perft(position, ply)
        results.append({"depth": ply, "nodes": nodes, "seconds": time.perf_counter() - began})
    return {"results": results}


TOOLS = {"perft": perft_call}
