"""Ranking through Python: tokens are the tokenizer vectors; BM25, vector and hybrid results over
the shipped knowledge base equal `qaplan search`; bad input raises qaplan.InvalidInput."""

from __future__ import annotations

import json
import math

import time

import pytest

from conftest import DATA, RULES, SOURCE_DIR, read_jsonl, run_cli

KB = SOURCE_DIR / "eval_sets" / "kb"


@pytest.fixture(scope="module")
def np():
    return pytest.importorskip("numpy", reason="SKIPPED: numpy is not installed (apt-get install python3-numpy)")


@pytest.fixture(scope="module")
def corpus():
    docs = read_jsonl(KB / "docs.jsonl")
    return [d["id"] for d in docs], [d["text"] for d in docs]


@pytest.fixture(scope="module")
def queries():
    out = []
    for row in read_jsonl(KB / "faq.jsonl"):
        out.append((row["id"], row["question"]))
        out += [(f"{row['id']}-p{i}", p) for i, p in enumerate(row["paraphrases"])]
    out.append(("no-token", "，。！"))
    out.append(("unknown", "zzzz qqqq"))
    return out


def tsv(qid, hits, query, qaplan):
    # `qaplan search --format tsv` keeps a query without tokens as one marked row.
    if not hits and not qaplan.tokenize(query):
        return f"{qid}\t0\t-\t0\tno_tokens\n"
    return "".join(f"{qid}\t{r}\t{h.id}\t{h.score:.9g}\n" for r, h in enumerate(hits, start=1))


def cli_search(cli, tmp_path, ids, texts, queries, *args):
    c = tmp_path / "corpus.jsonl"
    q = tmp_path / "queries.jsonl"
    c.write_text("".join(json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n"
                         for i, t in zip(ids, texts)), encoding="utf-8")
    q.write_text("".join(json.dumps({"id": i, "query": t}, ensure_ascii=False) + "\n"
                         for i, t in queries), encoding="utf-8")
    return run_cli(cli, "search", "--corpus", str(c), "--queries", str(q), "--format", "tsv",
                   "--config", str(RULES), *args).stdout


def test_tokenizer_vectors(qaplan):
    rows = read_jsonl(DATA / "tokenizer_vectors.jsonl")
    assert len(rows) > 40
    for row in rows:
        assert qaplan.tokenize(row["text"]) == row["tokens"], row["text"]
    assert qaplan.TOKENIZER_VERSION == "nfkc-cjk-bigrams-ascii-1"


def test_tokenize_equals_cli(qaplan, cli, tmp_path, corpus):
    ids, texts = corpus
    f = tmp_path / "t.jsonl"
    f.write_text("".join(json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n"
                         for i, t in zip(ids, texts)), encoding="utf-8")
    out = run_cli(cli, "tokenize", "--input", str(f), "--format", "tsv").stdout
    want = "".join(f"{i}\t{' '.join(qaplan.tokenize(t))}\n" for i, t in zip(ids, texts))
    assert out == want


@pytest.mark.parametrize("norms", ["exact", "lucene"])
def test_bm25_equals_cli(qaplan, cli, tmp_path, corpus, queries, norms):
    ids, texts = corpus
    index = qaplan.Bm25Index(texts, ids, norms=norms)
    assert len(index) == len(texts) and index.norms == norms
    assert index.tokenizer == qaplan.TOKENIZER_VERSION
    got = "".join(tsv(qid, hits, q, qaplan) for (qid, q), hits in
                  zip(queries, index.search_many([q for _, q in queries], 10)))
    want = cli_search(cli, tmp_path, ids, texts, queries, "--mode", "bm25", "--k", "10",
                      "--norms", norms)
    assert got.count("\n") > 1000
    assert got == want
    # search() one at a time gives the same lists as search_many()
    for qid, q in queries[:50]:
        assert tsv(qid, index.search(q, 10), q, qaplan) in want


def test_bm25_load_memory_is_immune_and_mmap_notices_changes(qaplan, tmp_path, corpus):
    """load="memory" reads the file into memory; a mapped index whose file is
    written over in place raises from unchanged() instead of being read."""
    ids, texts = corpus
    path = tmp_path / "bm25.qidx"
    qaplan.Bm25Index(texts, ids).save(path)
    mapped = qaplan.Bm25Index.load(path)
    memory = qaplan.Bm25Index.load(path, load="memory")
    q = "出差住宿标准是多少"
    before = memory.search(q, 5)
    mapped.unchanged()
    time.sleep(0.05)  # file times tick with the kernel's coarse clock: let the write get a new one
    with open(path, "r+b") as f:
        f.write(b"XXXX")
    with pytest.raises(qaplan.IoError):
        mapped.unchanged()
    memory.unchanged()
    assert memory.search(q, 5) == before
    with pytest.raises(qaplan.InvalidInput):
        qaplan.Bm25Index.load(path, load="disk")


def test_bm25_from_tokens_save_load(qaplan, tmp_path, corpus):
    ids, texts = corpus
    index = qaplan.Bm25Index(texts, ids)
    by_tokens = qaplan.Bm25Index.from_tokens([qaplan.tokenize(t) for t in texts], ids)
    q = "出差住宿标准是多少"
    assert [(h.doc, h.score, h.id) for h in by_tokens.search(qaplan.tokenize(q), 5)] == \
        [(h.doc, h.score, h.id) for h in index.search(q, 5)]
    path = tmp_path / "bm25.qidx"
    index.save(path)
    loaded = qaplan.Bm25Index.load(path)
    assert loaded.checksum == index.checksum and len(loaded) == len(index)
    assert loaded.search(q, 0) == index.search(q, 0)
    assert index.doc_id(0) == ids[0] and index.doc_id(10**6) is None
    assert index.doc_freq("住宿") > 0 and index.num_terms > 100 and index.avgdl > 10
    hit = index.search(q, 1)[0]
    doc, score = hit
    assert (doc, score) == (hit.doc, hit.score) and hit.id == ids[hit.doc]
    corrupt = tmp_path / "corrupt.qidx"
    corrupt.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(qaplan.InvalidInput) as info:
        qaplan.Bm25Index.load(corrupt)
    assert info.value.file and "corrupt.qidx" in info.value.file
    with pytest.raises(qaplan.IoError):
        qaplan.Bm25Index.load(tmp_path / "missing.qidx")


def _tfidf_collection(qaplan, np, ids, texts):
    """What `qaplan search --mode vector` builds: local TF-IDF fitted on the corpus texts, one row
    per document that has a token (in document order)."""
    emb = qaplan.LocalTfidfEmbedder.fit(texts)
    rows, row_doc = [], []
    for d, t in enumerate(texts):
        if qaplan.tokenize(t):
            rows.append(emb.embed(t))
            row_doc.append(d)
    vectors = np.stack(rows)
    assert vectors.dtype == np.float32 and vectors.shape == (len(rows), emb.dimensions)
    return emb, qaplan.VectorIndex(vectors, [ids[d] for d in row_doc]), row_doc


def _vector_hits(qaplan, emb, vindex, row_doc, text, k):
    try:
        q = emb.embed(text)
    except qaplan.InvalidInput:  # no corpus token: no vector hits, as in the CLI
        return []
    return [qaplan.Hit(row_doc[h.doc], h.score, h.id) for h in vindex.search(q, k) if h.score > 0]


def test_vector_and_hybrid_equal_cli(qaplan, np, cli, tmp_path, corpus, queries):
    ids, texts = corpus
    emb, vindex, row_doc = _tfidf_collection(qaplan, np, ids, texts)
    bm25 = qaplan.Bm25Index(texts, ids)

    got_vec = "".join(tsv(qid, _vector_hits(qaplan, emb, vindex, row_doc, q, 10), q, qaplan) for qid, q in queries)
    want_vec = cli_search(cli, tmp_path, ids, texts, queries, "--mode", "vector", "--k", "10")
    assert got_vec.count("\n") > 1000
    assert got_vec == want_vec

    got_hyb = []
    for qid, q in queries:
        fused = qaplan.rrf([_vector_hits(qaplan, emb, vindex, row_doc, q, 0), bm25.search(q, 0)], k=60)
        got_hyb.append(tsv(qid, fused[:10], q, qaplan))
    want_hyb = cli_search(cli, tmp_path, ids, texts, queries, "--mode", "hybrid", "--k", "10")
    assert "".join(got_hyb) == want_hyb


def test_vector_index_numpy(qaplan, np, tmp_path):
    rng = np.random.default_rng(7)
    base = rng.standard_normal((300, 16)).astype(np.float32)
    index = qaplan.VectorIndex(base, ef_search=300)
    assert len(index) == 300 and index.dimensions == 16
    q = base[17]
    hits = index.search(q, 5)
    assert hits[0].doc == 17 and math.isclose(hits[0].score, 1.0, rel_tol=1e-6)
    assert hits == index.search_exact(q, 5)
    # other dtypes and plain lists are converted; the results are the same
    assert index.search(q.astype(np.float64), 5) == hits
    assert index.search(q.tolist(), 5) == hits
    many = index.search_many(base[:20], 3)
    assert [m[0].doc for m in many] == list(range(20))
    assert index.search_many(base[:20], 3, exact=True) == many
    # a non-contiguous view is accepted too (copied)
    assert index.search(base[::1, :][17][::-1][::-1], 5) == hits
    path = tmp_path / "hnsw.qidx"
    index.save(path)
    loaded = qaplan.VectorIndex.load(path, [f"r{i}" for i in range(300)])
    assert [(h.doc, h.score) for h in loaded.search(q, 5)] == [(h.doc, h.score) for h in hits]
    assert loaded.search(q, 1)[0].id == "r17"


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda np: np.zeros((3,), np.float32), "vectors"),  # 1-D
        (lambda np: np.array([[1, 0], [0, 0]], np.float32), None),  # an all-zero row
        (lambda np: np.array([[1, 0], [np.nan, 1]], np.float32), None),  # NaN
        (lambda np: "not an array", "vectors"),
        (lambda np: np.zeros((2, 0), np.float32), None),  # no dimensions
    ],
)
def test_vector_index_bad_input(qaplan, np, make, field):
    with pytest.raises(qaplan.InvalidInput) as info:
        qaplan.VectorIndex(make(np))
    if field:
        assert info.value.field == field


def test_vector_search_bad_input(qaplan, np):
    index = qaplan.VectorIndex(np.eye(4, dtype=np.float32))
    for bad in (np.zeros(4, np.float32), np.ones(3, np.float32), np.ones((2, 4), np.float32),
                np.array([np.inf, 0, 0, 0], np.float32), "abc"):
        with pytest.raises(qaplan.InvalidInput):
            index.search(bad)
    with pytest.raises(qaplan.InvalidInput):
        index.search_many(np.ones(4, np.float32))
    with pytest.raises(qaplan.InvalidInput):
        qaplan.VectorIndex(np.eye(4, dtype=np.float32), ids=["a"])
    # ids are checked as a BM25 index checks them (a lone surrogate, a control byte were kept)
    for bad in ("\ud800", "c\x1b", ""):
        with pytest.raises(qaplan.InvalidInput) as info:
            qaplan.VectorIndex(np.eye(4, dtype=np.float32), ids=["a", "b", bad, "d"])
        assert info.value.field == "ids[2]", bad
    with pytest.raises(qaplan.InvalidInput):
        qaplan.LocalTfidfEmbedder.fit(["好的"]).embed("zzz")


def test_rrf_formula_and_inputs(qaplan):
    a = [qaplan.Hit(2, 0.9, "c"), qaplan.Hit(0, 0.5, "a")]
    b = [(0, 12.0), (1, 3.0)]
    fused = qaplan.rrf([a, b], k=60)
    by_doc = {h.doc: h for h in fused}
    assert set(by_doc) == {0, 1, 2}
    assert by_doc[0].score == 1 / 62 + 1 / 61
    assert by_doc[2].score == 1 / 61 and by_doc[1].score == 1 / 62
    assert [h.doc for h in fused] == [0, 2, 1]  # 2 and 1 differ; ties would go to the lower doc
    assert by_doc[0].ranks == [2, 1] and by_doc[0].list_scores == [0.5, 12.0]
    assert by_doc[1].ranks == [None, 2] and by_doc[2].id == "c" and by_doc[0].id == "a"
    weighted = qaplan.rrf([[5], [6]], k=10, weights=[2.0, 1.0])
    assert [(h.doc, h.score) for h in weighted] == [(5, 2.0 / 11), (6, 1.0 / 11)]
    assert qaplan.rrf([]) == []
    with pytest.raises(qaplan.InvalidInput):
        qaplan.rrf([[1, 1]])  # a document twice in one list
    with pytest.raises(qaplan.InvalidInput):
        qaplan.rrf([[1]], weights=[1.0, 2.0])
    with pytest.raises(qaplan.InvalidConfig):
        qaplan.rrf([[1]], k=0)
    for bad in ([["x"]], [[(1,)]], [[-1]], "ab", [5]):
        with pytest.raises(qaplan.InvalidInput):
            qaplan.rrf(bad)


def test_bad_ranking_input_raises(qaplan):
    with pytest.raises(qaplan.InvalidInput) as info:
        qaplan.tokenize(b"\xc3\x28")
    assert info.value.field == "text"
    with pytest.raises(qaplan.InvalidInput):
        qaplan.tokenize(None)
    with pytest.raises(qaplan.InvalidInput):
        qaplan.Bm25Index("not a list")
    with pytest.raises(qaplan.InvalidInput) as info:
        qaplan.Bm25Index(["ok", "\udcff"])
    assert info.value.field == "texts[1]"
    with pytest.raises(qaplan.InvalidInput):
        qaplan.Bm25Index(["a", "b"], ids=["x"])
    # ids as the CLI takes them: one document per id, no control characters
    with pytest.raises(qaplan.InvalidInput) as info:
        qaplan.Bm25Index(["a", "b"], ids=["x", "x"])
    assert info.value.field == "id" and "duplicate id" in str(info.value)
    # ... and valid text: a lone surrogate (invalid UTF-8 once encoded) was accepted
    for bad in ("x\x1b[31m", "x\x00", "x\ty", "x\x85", "\ud800", "x\udcff", ""):
        with pytest.raises(qaplan.InvalidInput) as info:
            qaplan.Bm25Index(["a", "b"], ids=["ok", bad])
        assert info.value.field == "ids[1]", bad
        with pytest.raises(qaplan.InvalidInput) as info:
            qaplan.Bm25Index.from_tokens([["a"], ["b"]], ids=["ok", bad])
        assert info.value.field == "ids[1]", bad
    # constructor arguments are input, not config: InvalidInput naming the argument
    for kwargs, field in (({"norms": "bm42"}, "norms"), ({"b": 2.0}, "b"), ({"k1": -1.0}, "k1"),
                          ({"k1": float("nan")}, "k1")):
        with pytest.raises(qaplan.InvalidInput) as info:
            qaplan.Bm25Index(["a"], **kwargs)
        assert info.value.field == field, kwargs
    index = qaplan.Bm25Index(["a b", "b c"])
    assert index.search("b", 10)[0].id is None
    assert index.search([], 10) == [] and index.search("", 10) == []
    with pytest.raises(qaplan.InvalidInput):
        index.search(b"\xff")
    with pytest.raises(qaplan.InvalidInput):
        index.search(3)
