// Streaming index build from JSONL (docs/indexes.md): the same documents and ranking as the
// load-everything path, the same errors as load_jsonl, identical bytes with any thread count, and
// the tokenizer's ASCII fast path agreeing with ICU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/icu.hpp"
#include "qaplan/io.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/doc_store.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/ranking/tokenizer.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::Bm25Index;
using qaplan::IndexBuildOptions;

class IndexBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-index-build-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return dir_ / name;
  }
  fs::path dir_;
};

// Mixed Chinese / ASCII / accented text, some empty documents, a BOM and blank lines.
std::string corpus_text(int n, std::uint64_t seed) {
  static const char* kWords[] = {"报销", "费用", "审批", "流程", "Hello", "WORLD", "sku-1234",
                                 "v2.3.1", "café", "年假", "怎么", "申请", "5000元", "ＡＢＣ"};
  std::mt19937_64 rng(seed);
  std::string s = "\xEF\xBB\xBF";
  for (int i = 0; i < n; ++i) {
    std::string text;
    const int len = static_cast<int>(rng() % 30);
    for (int j = 0; j < len; ++j) {
      text += kWords[rng() % (sizeof kWords / sizeof *kWords)];
      text += (rng() % 3 == 0) ? " " : "";
    }
    s += "{\"id\":\"d" + std::to_string(i) + "\",\"text\":\"" + text + "\",\"meta\":1}\n";
    if (i % 97 == 0) s += "  \n";
  }
  return s;
}

TEST_F(IndexBuild, StreamingBuildEqualsTokenizeThenCreate) {
  const auto path = write("c.jsonl", corpus_text(3000, 1));
  auto recs = qaplan::load_jsonl(path, qaplan::JsonlKind::kCorpus);
  ASSERT_TRUE(recs.ok());
  auto tok = qaplan::Tokenizer::create();
  ASSERT_TRUE(tok.ok());
  auto b = qaplan::Bm25Builder::create({}, qaplan::kTokenizerVersion);
  ASSERT_TRUE(b.ok());
  for (const auto& r : *recs) ASSERT_TRUE(b->add(*tok->tokenize(r.text), r.id).ok());
  auto want = b->finish();
  ASSERT_TRUE(want.ok());
  for (unsigned threads : {1u, 2u, 5u}) {
    IndexBuildOptions o;
    o.threads = threads;
    std::size_t calls = 0;
    o.progress = [&](std::size_t, std::uint64_t, std::uint64_t) { ++calls; };
    auto got = qaplan::build_bm25_from_jsonl(path, o);
    ASSERT_TRUE(got.ok()) << got.error().to_string();
    EXPECT_GE(calls, 1u);
    ASSERT_EQ(got->size(), recs->size());
    EXPECT_EQ(got->doc_id(17), (*recs)[17].id);
    EXPECT_TRUE(std::equal(got->image().begin(), got->image().end(), want->image().begin(),
                           want->image().end()))
        << "threads " << threads;
  }
}

TEST_F(IndexBuild, SameErrorsAsLoadJsonl) {
  const std::vector<std::string> bad = {
      "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"a\",\"text\":\"y\"}\n",  // duplicate id
      "{\"id\":\"a\",\"text\":\"x\"}\nnot json\n",
      "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"b\"}\n",
      "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"b\",\"text\":\"\xff\"}\n",
      "{\"id\":\"\",\"text\":\"x\"}\n",
      "{\"id\":\"a\",\"text\":3}\n",
  };
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const auto p = write("bad" + std::to_string(i) + ".jsonl", bad[i]);
    auto want = qaplan::load_jsonl(p, qaplan::JsonlKind::kCorpus);
    auto got = qaplan::build_bm25_from_jsonl(p);
    ASSERT_FALSE(want.ok());
    ASSERT_FALSE(got.ok()) << i;
    EXPECT_EQ(got.error().code, want.error().code) << i;
    EXPECT_EQ(got.error().file, want.error().file) << i;
    EXPECT_EQ(got.error().line, want.error().line) << i;
    EXPECT_EQ(got.error().field, want.error().field) << i;
  }
  auto missing = qaplan::build_bm25_from_jsonl(dir_ / "missing.jsonl");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, qaplan::ErrorCode::kIo);
}

TEST_F(IndexBuild, CollectionDirectoryRoundTrip) {
  const auto path = write("c.jsonl", corpus_text(500, 2));
  auto idx = qaplan::build_bm25_from_jsonl(path);
  ASSERT_TRUE(idx.ok());
  ASSERT_TRUE(qaplan::save_collection_index(dir_ / "ix", *idx).ok());
  auto opened = qaplan::CollectionIndex::open(dir_ / "ix");
  ASSERT_TRUE(opened.ok()) << opened.error().to_string();
  EXPECT_EQ(opened->vectors(), nullptr);
  EXPECT_EQ(opened->doc_id(3), "d3");
  const std::vector<std::string> q = {"报销", "费用", "hello"};
  EXPECT_EQ(opened->bm25().search(q, 10), idx->search(q, 10));
  // An index without ids, or from another tokenizer, is not a collection index.
  auto bare = qaplan::Bm25Index::create({{"a"}});
  ASSERT_TRUE(bare.ok());
  ASSERT_TRUE(bare->save(qaplan::current_generation(dir_ / "ix").value() / "bm25.qidx").ok());
  EXPECT_FALSE(qaplan::CollectionIndex::open(dir_ / "ix").ok());
  EXPECT_FALSE(qaplan::CollectionIndex::open(dir_ / "nothing").ok());
}

// Generations: a host that opened an index keeps searching it, whole, while newer
// generations are published and the one it mapped is removed from disk.
TEST_F(IndexBuild, AnOpenIndexOutlivesLaterGenerations) {
  auto first = qaplan::build_bm25_from_jsonl(write("c.jsonl", corpus_text(300, 2)));
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(qaplan::save_collection_index(dir_ / "ix", *first).ok());
  auto opened = qaplan::CollectionIndex::open(dir_ / "ix");
  ASSERT_TRUE(opened.ok()) << opened.error().to_string();
  const std::vector<std::string> q = {"报销", "费用"};
  const auto before = opened->bm25().search(q, 10);
  auto other = qaplan::build_bm25_from_jsonl(write("d.jsonl", corpus_text(50, 3)));
  ASSERT_TRUE(other.ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(qaplan::save_collection_index(dir_ / "ix", *other).ok());
  EXPECT_FALSE(std::filesystem::exists(dir_ / "ix" / "gen-0"));
  EXPECT_EQ(opened->bm25().search(q, 10), before);
  EXPECT_EQ(opened->doc_id(3), "d3");
  auto reopened = qaplan::CollectionIndex::open(dir_ / "ix");
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ(reopened->size(), other->size());
}

// Index loading: a mapped index whose file is written over in place (cp new old: same inode)
// or truncated is refused by unchanged() before it is read; one read into memory is immune; a
// file replaced by rename leaves the mapping intact.
TEST_F(IndexBuild, AFileChangedUnderAMappedIndexIsRefusedAndMemoryLoadIsImmune) {
  auto first = qaplan::build_bm25_from_jsonl(write("c.jsonl", corpus_text(300, 2)));
  auto other = qaplan::build_bm25_from_jsonl(write("d.jsonl", corpus_text(40, 5)));
  ASSERT_TRUE(first.ok() && other.ok());
  ASSERT_TRUE(qaplan::save_collection_index(dir_ / "ix", *first).ok());
  const auto live = qaplan::current_generation(dir_ / "ix").value() / "bm25.qidx";
  auto mapped = qaplan::CollectionIndex::open(dir_ / "ix");
  auto memory = qaplan::CollectionIndex::open(dir_ / "ix", true, true, /*in_memory=*/true);
  ASSERT_TRUE(mapped.ok() && memory.ok());
  EXPECT_TRUE(mapped->unchanged().ok());
  const std::vector<std::string> q = {"报销", "费用"};
  const auto before = mapped->bm25().search(q, 10);
  // Replaced by rename (another inode): the mapping still holds the old bytes.
  const auto img = other->image();
  ASSERT_TRUE(qaplan::write_file_atomic(
      live, std::string_view(reinterpret_cast<const char*>(img.data()), img.size())).ok());
  EXPECT_TRUE(mapped->unchanged().ok());
  EXPECT_EQ(mapped->bm25().search(q, 10), before);
  // Written over in place: refused, naming the file.
  auto mapped2 = qaplan::CollectionIndex::open(dir_ / "ix");
  ASSERT_TRUE(mapped2.ok());
  // File times tick with the kernel's coarse clock: let the write get a new one.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  {
    std::ofstream over(live, std::ios::binary | std::ios::in | std::ios::out);
    over.seekp(0);
    over.write("XXXX", 4);
  }
  const qaplan::Status changed = mapped2->unchanged();
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.error().code, qaplan::ErrorCode::kIo);
  EXPECT_EQ(changed.error().file, live.string());
  std::filesystem::resize_file(live, 100);  // truncated
  EXPECT_FALSE(mapped2->unchanged().ok());
  // In memory: nothing on disk reaches it.
  EXPECT_TRUE(memory->unchanged().ok());
  EXPECT_EQ(memory->bm25().search(q, 10), before);
}

// CURRENT was read by CollectionIndex::open and again by DocStore::open: a build published in
// between paired generation N's index with generation N+1's documents. The store now comes from
// the generation the index was opened from.
TEST_F(IndexBuild, TheStoreComesFromTheIndexsOwnGeneration) {
  auto publish = [&](const std::string& name, const std::string& prefix) {
    const fs::path corpus =
        write(name, "{\"id\":\"" + prefix + "1\",\"text\":\"年假\"}\n{\"id\":\"" + prefix +
                        "2\",\"text\":\"病假\"}\n");
    auto bm25 = qaplan::build_bm25_from_jsonl(corpus);
    ASSERT_TRUE(bm25.ok());
    auto store = qaplan::make_doc_store(corpus, *bm25);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE(qaplan::save_collection_index(dir_ / "ix", *bm25, nullptr, {}, &*store).ok());
  };
  publish("a.jsonl", "a");
  auto index = qaplan::CollectionIndex::open(dir_ / "ix");
  ASSERT_TRUE(index.ok());
  publish("b.jsonl", "b");  // after the index was opened, before its store
  EXPECT_EQ(index->generation(), dir_ / "ix" / "gen-0");
  auto store = qaplan::DocStore::open(*index);
  ASSERT_TRUE(store.ok()) << store.error().to_string();
  ASSERT_EQ(store->size(), index->size());
  for (std::size_t d = 0; d < index->size(); ++d)
    EXPECT_NE(store->line(d).find("\"id\":\"" + index->doc_id(d) + "\""), std::string::npos)
        << store->line(d);
}

// The corpus is read in 8 MiB chunks: a build over more than one chunk indexes every document.
TEST_F(IndexBuild, ACorpusLargerThanOneChunkIsIndexedWhole) {
  std::string corpus;
  const int n = 120000;
  for (int i = 0; i < n; ++i)
    corpus += "{\"id\":\"d" + std::to_string(i) + "\",\"text\":\"年假 申请 流程 第" +
              std::to_string(i) + "条 规定说明补充内容\"}\n";
  ASSERT_GT(corpus.size(), std::size_t{9} << 20);
  IndexBuildOptions o;
  o.threads = 2;
  auto ix = qaplan::build_bm25_from_jsonl(write("corpus.jsonl", corpus), o);
  ASSERT_TRUE(ix.ok()) << ix.error().to_string();
  EXPECT_EQ(ix->size(), static_cast<std::size_t>(n));
}

// The tokenizer skips ICU for pure-ASCII text; that must give exactly ICU's NFKC_Casefold.
TEST(TokenizerAsciiFastPath, AgreesWithIcuOnEveryAsciiByte) {
  auto tok = qaplan::Tokenizer::create();
  ASSERT_TRUE(tok.ok());
  for (int c = 1; c < 128; ++c) {
    const std::string s(1, static_cast<char>(c));
    std::string icu;
    ASSERT_TRUE(qaplan::internal::nfkc_casefold_into(s, icu).ok());
    std::string lowered = s;
    if (c >= 'A' && c <= 'Z') lowered[0] = static_cast<char>(c - 'A' + 'a');
    EXPECT_EQ(icu, lowered) << "byte " << c;
  }
  // And on whole strings: fast path (ASCII) == slow path (same text plus a non-ASCII separator).
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000; ++i) {
    std::string s;
    const int len = static_cast<int>(rng() % 40);
    for (int j = 0; j < len; ++j) s += static_cast<char>(1 + rng() % 127);
    auto fast = tok->tokenize(s);
    auto slow = tok->tokenize(s + "\xE3\x80\x82");  // U+3002 ideographic full stop: a separator
    ASSERT_TRUE(fast.ok());
    ASSERT_TRUE(slow.ok());
    EXPECT_EQ(*fast, *slow) << s;
  }
}

}  // namespace
