#pragma once
// The shipped rules with the router model off and the shipped knowledge base, built once per test
// executable: the executor's tests (retrieval) and the threshold bands' (eval) plan and retrieve
// the same way. The model is off because these tests pick plans by their questions, and the
// router model (on or off in the shipped file) must not change which plan they get.
#include <stdexcept>
#include <utility>

#include "qaplan/retrieval/executor.hpp"
#include "qaplan/retrieval/kb.hpp"
#include "test_support.hpp"

namespace qaplan::test {

struct ShippedKb {
  Planner planner;
  KbIndex kb;
};

inline const ShippedKb& shipped_kb() {
  static const ShippedKb s = [] {
    auto cfg = load_config(shipped_config());
    if (!cfg.ok()) throw std::runtime_error(cfg.error().to_string());
    cfg->model.enabled = false;
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) throw std::runtime_error(planner.error().to_string());
    auto kb = read_knowledge_base(source_dir() / "eval_sets" / "kb");
    if (!kb.ok()) throw std::runtime_error(kb.error().to_string());
    auto index = KbIndex::create(std::move(kb).value());
    if (!index.ok()) throw std::runtime_error(index.error().to_string());
    return ShippedKb{std::move(planner).value(), std::move(index).value()};
  }();
  return s;
}

}  // namespace qaplan::test
