"""Milvus requests in their users' shapes (docs/engines.md): every Milvus golden request
(tests/engines/golden/*.milvus-*.json) carries the same search as pymilvus keyword arguments and as
a REST v2 call. pymilvus is not a dependency: the stand-ins below have the signatures of pymilvus
2.5's MilvusClient.search / hybrid_search, AnnSearchRequest and RRFRanker, so a misspelt, missing
or misplaced argument fails here as it would against pymilvus. The REST bodies may use only the
fields of /v2/vectordb/entities/search and /hybrid_search."""

from __future__ import annotations

import json

import pytest

from conftest import SOURCE_DIR

GOLDEN = SOURCE_DIR / "tests" / "engines" / "golden"


class AnnSearchRequest:
    def __init__(self, data, anns_field, param, limit, expr=None, expr_params=None):
        assert isinstance(data, list) and len(data) == 1, data
        assert isinstance(anns_field, str) and anns_field
        assert isinstance(param, dict) and set(param) <= {"metric_type", "params"}, param
        assert isinstance(limit, int) and limit > 0
        assert expr is None or isinstance(expr, str)
        self.anns_field, self.limit, self.expr = anns_field, limit, expr


class RRFRanker:
    def __init__(self, k: int = 60):
        assert isinstance(k, int) and 0 < k < 16384, k
        self.k = k


# What MilvusClient.search passes on through **kwargs to the server (pymilvus 2.5).
SEARCH_KWARGS = {"group_by_field", "group_size", "strict_group_size", "offset",
                 "consistency_level", "round_decimal", "filter_params"}
CLASSES = {"AnnSearchRequest": AnnSearchRequest, "RRFRanker": RRFRanker}


class MilvusClient:
    def search(self, collection_name, data, filter="", limit=10, output_fields=None,
               search_params=None, timeout=None, partition_names=None, anns_field=None,
               **kwargs):
        assert set(kwargs) <= SEARCH_KWARGS, kwargs
        assert isinstance(data, list) and len(data) == 1
        assert set(search_params or {}) <= {"metric_type", "params"}, search_params
        return {"collection": collection_name, "limit": limit, "filter": filter,
                "anns_field": anns_field, "output_fields": output_fields,
                "group_by_field": kwargs.get("group_by_field")}

    def hybrid_search(self, collection_name, reqs, ranker, limit=10, output_fields=None,
                      timeout=None, partition_names=None, **kwargs):
        assert not kwargs, kwargs
        assert reqs and all(isinstance(r, AnnSearchRequest) for r in reqs)
        assert isinstance(ranker, RRFRanker)
        fields = [r.anns_field for r in reqs]
        return {"collection": collection_name, "limit": limit, "fields": fields,
                "k": ranker.k, "output_fields": output_fields}


def build(value):
    """Turns {"<Class>": {kwargs}} into the object, recursively."""
    if isinstance(value, list):
        return [build(v) for v in value]
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in CLASSES:
            name, kwargs = next(iter(value.items()))
            return CLASSES[name](**{k: build(v) for k, v in kwargs.items()})
        return {k: build(v) for k, v in value.items()}
    return value


def milvus_requests():
    files = sorted(GOLDEN.glob("*.milvus-*.json"))
    assert files, f"no Milvus golden files in {GOLDEN}"
    for f in files:
        for req in json.loads(f.read_text(encoding="utf-8"))["requests"]:
            yield f.name, req


REST_SEARCH = {"collectionName", "data", "annsField", "filter", "limit", "outputFields",
               "searchParams", "groupingField", "groupSize"}
REST_HYBRID = {"collectionName", "search", "rerank", "limit", "outputFields"}
REST_HYBRID_SUB = {"data", "annsField", "filter", "limit", "metricType", "params",
                   "groupingField"}


def test_every_milvus_request_builds_with_the_pymilvus_signatures():
    client = MilvusClient()
    seen = set()
    for name, req in milvus_requests():
        node, call = req["body"], req["pymilvus"]
        method = call["method"].removeprefix("MilvusClient.")
        assert method == req["api"], (name, req["name"])
        got = getattr(client, method)(**build(call["kwargs"]))
        # The same search as the Node SDK body.
        assert got["collection"] == node["collection_name"]
        assert got["limit"] == node["limit"]
        assert got["output_fields"] == node["output_fields"]
        if method == "search":
            assert got["filter"] == node.get("filter", "")
            assert got["anns_field"] == node["anns_field"]
            assert got["group_by_field"] == node.get("group_by_field")
        else:
            assert got["fields"] == [s["anns_field"] for s in node["data"]]
            assert got["k"] == node["rerank"]["params"]["k"]
            # One sub-request per vector field: what the Node SDK carries without loss.
            assert len(set(got["fields"])) == len(got["fields"]), (name, got["fields"])
        seen.add(method)
    assert seen == {"search", "hybrid_search"}, seen


def test_every_milvus_request_has_its_rest_v2_body():
    for name, req in milvus_requests():
        rest, node = req["rest"], req["body"]
        body = rest["body"]
        if req["api"] == "search":
            assert rest["path"] == "/v2/vectordb/entities/search"
            assert set(body) <= REST_SEARCH, (name, set(body) - REST_SEARCH)
            assert body["annsField"] == node["anns_field"]
            assert body.get("groupingField") == node.get("group_by_field")
        else:
            assert rest["path"] == "/v2/vectordb/entities/hybrid_search"
            assert set(body) <= REST_HYBRID, (name, set(body) - REST_HYBRID)
            for sub in body["search"]:
                assert set(sub) <= REST_HYBRID_SUB, (name, set(sub) - REST_HYBRID_SUB)
        assert body["collectionName"] == node["collection_name"]
        assert body["limit"] == node["limit"]


def test_the_stand_ins_refuse_what_pymilvus_refuses():
    with pytest.raises(TypeError):
        AnnSearchRequest(data=[[0.1]], anns_field="embedding", param={})  # no limit
    with pytest.raises(TypeError):
        RRFRanker(k=60, weights=[1])
    with pytest.raises(TypeError):
        MilvusClient().hybrid_search("c", ranker=RRFRanker(), limit=3)  # no reqs
    with pytest.raises(AssertionError):
        MilvusClient().search("c", [[0.1]], filters="x")  # not `filter`
