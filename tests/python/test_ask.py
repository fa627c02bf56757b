"""Planner.ask over a SavedIndex is `qaplan ask` (docs/python.md): the same dict for direct
answers, follow-ups, scoped and dated questions, with and without explain."""

from __future__ import annotations

import json
import time

import pytest

from conftest import NOW, RULES, SOURCE_DIR, run_cli


@pytest.fixture(scope="module")
def index_dir(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("ask") / "ix"
    run_cli(cli, "index", "build", "--corpus", str(SOURCE_DIR / "eval_sets" / "kb" / "docs.jsonl"),
            "--output", str(out))
    return out


CASES = [
    ("你好", [], None),
    ("出差住宿标准是多少", [], None),
    ("那病假呢", ["年假怎么申请"], None),
    ("审批流程", [], "legal"),
    ("去年第三季度的差旅费报销制度", [], None),
]


@pytest.mark.parametrize("question, history, source", CASES)
@pytest.mark.parametrize("explain", [False, True])
def test_ask_is_the_cli(qaplan, planner, cli, index_dir, question, history, source, explain):
    ix = qaplan.SavedIndex(index_dir)
    assert len(ix) == 267
    got = planner.ask(question, ix, history=history, source=source, now=NOW, explain=explain)
    args = ["ask", question, "--index", str(index_dir), "--now", NOW, "--config", str(RULES)]
    args += [a for h in history for a in ("--history", h)]
    if source:
        args += ["--source", source]
    if explain:
        args.append("--explain")
    assert got == json.loads(run_cli(cli, *args).stdout)
    if got["route"] == "retrieval":
        assert got["passages"] and all(p["text"] for p in got["passages"])


def test_an_index_without_its_store_is_refused(qaplan, cli, tmp_path):
    run_cli(cli, "index", "build", "--no-store", "--corpus",
            str(SOURCE_DIR / "eval_sets" / "kb" / "docs.jsonl"), "--output", str(tmp_path / "ix"))
    with pytest.raises(qaplan.IoError) as e:
        qaplan.SavedIndex(tmp_path / "ix")
    assert "docs.jsonl" in str(e.value)


def test_query_vectors_add_a_cosine_leg(qaplan, planner, cli, tmp_path):
    """The same hybrid request through Python and the CLI gives the same passages, and the
    document only the vector finds is among them."""
    docs = SOURCE_DIR / "eval_sets" / "kb" / "docs.jsonl"
    target = "doc-fin-travel-v2-05"
    ids = [json.loads(line)["id"] for line in docs.read_text(encoding="utf-8").splitlines() if line]
    (tmp_path / "v.jsonl").write_text(
        "".join(json.dumps({"id": i, "vector": [1, 0, 0, 0] if i == target else [0, 1, 0, 0]}) + "\n"
                for i in ids), encoding="utf-8")
    (tmp_path / "q.json").write_text("[[1, 0, 0, 0]]", encoding="utf-8")
    run_cli(cli, "index", "build", "--corpus", str(docs), "--vectors", str(tmp_path / "v.jsonl"),
            "--output", str(tmp_path / "ix"))
    got = planner.ask("出差住宿标准是多少", qaplan.SavedIndex(tmp_path / "ix"), now=NOW,
                      query_vectors=[[1, 0, 0, 0]])
    cli_out = run_cli(cli, "ask", "出差住宿标准是多少", "--index", str(tmp_path / "ix"), "--now", NOW,
                      "--config", str(RULES), "--vectors", str(tmp_path / "q.json")).stdout
    assert got == json.loads(cli_out)
    assert target in [p["id"] for p in got["passages"]]


def test_saved_index_load_memory_is_immune_and_mmap_notices_changes(qaplan, planner, cli, tmp_path):
    """SavedIndex had no load= and no unchanged(): a host could not choose the memory mode nor
    check a mapped index before a batch. A mapped bm25.qidx written over in place now raises
    IoError from unchanged() and from ask(); load="memory" answers as before."""
    run_cli(cli, "index", "build", "--corpus", str(SOURCE_DIR / "eval_sets" / "kb" / "docs.jsonl"),
            "--output", str(tmp_path / "ix"))
    mapped = qaplan.SavedIndex(tmp_path / "ix")
    memory = qaplan.SavedIndex(tmp_path / "ix", load="memory")
    mapped.unchanged()
    memory.unchanged()
    before = planner.ask("出差住宿标准是多少", memory, now=NOW)
    assert planner.ask("出差住宿标准是多少", mapped, now=NOW) == before
    live = tmp_path / "ix" / (tmp_path / "ix" / "CURRENT").read_text().strip() / "bm25.qidx"
    time.sleep(0.05)  # file times tick with the kernel's coarse clock
    with open(live, "r+b") as f:
        f.seek(64)
        f.write(b"XXXX")
    with pytest.raises(qaplan.IoError) as e:
        mapped.unchanged()
    assert "bm25.qidx" in str(e.value) and "changed on disk" in str(e.value)
    with pytest.raises(qaplan.IoError):
        planner.ask("出差住宿标准是多少", mapped, now=NOW)
    memory.unchanged()
    assert planner.ask("出差住宿标准是多少", memory, now=NOW) == before
    with pytest.raises(qaplan.InvalidInput) as e:
        qaplan.SavedIndex(tmp_path / "ix", load="disk")
    assert e.value.field == "load"
