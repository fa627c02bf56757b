#!/usr/bin/env python3
"""Builds eval_sets/intent_policy.json, the sample set of `qaplan eval-policy` (docs/evaluation.md).

Every expectation is a LABEL (what a person says is right), never the planner's output:
  - the worked examples of tests/data/golden_plans.jsonl, as they are stated (critical);
  - tests/data/trap_questions.jsonl: work questions holding an out-of-scope / handoff / social
    word stay on retrieval, real out-of-scope and handoff requests are answered (critical);
  - tests/data/labelled_plans.jsonl and own_plans.jsonl route expectations (critical);
  - scenario samples: narrowing and source boundaries (critical);
  - tests/data/followups.jsonl, test split: follow-up or not, and the source (warning: judged by
    the model in the grey zone);
  - tests/data/category_source.jsonl, test split: category and source phrased without any listed
    word (warning: the model's job).
Usage: scripts/make_intent_policy.py [OUT]   (default eval_sets/intent_policy.json)
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
OUT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "eval_sets" / "intent_policy.json"


def rows(name):
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


samples = []


def add(severity, question, note, history=None, scenario=None, source_filter=None, **expect):
    s = {"id": f"p-{len(samples) + 1:04d}", "severity": severity, "question": question}
    if history:
        s["history"] = history
    if scenario:
        s["scenario"] = scenario
    if source_filter:
        s["source_filter"] = source_filter
    s["note"] = note
    for k, v in expect.items():
        s["expected_" + k] = v
    samples.append(s)


# --- the worked examples (五类问题的参数体感 / 典型运行结果) ------------------------------------
add("critical", "异地入职材料办理时需要准备哪些资料和审批信息", "seed: FAQ query",
    route="retrieval", intent="FAQ_QUERY",
    plan_contains={"run_faq": True, "run_doc": True, "doc_top_k": 10, "use_query_variants": False,
                   "faq_direct_threshold": 0.64, "reason": "faq_first"})
add("critical", "公司会议室预约规则在哪里查看以及需要遵守哪些流程要求", "seed: knowledge query",
    route="retrieval", intent="KNOWLEDGE_QUERY",
    plan_contains={"doc_top_k": 24, "final_context_top_n": 5, "use_query_variants": True,
                   "reason": "knowledge_doc_enriched"})
add("critical", "那审批呢", "seed: follow-up (faq_direct_threshold at least 0.82)",
    history=["报销流程是什么"], route="retrieval", intent="FOLLOW_UP", requires_rewrite=True,
    source="finance",
    plan_contains={"faq_top_k": 24, "doc_top_k": 24, "use_query_variants": True,
                   "faq_direct_threshold": 0.82})
add("critical", "报销费用超过5000需要谁审批", "seed: pricing",
    route="retrieval", source="finance",
    plan_contains={"question_category": "pricing", "faq_direct_threshold": 0.84,
                   "final_context_top_n": 6, "doc_top_k": 24,
                   "reason": "faq_first_short_query_guard_pricing_guard"})
add("critical", "材料清单里的付款金额字段是什么", "seed: table row",
    route="retrieval",
    plan_contains={"prefer_table": True, "faq_direct_exact_only": True, "final_context_top_n": 7,
                   "reason": "faq_first_pricing_guard_table_row_preferred"})
add("critical", "帮我分析一下这个问题", "seed: low decision score fallback",
    route="retrieval", rule_score_min=0.6, rule_score_max=0.6, confidence_max=0.7,
    decision_policy="rule_only",
    plan_contains={"faq_direct_exact_only": True, "faq_direct_threshold": 0.86,
                   "final_context_top_n": 6})

# --- whole-message decisions (docs/guide.md, dialogue acts) -----------------------------------
for r in rows("trap_questions.jsonl"):
    if r["expect_route"] == "retrieval":
        add("critical", r["question"], f"trap word {r['trap']} in a work question", route="retrieval")
    else:
        add("critical", r["question"], f"a real {r['expect_reason']} request",
            route="direct_answer", route_reason=r["expect_reason"])

# --- the labelled route tables -------------------------------------------------------------------
for name in ("labelled_plans.jsonl", "own_plans.jsonl"):
    for r in rows(name):
        e = r["expect"]
        extra = {}
        if "route_reason" in e:
            extra["route_reason"] = e["route_reason"]
        if "intent" in e:
            extra["intent"] = e["intent"]
        add("critical", r["question"], f"{name} row", history=r.get("history"),
            scenario=r.get("scenario"), source_filter=r.get("source"), route=e["route"], **extra)

# --- scenarios --------------------------------------------------------------------------------
add("critical", "这个怎么弄", "hr_helpdesk: no source → narrowed, never everything",
    scenario="hr_helpdesk", route="retrieval")
add("critical", "发票丢了如何补开", "hr_helpdesk: a finance question is out of bounds",
    scenario="hr_helpdesk", route="direct_answer", route_reason="source_boundary")
add("critical", "年假怎么申请", "hr_helpdesk: an hr question", scenario="hr_helpdesk",
    route="retrieval", source="hr")
add("critical", "那审批呢", "hr_helpdesk: follow-up carrying a finance topic",
    history=["报销流程是什么"], scenario="hr_helpdesk", route="direct_answer",
    route_reason="source_boundary")
add("critical", "年假怎么申请", "explicit filter wins", source_filter="legal", route="retrieval",
    source="legal")

# --- follow-ups (test split) -------------------------------------------------------------------
for r in rows("followups.jsonl"):
    if r["split"] != "test" or r["kind"] == "social":
        continue
    extra = {"requires_rewrite": r["follow_up"]}
    if r["follow_up"]:
        extra["intent"] = "FOLLOW_UP"
    if r["source"]:
        extra["source"] = r["source"]
    add("warning", r["question"], f"follow-up set ({r['kind']})", history=r["history"],
        route="retrieval", **extra)

# --- categories and sources without listed words (test split) ---------------------------------
for r in rows("category_source.jsonl"):
    if r["split"] != "test":
        continue
    add("warning", r["question"], "category/source without listed words", route="retrieval",
        source=r["source"], plan_contains={"question_category": r["category"]})

doc = {
    "version": "intent-policy-1",
    "description": "Labelled samples for `qaplan eval-policy` (the intent policy's labelled questions; docs/evaluation.md). "
                   "Built by scripts/make_intent_policy.py from tests/data; expectations are "
                   "labels, not planner output. critical = must hold for CI; warning = reported.",
    "samples": samples,
}
OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
crit = sum(s["severity"] == "critical" for s in samples)
print(f"{OUT}: {len(samples)} samples ({crit} critical, {len(samples) - crit} warning)")
