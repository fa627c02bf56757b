"""The frozen policy-retrieval benchmark (``qaplan bench``) from Python.

>>> report = qaplan.bench.run()              # local-tfidf backend, shipped dataset
>>> {m["name"]: m["threshold"] for m in report["methods"]}

The report is the library's ``report.json`` as a dict: identical to the CLI's apart from the
members named ``timing``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Optional, Tuple, Union

from . import _core
from ._paths import default_config, eval_sets_dir

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["run", "run_with_markdown", "default_dataset"]


def default_dataset() -> Path:
    """The packaged ``eval_sets/policy-retrieval-v1.json``."""
    return eval_sets_dir() / "policy-retrieval-v1.json"


def run_with_markdown(
    dataset: Optional[PathLike] = None,
    *,
    backend: str = "local-tfidf",
    fingerprints: Optional[PathLike] = None,
    query_vectors: Optional[PathLike] = None,
    index_vectors: Optional[PathLike] = None,
    config: Optional[PathLike] = None,
    reported_hits: int = 5,
) -> Tuple[Dict[str, Any], str]:
    """:func:`run` plus the ``report.md`` text."""
    ds = Path(dataset) if dataset is not None else default_dataset()
    if backend == "cached" and query_vectors is None and index_vectors is None:
        # The shipped pack beside the dataset (eval_sets/vectors/), as `scripts/test.sh` uses it.
        query_vectors = ds.parent / "vectors" / "local-tfidf.query-vectors.json"
        index_vectors = ds.parent / "vectors" / "local-tfidf.index.json"
    text, markdown = _core._bench_run(
        os.fspath(ds),
        os.fspath(fingerprints) if fingerprints is not None else "",
        backend,
        os.fspath(query_vectors) if query_vectors is not None else "",
        os.fspath(index_vectors) if index_vectors is not None else "",
        os.fspath(config) if config is not None else default_config(),
        reported_hits,
    )
    return json.loads(text), markdown


def run(
    dataset: Optional[PathLike] = None,
    *,
    backend: str = "local-tfidf",
    fingerprints: Optional[PathLike] = None,
    query_vectors: Optional[PathLike] = None,
    index_vectors: Optional[PathLike] = None,
    config: Optional[PathLike] = None,
    reported_hits: int = 5,
) -> Dict[str, Any]:
    """Runs the benchmark and returns ``report.json`` as a dict.

    Args:
        dataset: the dataset JSON (default: the packaged policy-retrieval-v1.json).
        backend: ``"local-tfidf"`` (built-in embedder) or ``"cached"`` (a vector pack).
        fingerprints: the fingerprint registry (default: fingerprints.json beside the dataset).
        query_vectors, index_vectors: the vector pack for ``"cached"`` (default: the shipped
            pack in ``vectors/`` beside the dataset).
        config: rules file whose ``[ranking.*]`` sets BM25/HNSW/RRF (default: as
            :meth:`Planner.from_default`).
        reported_hits: hits listed per query and method (>= 3).

    Raises:
        qaplan.FingerprintMismatch: the dataset is not the registered frozen version.
        qaplan.InvalidInput, qaplan.IoError, qaplan.InvalidConfig: bad inputs.
    """
    return run_with_markdown(
        dataset,
        backend=backend,
        fingerprints=fingerprints,
        query_vectors=query_vectors,
        index_vectors=index_vectors,
        config=config,
        reported_hits=reported_hits,
    )[0]
