#pragma once
// The planners many planning tests share, one of each per test process: the shipped config as it
// ships (router model on) and with the model off (the rules alone). Shared so that test files
// compiled in one unity batch (tests/CMakeLists.txt) do not each define their own.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace qaplan::test {

/// The shipped config with the router model off.
inline Config rules_only() {
  Config c = load_config(shipped_config()).value();
  c.model.enabled = false;
  return c;
}

inline const Planner& rules_planner() {
  static const Planner p = Planner::create(rules_only()).value();
  return p;
}

/// The shipped config as it ships.
inline const Planner& planner() {
  static const Planner p = Planner::create(load_config(shipped_config()).value()).value();
  return p;
}

/// `q` after `history` through the shipped planner; a failed prepare() fails the test.
inline Preparation prep(const std::string& q, std::vector<std::string> history = {}) {
  auto r = planner().prepare(PrepareRequest{q, std::move(history), "", std::nullopt});
  EXPECT_TRUE(r.ok()) << q << ": " << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? std::move(r).value() : Preparation{};
}

}  // namespace qaplan::test
