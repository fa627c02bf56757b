"""qaplan.bench.run() is `qaplan bench`: the same report.json apart from the timing members."""

from __future__ import annotations

import json

import pytest

from conftest import RULES, SOURCE_DIR, run_cli

EVAL = SOURCE_DIR / "eval_sets"


def strip_timing(obj):
    if isinstance(obj, dict):
        return {k: strip_timing(v) for k, v in obj.items() if k != "timing"}
    if isinstance(obj, list):
        return [strip_timing(v) for v in obj]
    return obj


@pytest.mark.parametrize("backend", ["local-tfidf", "cached"])
def test_report_equals_cli(qaplan, cli, tmp_path, backend):
    args = ["bench", "--backend", backend, "--dataset", str(EVAL / "policy-retrieval-v1.json"),
            "--output", str(tmp_path / "out"), "--config", str(RULES)]
    if backend == "cached":
        args += ["--query-vectors", str(EVAL / "vectors" / "local-tfidf.query-vectors.json"),
                 "--index-vectors", str(EVAL / "vectors" / "local-tfidf.index.json")]
    run_cli(cli, *args)
    want = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    got, markdown = qaplan.bench.run_with_markdown(EVAL / "policy-retrieval-v1.json",
                                                   backend=backend, config=RULES)
    assert strip_timing(got) == strip_timing(want)
    assert [m["name"] for m in got["methods"]][:3] == ["vector", "bm25", "rrf"]
    assert markdown.startswith("#") and "bm25" in markdown


def test_packaged_defaults(qaplan, monkeypatch):
    monkeypatch.delenv("QAPLAN_CONFIG", raising=False)
    assert qaplan.bench.default_dataset().is_file()
    report = qaplan.bench.run(backend="cached")  # the shipped pack beside the packaged dataset
    assert report["queries"] and {m["name"] for m in report["methods"]} >= {"vector", "bm25", "rrf"}


def test_tampered_dataset_is_refused_like_the_cli(qaplan, cli, tmp_path):
    # One changed value (not layout: the fingerprint is over the content) must be refused by
    # both, with the same message.
    original = (EVAL / "policy-retrieval-v1.json").read_text(encoding="utf-8")
    data = json.loads(original)
    key = "description"  # free text: still a valid dataset, only its fingerprint changes
    old = json.dumps(data[key], ensure_ascii=False)
    assert old in original, key
    tampered = tmp_path / "policy-retrieval-v1.json"
    tampered.write_text(original.replace(old, json.dumps(data[key] + "x", ensure_ascii=False), 1),
                        encoding="utf-8")
    with pytest.raises(qaplan.FingerprintMismatch) as info:
        qaplan.bench.run(tampered, fingerprints=EVAL / "fingerprints.json", config=RULES)
    assert "sha256 mismatch" in info.value.message
    r = run_cli(cli, "bench", "--backend", "local-tfidf", "--dataset", str(tampered), "--fingerprints", str(EVAL / "fingerprints.json"),
                "--output", str(tmp_path / "out"), "--config", str(RULES), check=False)
    assert r.returncode == 2 and not (tmp_path / "out" / "report.json").exists()
    assert info.value.message in r.stderr


def test_bad_inputs_raise(qaplan, tmp_path):
    with pytest.raises(qaplan.InvalidInput):
        qaplan.bench.run(backend="remote")
    with pytest.raises(qaplan.IoError):
        qaplan.bench.run(tmp_path / "missing.json")
    with pytest.raises(qaplan.InvalidInput):
        qaplan.bench.run(reported_hits=1)
    with pytest.raises(qaplan.InvalidInput):
        qaplan.bench.run(backend="local-tfidf", query_vectors=EVAL / "vectors" / "x.json")
