// Report and KB sets published with write_files_atomic never lose an input (qaplan/io.hpp).
#include <gtest/gtest.h>

#include <fstream>

#include "qaplan/io.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::slurp;

// A directory holding the user's own faq.jsonl as a plain file: publishing a set with that name
// into it would swap the file for a link into the new generation — the input must be refused.
TEST(WriteFilesAtomic, AnInputAtAPublishedNameIsNeverReplaced) {
  qaplan::test::ScratchDir t("publish");
  const fs::path faq = t.path() / "faq.jsonl";
  std::ofstream(faq) << "mine\n";
  const auto r = qaplan::write_files_atomic(t.path(), {{"faq.jsonl", "new\n"}}, {faq});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().file, faq.string());
  EXPECT_FALSE(fs::is_symlink(faq));
  EXPECT_EQ(slurp(faq), "mine\n");
  EXPECT_FALSE(fs::exists(t.path() / "current"));
}

// Read through a published name, an input lives in the generation this publish keeps: allowed.
TEST(WriteFilesAtomic, AnInputReadThroughAPublishedLinkIsKept) {
  qaplan::test::ScratchDir t("publish");
  ASSERT_TRUE(qaplan::write_files_atomic(t.path(), {{"rules.toml", "a\n"}}).ok());
  const auto r =
      qaplan::write_files_atomic(t.path(), {{"rules.toml", "b\n"}}, {t.path() / "rules.toml"});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(slurp(t.path() / "rules.toml"), "b\n");
}

}  // namespace
