// ask_index in process (include/qaplan/retrieval/ask.hpp) over a saved index of the shipped knowledge
// base: passages with text, and where the time went — planning against retrieval.
#include "qaplan/retrieval/ask.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <thread>

#include "qaplan/ranking/index_dir.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

struct SavedKb {
  test::ScratchDir dir{"ask"};
  std::optional<CollectionIndex> index;
  std::optional<DocStore> store;
  std::optional<Planner> planner;

  SavedKb() {
    const auto corpus = test::source_dir() / "eval_sets" / "kb" / "docs.jsonl";
    auto bm25 = build_bm25_from_jsonl(corpus);
    EXPECT_TRUE(bm25.ok());
    auto bytes = make_doc_store(corpus, *bm25);
    EXPECT_TRUE(bytes.ok());
    EXPECT_TRUE(save_collection_index(dir.path(), *bm25, nullptr, {}, &*bytes).ok());
    index.emplace(CollectionIndex::open(dir.path()).value());
    store.emplace(DocStore::open(*index).value());
    planner.emplace(Planner::create(load_config(test::shipped_config()).value()).value());
  }
};

TEST(Ask, TimesPlanningAndRetrievalApart) {
  const SavedKb kb;
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  const auto t0 = std::chrono::steady_clock::now();
  auto r = ask_index(*kb.planner, {"出差住宿标准是多少", {}, "", std::nullopt}, ctx, *kb.index,
                     *kb.store);
  const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - t0)
                        .count();
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_TRUE(r->analysis.has_value());
  ASSERT_FALSE(r->passages.empty());
  EXPECT_FALSE(r->passages.front().text.empty());
  const AskTimings& t = r->timings;
  EXPECT_GT(t.prepare_ns, 0);
  EXPECT_GT(t.analyze_ns, 0);
  EXPECT_GT(t.retrieve_ns, 0);
  EXPECT_LE(t.prepare_ns + t.analyze_ns + t.retrieve_ns, wall);

  // A direct answer plans and searches nothing.
  auto hi = ask_index(*kb.planner, {"你好", {}, "", std::nullopt}, ctx, *kb.index, *kb.store);
  ASSERT_TRUE(hi.ok());
  EXPECT_FALSE(hi->analysis.has_value());
  EXPECT_TRUE(hi->passages.empty());
  EXPECT_GT(hi->timings.prepare_ns, 0);
  EXPECT_EQ(hi->timings.analyze_ns, 0);
  EXPECT_EQ(hi->timings.retrieve_ns, 0);
}

// A mapped index written over in place after it was opened: ask_index refuses it, naming the
// file, before its searches read it (it searched the changed bytes); one loaded into memory
// answers as before.
TEST(Ask, AMappedIndexChangedOnDiskIsRefusedBeforeTheSearches) {
  const SavedKb kb;
  auto memory = CollectionIndex::open(kb.dir.path(), true, true, /*in_memory=*/true);
  ASSERT_TRUE(memory.ok());
  const PrepareRequest req{"出差住宿标准是多少", {}, "", std::nullopt};
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  const auto before = ask_index(*kb.planner, req, ctx, *memory, *kb.store);
  ASSERT_TRUE(before.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a new coarse mtime
  const auto live = kb.index->generation() / kBm25IndexFile;
  {
    std::fstream over(live, std::ios::binary | std::ios::in | std::ios::out);
    over.seekp(64);
    over.write("XXXX", 4);
  }
  auto r = ask_index(*kb.planner, req, ctx, *kb.index, *kb.store);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().file, live.string());
  auto again = ask_index(*kb.planner, req, ctx, *memory, *kb.store);
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->passages.size(), before->passages.size());
  for (std::size_t i = 0; i < before->passages.size(); ++i)
    EXPECT_EQ(again->passages[i].id, before->passages[i].id);
}

// A planned scope that holds nothing is searched again at the Preparation's fallback width,
// with a note; the host's own source is not widened.
TEST(Ask, AnEmptyPlannedScopeIsSearchedAgainWider) {
  test::ScratchDir dir{"ask-wide"};
  const auto corpus = dir.path() / "docs.jsonl";
  {
    std::ofstream out(corpus);
    out << R"({"id": "f1", "source": "finance", "text": "年假期间的差旅费用不予报销。"})" << "\n"
        << R"({"id": "f2", "source": "finance", "text": "差旅住宿标准按城市等级执行。"})" << "\n";
  }
  auto bm25 = build_bm25_from_jsonl(corpus);
  ASSERT_TRUE(bm25.ok()) << bm25.error().to_string();
  auto bytes = make_doc_store(corpus, *bm25);
  ASSERT_TRUE(bytes.ok());
  const auto saved = dir.path() / "index";
  ASSERT_TRUE(save_collection_index(saved, *bm25, nullptr, {}, &*bytes).ok());
  auto index = CollectionIndex::open(saved).value();
  auto store = DocStore::open(index).value();
  const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";

  auto r = ask_index(planner, {"年假怎么申请", {}, "", std::nullopt}, ctx, index, store);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->preparation.effective_sources, std::vector<std::string>{"hr"});
  ASSERT_FALSE(r->passages.empty());
  EXPECT_EQ(r->passages.front().id, "f1");
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes.front().find("every source"), std::string::npos) << r->notes.front();

  auto host = ask_index(planner, {"年假怎么申请", {}, "", std::string("hr")}, ctx, index, store);
  ASSERT_TRUE(host.ok());
  EXPECT_TRUE(host->passages.empty());
  EXPECT_TRUE(host->notes.empty());
}

}  // namespace
