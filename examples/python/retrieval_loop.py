#!/usr/bin/env python3
"""Planning inside a minimal retrieval loop over the shipped knowledge base (eval_sets/kb).

For each question:
  1. ``planner.prepare()`` decides: answer directly (greeting, hand-off, …) or retrieve, and how.
  2. ``planner.analyze()`` gives the retrieval query (a follow-up is rewritten with its history)
     and the query variants.
  3. The plan's knobs drive retrieval: FAQ first (``run_faq``, ``faq_top_k``), answered directly
     when the best FAQ's cosine reaches ``faq_direct_threshold``; else documents (``run_doc``,
     ``doc_top_k``) by hybrid BM25 + vector RRF, restricted to ``effective_sources``,
     ``prefer_table`` favouring table rows, then ``final_context_top_n`` contexts clipped to
     ``max_context_doc_chars`` / ``max_context_chars``.

The vectors are qaplan's built-in local TF-IDF (an offline stand-in: put your embedding model
there). Run from anywhere:

    PYTHONPATH=build/python python3 examples/python/retrieval_loop.py
    python3 examples/python/retrieval_loop.py --json "年假怎么申请" # one question, JSON out
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import qaplan

KB = Path(__file__).resolve().parents[2] / "eval_sets" / "kb"

DEMO = [
    ("你好", []),
    ("普通员工到一类城市出差住宿标准是多少？", []),
    ("报销费用超过5000需要谁审批", []),
    ("那经理呢", ["普通员工到一类城市出差住宿标准是多少？"]),
    ("年假有几天", []),
    ("帮我转人工", []),
]


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class Collection:
    """One collection searched by BM25 and by cosine (local TF-IDF + HNSW), fused by RRF."""

    records: list[dict]
    texts: list[str]
    bm25: qaplan.Bm25Index = field(init=False)
    embedder: qaplan.LocalTfidfEmbedder = field(init=False)
    vectors: qaplan.VectorIndex = field(init=False)

    def __post_init__(self) -> None:
        ids = [r["id"] for r in self.records]
        self.bm25 = qaplan.Bm25Index(self.texts, ids)
        self.embedder = qaplan.LocalTfidfEmbedder.fit(self.texts)
        rows = np.stack([self.embedder.embed(t) for t in self.texts])  # float32, read in place
        self.vectors = qaplan.VectorIndex(rows, ids)

    def cosine(self, query: str, k: int) -> list[qaplan.Hit]:
        try:
            q = self.embedder.embed(query)
        except qaplan.InvalidInput:  # no word of the collection: no vector hits
            return []
        return [h for h in self.vectors.search(q, k) if h.score > 0]

    def hybrid(self, queries: list[str]) -> list[qaplan.FusedHit]:
        """Every document that any path found, best first (k=0: no cut; the caller filters by
        source first and cuts after, so a source filter never empties a full list)."""
        lists = []
        for q in queries:  # every variant is one retrieval path; RRF fuses all of them
            lists += [self.cosine(q, 0), self.bm25.search(q, 0)]
        return qaplan.rrf(lists, k=60)


class KnowledgeBase:
    def __init__(self, kb: Path = KB) -> None:
        faq = read_jsonl(kb / "faq.jsonl")
        docs = read_jsonl(kb / "docs.jsonl")
        self.faq = Collection(faq, [r["question"] for r in faq])
        self.docs = Collection(docs, [f"{r['title']} {r['section']} {r['text']}" for r in docs])


def answer(planner: qaplan.Planner, kb: KnowledgeBase, question: str, history: list[str]) -> dict:
    prep = planner.prepare(question, history)
    out: dict = {"question": question, "route": prep.route.reason}
    if prep.is_direct_answer:
        out.update(kind="direct", reply=prep.route.reply)
        return out
    plan = prep.plan
    analysis = planner.analyze(prep)
    query = analysis.rewrite.query  # a follow-up's rewrite; the question itself otherwise
    variants = [v.text for v in analysis.variants if not v.hypothetical] or [query]
    allowed = set(prep.effective_sources)  # empty: every source
    out.update(intent=prep.intent.intent, reason=plan.reason, retrieval_query=query,
               sources=sorted(allowed), final_context_top_n=plan.final_context_top_n,
               max_context_chars=plan.max_context_chars)

    def in_scope(rec: dict) -> bool:
        return not allowed or rec["source"] in allowed

    if plan.run_faq:
        faq_hits = [h for h in kb.faq.cosine(query, 0) if in_scope(kb.faq.records[h.doc])]
        faq_hits = faq_hits[: plan.faq_top_k]
        if faq_hits and faq_hits[0].score >= plan.faq_direct_threshold:
            best = kb.faq.records[faq_hits[0].doc]
            out.update(kind="faq", faq_id=best["id"], source=best["source"],
                       score=round(faq_hits[0].score, 4), threshold=plan.faq_direct_threshold,
                       reply=best["answer"])
            return out

    contexts: list[dict] = []
    if plan.run_doc:
        hits = [h for h in kb.docs.hybrid(variants) if in_scope(kb.docs.records[h.doc])]
        hits = hits[: plan.doc_top_k]
        if plan.prefer_table:  # stable: table rows first, RRF order otherwise kept
            hits.sort(key=lambda h: kb.docs.records[h.doc]["kind"] != "table_row")
        budget = plan.max_context_chars
        for h in hits[: plan.final_context_top_n]:
            rec = kb.docs.records[h.doc]
            text = rec["text"][: min(plan.max_context_doc_chars, budget)]
            if not text:
                break
            budget -= len(text)
            contexts.append({"id": rec["id"], "source": rec["source"], "title": rec["title"],
                             "kind": rec["kind"], "text": text, "rrf": round(h.score, 6)})
    out.update(kind="contexts", contexts=contexts)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("question", nargs="?", help="one question (default: a short demo dialogue)")
    ap.add_argument("--history", action="append", default=[], help="an earlier turn (repeat)")
    ap.add_argument("--json", action="store_true", help="one JSON object per question")
    args = ap.parse_args(argv)
    planner = qaplan.Planner.from_default()
    kb = KnowledgeBase()
    todo = [(args.question, args.history)] if args.question else DEMO
    for q, history in todo:
        result = answer(planner, kb, q, history)
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
            continue
        print(f"\n? {q}" + (f"   (history: {' / '.join(history)})" if history else ""))
        if result["kind"] in ("direct", "faq"):
            tag = result.get("faq_id", result["route"])
            print(f"  [{result['kind']} {tag}] {result['reply']}")
        else:
            print(f"  plan {result['reason']}; retrieving for: {result['retrieval_query']}")
            for c in result["contexts"]:
                print(f"  - {c['id']} {c['title']}: {c['text'][:60]}…")
    return 0


if __name__ == "__main__":
    sys.exit(main())
