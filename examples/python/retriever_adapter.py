#!/usr/bin/env python3
"""How a LlamaIndex / LangChain-style retriever consumes a qaplan plan (plain Python: no
framework is imported, so this runs anywhere qaplan does).

A framework retriever is "query in, scored documents out", configured by a few knobs. qaplan's
plan is exactly those knobs, decided per question:

    plan field                      LlamaIndex                          LangChain
    doc_top_k / faq_top_k           similarity_top_k                    search_kwargs["k"]
    effective_sources               MetadataFilters(source IN …)        search_kwargs["filter"]
    min_context_score               SimilarityPostprocessor(cutoff)     search_kwargs["score_threshold"]
    rerank, final_context_top_n     a reranker's top_n                  ContextualCompressionRetriever
    max_context_(doc_)chars         the response synthesizer's budget   the prompt's stuffing budget
    rewrite.query, variants         QueryFusionRetriever's queries      MultiQueryRetriever's queries
    route = direct_answer           skip retrieval, reply               skip retrieval, reply

``PlannedRetriever`` wraps any base search function ``search(query, top_k, filters) -> hits`` (a
vector store, BM25, a remote index) and exposes both interfaces: ``retrieve()`` returning
LlamaIndex-like ``NodeWithScore`` objects and ``invoke()`` / ``get_relevant_documents()``
returning LangChain-like ``Document`` objects. With the real frameworks you would subclass
``BaseRetriever`` and return their classes instead of the small stand-ins below.

    PYTHONPATH=build/python python3 examples/python/retriever_adapter.py
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import qaplan

KB = Path(__file__).resolve().parents[2] / "eval_sets" / "kb"


# --- stand-ins for the frameworks' value classes (same field names) -------------------------
@dataclass
class Document:  # langchain_core.documents.Document
    page_content: str
    metadata: Dict[str, Any] = field(default_factory=dict)


@dataclass
class TextNode:  # llama_index.core.schema.TextNode
    text: str
    id_: str
    metadata: Dict[str, Any] = field(default_factory=dict)


@dataclass
class NodeWithScore:  # llama_index.core.schema.NodeWithScore
    node: TextNode
    score: Optional[float] = None


@dataclass
class SearchHit:
    id: str
    text: str
    score: float
    metadata: Dict[str, Any]


SearchFn = Callable[[str, int, Dict[str, Any]], List[SearchHit]]


@dataclass
class RetrievalSettings:
    """The plan, translated into the knobs retrievers take."""

    direct_reply: Optional[str]  # not None: answer this, retrieve nothing
    queries: List[str]  # the rewrite first (what retrieval uses), then variants
    top_k: int
    filters: Dict[str, Any]  # {"source": {"$in": [...]}} or {}
    score_threshold: float
    rerank: bool
    final_top_n: int
    max_context_chars: int
    max_context_doc_chars: int
    prefer_table: bool
    reason: str

    def langchain_search_kwargs(self) -> Dict[str, Any]:
        """What ``vectorstore.as_retriever(search_type="similarity_score_threshold",
        search_kwargs=...)`` takes."""
        kw: Dict[str, Any] = {"k": self.top_k, "score_threshold": self.score_threshold}
        if self.filters:
            kw["filter"] = self.filters
        return kw

    def llamaindex_kwargs(self) -> Dict[str, Any]:
        """What ``index.as_retriever(...)`` plus a ``SimilarityPostprocessor`` take."""
        kw: Dict[str, Any] = {"similarity_top_k": self.top_k,
                              "similarity_cutoff": self.score_threshold}
        if self.filters:
            kw["filters"] = {"key": "source", "operator": "in", "value": self.filters["source"]["$in"]}
        return kw


def settings_for(planner: qaplan.Planner, question: str, history: Sequence[str] = (),
                 source: Optional[str] = None) -> RetrievalSettings:
    prep = planner.prepare(question, list(history), source=source)
    if prep.is_direct_answer:
        return RetrievalSettings(prep.route.reply, [], 0, {}, 1.0, False, 0, 0, 0, False,
                                 prep.route.reason)
    plan = prep.plan
    analysis = planner.analyze(prep)
    queries = [analysis.rewrite.query] + [v.text for v in analysis.variants
                                          if not v.hypothetical and v.text != analysis.rewrite.query]
    filters = {"source": {"$in": list(prep.effective_sources)}} if prep.effective_sources else {}
    return RetrievalSettings(
        direct_reply=None, queries=queries, top_k=plan.doc_top_k, filters=filters,
        score_threshold=plan.min_context_score, rerank=plan.rerank,
        final_top_n=plan.final_context_top_n, max_context_chars=plan.max_context_chars,
        max_context_doc_chars=plan.max_context_doc_chars, prefer_table=plan.prefer_table,
        reason=plan.reason)


class PlannedRetriever:
    """A retriever whose settings come from qaplan, per question."""

    def __init__(self, planner: qaplan.Planner, search: SearchFn) -> None:
        self.planner = planner
        self.search = search
        self.last_settings: Optional[RetrievalSettings] = None

    def _hits(self, question: str, history: Sequence[str]) -> List[SearchHit]:
        s = self.last_settings = settings_for(self.planner, question, history)
        if s.direct_reply is not None:
            return []
        # Every query is one path; fuse them by RRF (what QueryFusionRetriever / MultiQuery do).
        lists = [self.search(q, s.top_k, s.filters) for q in s.queries]
        by_id = {h.id: h for hits in lists for h in hits}
        order = {hid: i for i, hid in enumerate(by_id)}
        fused = qaplan.rrf([[(order[h.id], h.score) for h in hits] for hits in lists])
        ids = list(by_id)
        out = [by_id[ids[f.doc]] for f in fused]
        if s.prefer_table:
            out.sort(key=lambda h: h.metadata.get("kind") != "table_row")
        out, budget = out[: s.final_top_n], s.max_context_chars
        clipped = []
        for h in out:
            text = h.text[: min(s.max_context_doc_chars, budget)]
            if not text:
                break
            budget -= len(text)
            clipped.append(SearchHit(h.id, text, h.score, h.metadata))
        return clipped

    # LlamaIndex's BaseRetriever.retrieve()
    def retrieve(self, question: str, history: Sequence[str] = ()) -> List[NodeWithScore]:
        return [NodeWithScore(TextNode(h.text, h.id, h.metadata), h.score)
                for h in self._hits(question, history)]

    # LangChain's Runnable.invoke() / BaseRetriever.get_relevant_documents()
    def invoke(self, question: str, history: Sequence[str] = ()) -> List[Document]:
        return [Document(h.text, dict(h.metadata, id=h.id, score=h.score))
                for h in self._hits(question, history)]

    get_relevant_documents = invoke


def bm25_search_over_kb(kb: Path = KB) -> SearchFn:
    """A base search function: BM25 over the knowledge base's document chunks, metadata filters
    applied after ranking (what a vector store does with a metadata filter)."""
    docs = [json.loads(line) for line in (kb / "docs.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    index = qaplan.Bm25Index([f"{d['title']} {d['text']}" for d in docs], [d["id"] for d in docs])

    def search(query: str, top_k: int, filters: Dict[str, Any]) -> List[SearchHit]:
        allowed = set(filters.get("source", {}).get("$in", [])) if filters else set()
        out = []
        for h in index.search(query, 0):
            d = docs[h.doc]
            if allowed and d["source"] not in allowed:
                continue
            out.append(SearchHit(d["id"], d["text"], h.score,
                                 {k: d[k] for k in ("source", "title", "section", "kind")}))
            if len(out) == top_k:
                break
        return out

    return search


def main() -> int:
    retriever = PlannedRetriever(qaplan.Planner.from_default(), bm25_search_over_kb())
    for question, history in [("年假有几天", []), ("那婚假呢", ["年假有几天"]), ("谢谢", [])]:
        docs = retriever.invoke(question, history)
        s = retriever.last_settings
        print(json.dumps({
            "question": question,
            "reason": s.reason,
            "queries": s.queries,
            "langchain_search_kwargs": s.langchain_search_kwargs() if s.direct_reply is None else None,
            "llamaindex_kwargs": s.llamaindex_kwargs() if s.direct_reply is None else None,
            "direct_reply": s.direct_reply,
            "documents": [d.metadata["id"] for d in docs],
        }, ensure_ascii=False))
        nodes = retriever.retrieve(question, history)
        assert [n.node.id_ for n in nodes] == [d.metadata["id"] for d in docs]
    return 0


if __name__ == "__main__":
    sys.exit(main())
