// Result / Status semantics and the structured Error (status.hpp).
#include "qaplan/status.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using qaplan::BadResultAccess;
using qaplan::Error;
using qaplan::ErrorCode;
using qaplan::Result;
using qaplan::Status;

Result<int> half(int v) {
  if (v % 2 != 0) return qaplan::make_error(ErrorCode::kInvalidInput, "odd", "v");
  return v / 2;
}

Status needs_even(int v) {
  QAPLAN_TRY(half(v));
  return {};
}

Result<int> quarter(int v) {
  QAPLAN_ASSIGN_OR_RETURN(const int h, half(v));
  QAPLAN_ASSIGN_OR_RETURN(int q, half(h));
  return q;
}

TEST(Status, ErrorOnSuccessThrowsForBothKinds) {
  const Result<int> ok = 3;
  EXPECT_THROW((void)ok.error(), BadResultAccess);
  const Status fine;
  EXPECT_THROW((void)fine.error(), BadResultAccess);
  const Result<int> bad = qaplan::make_error(ErrorCode::kIo, "x");
  EXPECT_THROW((void)bad.value(), BadResultAccess);
  const Status failed = qaplan::make_error(ErrorCode::kIo, "x");
  EXPECT_THROW(failed.value(), BadResultAccess);
  EXPECT_EQ(failed.error().code, ErrorCode::kIo);
}

TEST(Status, ValueOr) {
  EXPECT_EQ(half(8).value_or(-1), 4);
  EXPECT_EQ(half(7).value_or(-1), -1);
  const Result<std::string> s = std::string("a");
  EXPECT_EQ(s.value_or("b"), "a");
}

TEST(Status, TryAndAssignOrReturnPropagateTheError) {
  EXPECT_TRUE(needs_even(4).ok());
  const Status st = needs_even(3);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "odd");
  EXPECT_EQ(quarter(8).value(), 2);
  ASSERT_FALSE(quarter(6).ok());  // 6 → 3 is odd on the second step
  EXPECT_EQ(quarter(6).error().field, "v");
}

TEST(Status, WhereJoinsFileLineColumnAndField) {
  Error e = qaplan::make_file_error(ErrorCode::kInvalidConfig, "must be > 0", "rules.toml", 14,
                                    "[retrieval_strategy.defaults] faq_top_k");
  EXPECT_EQ(e.where(), "rules.toml:14 [retrieval_strategy.defaults] faq_top_k");
  e.column = 3;
  EXPECT_EQ(e.to_string(), "rules.toml:14:3 [retrieval_strategy.defaults] faq_top_k: must be > 0");
  const Error json = qaplan::make_file_error(ErrorCode::kInvalidInput, "unknown field", "d.json", 0,
                                             "queries[2].x");
  EXPECT_EQ(json.to_string(), "d.json: queries[2].x: unknown field");
  EXPECT_EQ(qaplan::make_error(ErrorCode::kInvalidInput, "empty", "question").to_string(),
            "question: empty");
  EXPECT_EQ(qaplan::make_error(ErrorCode::kInternal, "a\nb").to_string(), "a b");
}

}  // namespace
