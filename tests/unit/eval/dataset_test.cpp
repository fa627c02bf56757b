#include "qaplan/eval/dataset.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "common/sha256.hpp"
#include "qaplan/eval/scope.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using qaplan::Dataset;
using qaplan::ErrorCode;
using qaplan::test::slurp;
using qaplan::test::source_dir;

// The pinned fingerprints of eval_sets/policy-retrieval-v1.json. They must agree with
// eval_sets/fingerprints.json and eval_sets/README.md (checked below). Changing the dataset
// means a new dataset version, not a silent update of these values.
constexpr const char* kDatasetSha =
    "4b4ca9205ccd93e3240ef8eed526e892d5073be17394a4d780c5b4de680488ff";
constexpr const char* kCorpusSha =
    "35f370a628143f66cb5419ec4ae48aca28949095380f64d69afc99dc513f8749";

std::filesystem::path real_path() {
  return source_dir() / "eval_sets" / "policy-retrieval-v1.json";
}
std::filesystem::path fixture(const char* name) {
  return source_dir() / "tests" / "data" / "datasets" / name;
}

Dataset load_real() {
  auto d = qaplan::load_dataset_file(real_path());
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().to_string());
  return std::move(d).value();
}

// ---------------------------------------------------------------------------------------------
// The frozen dataset
// ---------------------------------------------------------------------------------------------

TEST(Dataset, RealFileHasTheSeedsShape) {
  const Dataset d = load_real();
  EXPECT_EQ(d.version, "policy-retrieval-1");
  EXPECT_EQ(d.time_point, "2026-10-19T12:00:00+08:00");
  // 3 in-scope policies + an expired one, a superseded one, a not-yet-effective one and a
  // conflicting pair = 8 versions; 18 in-scope rule chunks + 2 non-rule + 9 in dropped versions.
  EXPECT_EQ(d.policies.size(), 8u);
  EXPECT_EQ(d.chunks.size(), 29u);
  ASSERT_EQ(d.queries.size(), 36u);
  int dev_pos = 0, dev_neg = 0, test_pos = 0, test_neg = 0, multi = 0;
  for (const auto& q : d.queries) {
    const bool dev = q.split == qaplan::Split::kDev;
    (q.grounded() ? (dev ? dev_pos : test_pos) : (dev ? dev_neg : test_neg))++;
    multi += q.relevant.size() >= 2 ? 1 : 0;
    EXPECT_EQ(q.id.front(), dev ? 'd' : 't') << q.id;
  }
  EXPECT_EQ(dev_pos, 8);
  EXPECT_EQ(dev_neg, 4);
  EXPECT_EQ(test_pos, 16);
  EXPECT_EQ(test_neg, 8);
  EXPECT_GE(multi, 3);
}

TEST(Dataset, RealFileCoversEveryTagAndEverySection) {
  const Dataset d = load_real();
  std::map<std::string, int> tag_count;
  for (const auto& q : d.queries) {
    for (const auto& t : q.tags) tag_count[t]++;
  }
  for (std::string_view t : qaplan::kQueryTags) {
    EXPECT_GE(tag_count[std::string(t)], 1) << "no query tagged " << t;
  }
  EXPECT_EQ(tag_count["lexical_negative"], 12);
  EXPECT_GE(tag_count["paraphrase"], 3);
  // Every in-scope rule section is relevant to at least one query.
  const auto scope = qaplan::select_policy_scope(d);
  for (const auto& c : scope.chunks) {
    bool used = false;
    for (const auto& q : d.queries) {
      for (const auto& r : q.relevant) used |= r.source == c.source && r.section == c.section;
    }
    EXPECT_TRUE(used) << c.id << " is relevant to no query";
  }
}

// Code points of a UTF-8 string (the loader already guaranteed valid UTF-8).
std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

TEST(Dataset, RealRuleChunksAreRealisticLength) {
  const Dataset d = load_real();
  for (const auto& c : d.chunks) {
    if (c.kind != qaplan::ChunkKind::kRule) continue;
    EXPECT_GE(code_points(c.text), 60u) << c.id;
    EXPECT_LE(code_points(c.text), 200u) << c.id;
  }
}

// Every query has at least one benchmark-tokenizer token that occurs in the body text of the
// in-scope chunks, so no query vector (TF-IDF over that corpus) is zero and BM25 can score it.
TEST(Dataset, EveryQueryHasATokenInTheScopedCorpus) {
  const Dataset d = load_real();
  auto tok = qaplan::Tokenizer::create();
  ASSERT_TRUE(tok.ok()) << tok.error().to_string();
  const auto scope = qaplan::select_policy_scope(d);
  ASSERT_EQ(scope.chunks.size(), 18u);
  std::set<std::string> vocab;
  for (const auto& c : scope.chunks) {
    auto t = tok->tokenize(c.text);
    ASSERT_TRUE(t.ok()) << c.id;
    vocab.insert(t->begin(), t->end());
  }
  for (const auto& q : d.queries) {
    auto t = tok->tokenize(q.text);
    ASSERT_TRUE(t.ok()) << q.id;
    int known = 0;
    for (const auto& s : *t) known += vocab.count(s) ? 1 : 0;
    EXPECT_GE(known, 1) << q.id << " " << q.text << " has no token in the scoped corpus";
  }
  // Spot check with hand-tokenized text: "SKU-5107" survives whole and occurs in ret-01.
  EXPECT_TRUE(vocab.count("sku-5107"));
  EXPECT_TRUE(vocab.count("ps-2026-118"));
  EXPECT_FALSE(vocab.count("会员"));  // the hard negatives' topic is absent from the corpus
  EXPECT_FALSE(vocab.count("地址"));
}

// ---------------------------------------------------------------------------------------------
// Fingerprints
// ---------------------------------------------------------------------------------------------

TEST(Fingerprint, PinnedValuesOfTheFrozenDataset) {
  const Dataset d = load_real();
  EXPECT_EQ(qaplan::dataset_fingerprint(d), kDatasetSha);
  EXPECT_EQ(qaplan::corpus_fingerprint(d), kCorpusSha);
}

TEST(Fingerprint, RegistryAndReadmeAgreeWithThePinnedValues) {
  const std::string reg = slurp(source_dir() / "eval_sets" / "fingerprints.json");
  auto parsed = qaplan::parse_fingerprint_registry(reg, "fingerprints.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
  ASSERT_TRUE(parsed->count("policy-retrieval-1"));
  EXPECT_EQ(parsed->at("policy-retrieval-1").dataset_sha256, kDatasetSha);
  EXPECT_EQ(parsed->at("policy-retrieval-1").corpus_sha256, kCorpusSha);
  const std::string readme = slurp(source_dir() / "eval_sets" / "README.md");
  EXPECT_NE(readme.find(kDatasetSha), std::string::npos);
  EXPECT_NE(readme.find(kCorpusSha), std::string::npos);
  EXPECT_TRUE(qaplan::verify_fingerprints(load_real(), reg, "fingerprints.json").ok());
  EXPECT_EQ(qaplan::fingerprint_registry_path(real_path()),
            source_dir() / "eval_sets" / "fingerprints.json");
}

// The canonical form is defined as the parsed file re-serialised with sorted keys and no
// whitespace; nlohmann's dump() (std::map keys, minimal escaping, UTF-8 kept) is an independent
// implementation of exactly that, so the two must agree byte for byte.
TEST(Fingerprint, CanonicalFormEqualsSortedKeySerialisationOfTheFile) {
  const std::string text = slurp(real_path());
  const json j = json::parse(text);
  const Dataset d = load_real();
  EXPECT_EQ(qaplan::canonical_dataset_json(d), j.dump());
  EXPECT_EQ(qaplan::canonical_corpus_json(d), j.at("policies").dump());
  EXPECT_EQ(qaplan::dataset_fingerprint(d), qaplan::internal::sha256_hex(j.dump()));
  EXPECT_EQ(qaplan::corpus_fingerprint(d), qaplan::internal::sha256_hex(j.at("policies").dump()));
}

// Re-serialises the real file with another indentation and every object's keys in reverse
// order (ordered_json keeps insertion order), then reloads it.
std::string reformat_reversed(const std::string& text, int indent) {
  std::function<nlohmann::ordered_json(const json&)> rev = [&](const json& v) {
    if (v.is_object()) {
      nlohmann::ordered_json o = nlohmann::ordered_json::object();
      std::vector<std::string> keys;
      for (const auto& [k, x] : v.items()) keys.push_back(k);
      for (auto it = keys.rbegin(); it != keys.rend(); ++it) o[*it] = rev(v.at(*it));
      return o;
    }
    if (v.is_array()) {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (const auto& x : v) a.push_back(rev(x));
      return a;
    }
    return nlohmann::ordered_json(v);
  };
  return rev(json::parse(text)).dump(indent, ' ', /*ensure_ascii=*/indent > 2);
}

TEST(Fingerprint, WhitespaceKeyOrderAndEscapesKeepTheHash) {
  const std::string text = slurp(real_path());
  for (int indent : {-1, 4}) {  // indent 4 also writes every non-ASCII char as \uXXXX
    const std::string other = reformat_reversed(text, indent);
    ASSERT_NE(other, text);
    auto d = qaplan::parse_dataset(other, "reformatted.json");
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_EQ(qaplan::dataset_fingerprint(*d), kDatasetSha) << indent;
    EXPECT_EQ(qaplan::corpus_fingerprint(*d), kCorpusSha) << indent;
  }
}

TEST(Fingerprint, AnyContentChangeBreaksTheHash) {
  const std::string reg = slurp(source_dir() / "eval_sets" / "fingerprints.json");
  // One character of one chunk body: both hashes change.
  {
    json j = json::parse(slurp(real_path()));
    std::string t = j["policies"][0]["chunks"][0]["text"];
    j["policies"][0]["chunks"][0]["text"] = t.replace(t.find("300"), 3, "301");
    auto d = qaplan::parse_dataset(j.dump(), "edited.json");
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_NE(qaplan::dataset_fingerprint(*d), kDatasetSha);
    EXPECT_NE(qaplan::corpus_fingerprint(*d), kCorpusSha);
    const auto st = qaplan::verify_fingerprints(*d, reg, "fingerprints.json");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::kFingerprintMismatch);
    EXPECT_NE(st.error().message.find("policy-retrieval-1"), std::string::npos);
    EXPECT_NE(
        st.error().message.find("dataset_sha256 mismatch: registered " + std::string(kDatasetSha) +
                                ", actual " + qaplan::dataset_fingerprint(*d)),
        std::string::npos)
        << st.error().message;
    EXPECT_NE(st.error().message.find("corpus_sha256 mismatch"), std::string::npos);
  }
  // A query's annotation reason: only the dataset hash changes; the corpus is untouched.
  {
    json j = json::parse(slurp(real_path()));
    j["queries"][5]["reason"] = j["queries"][5]["reason"].get<std::string>() + "。";
    auto d = qaplan::parse_dataset(j.dump(), "edited.json");
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_NE(qaplan::dataset_fingerprint(*d), kDatasetSha);
    EXPECT_EQ(qaplan::corpus_fingerprint(*d), kCorpusSha);
    const auto st = qaplan::verify_fingerprints(*d, reg, "fingerprints.json");
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("dataset_sha256 mismatch"), std::string::npos);
    EXPECT_EQ(st.error().message.find("corpus_sha256"), std::string::npos);
  }
  // Metadata of a dropped version is part of the corpus too.
  {
    json j = json::parse(slurp(real_path()));
    for (auto& p : j["policies"]) {
      if (p["policy_id"] == "price-protection") p["title"] = "价格保护规则（旧）";
    }
    auto d = qaplan::parse_dataset(j.dump(), "edited.json");
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_NE(qaplan::corpus_fingerprint(*d), kCorpusSha);
  }
  // Moving a query to the other split (and renaming it to keep ids consistent) is a change.
  {
    json j = json::parse(slurp(real_path()));
    j["queries"][8]["split"] = "test";
    auto d = qaplan::parse_dataset(j.dump(), "edited.json");
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_NE(qaplan::dataset_fingerprint(*d), kDatasetSha);
  }
}

TEST(Fingerprint, UnregisteredVersionIsRefused) {
  json j = json::parse(slurp(real_path()));
  j["version"] = "policy-retrieval-2";
  auto d = qaplan::parse_dataset(j.dump(), "v2.json");
  ASSERT_TRUE(d.ok());
  const auto st = qaplan::verify_fingerprints(
      *d, slurp(source_dir() / "eval_sets" / "fingerprints.json"), "fingerprints.json");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kFingerprintMismatch);
  EXPECT_EQ(st.error().to_string(),
            "fingerprints.json: dataset version \"policy-retrieval-2\" is not registered");
}

TEST(Fingerprint, MalformedRegistryIsInvalidInput) {
  const Dataset d = load_real();
  const std::string good(64, 'a');
  struct Case {
    std::string registry;
    std::string expect;
  } cases[] = {
      {"[]", "reg.json: must be an object mapping dataset versions to hashes"},
      {"{\"v\": {\"dataset_sha256\": \"" + good + "\"}}",
       "reg.json: v.corpus_sha256: missing field"},
      {"{\"v\": {\"dataset_sha256\": \"" + good + "\", \"corpus_sha256\": \"" + good +
           "\", \"x\": 1}}",
       "reg.json: v.x: unknown field"},
      {"{\"v\": {\"dataset_sha256\": \"ABC\", \"corpus_sha256\": \"" + good + "\"}}",
       "reg.json: v.dataset_sha256: must be 64 lower-case hex digits"},
      {"{\"v\": ", "reg.json: malformed JSON"},
  };
  for (const auto& c : cases) {
    const auto st = qaplan::verify_fingerprints(d, c.registry, "reg.json");
    ASSERT_FALSE(st.ok()) << c.registry;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(st.error().to_string().rfind(c.expect, 0), 0u) << st.error().to_string();
  }
}

// ---------------------------------------------------------------------------------------------
// Strict loading
// ---------------------------------------------------------------------------------------------

TEST(DatasetLoad, MinimalFixtureLoads) {
  auto d = qaplan::load_dataset_file(fixture("minimal.json"));
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  ASSERT_EQ(d->policies.size(), 1u);
  const auto& p = d->policies[0];
  EXPECT_EQ(p.policy_id, "returns");
  EXPECT_EQ(p.version, "1.0");
  EXPECT_EQ(p.status, qaplan::PolicyStatus::kEffective);
  EXPECT_EQ(p.effective_from, "2026-01-01");
  EXPECT_FALSE(p.effective_to.has_value());
  EXPECT_EQ(p.chunks, (std::vector<std::size_t>{0, 1}));
  ASSERT_EQ(d->chunks.size(), 2u);
  EXPECT_EQ(d->chunks[1].id, "r-02");
  EXPECT_EQ(d->chunks[1].kind, qaplan::ChunkKind::kBackground);
  EXPECT_EQ(d->chunks[1].source, "returns-policy");
  EXPECT_EQ(d->chunks[1].policy_index, 0u);
  ASSERT_EQ(d->queries.size(), 2u);
  EXPECT_TRUE(d->queries[0].grounded());
  EXPECT_FALSE(d->queries[1].grounded());
  EXPECT_EQ(d->queries[1].split, qaplan::Split::kTest);
  EXPECT_EQ(d->queries[0].relevant[0], (qaplan::SectionRef{"returns-policy", "退货期限"}));
  // 2026-10-19T12:00:00+08:00 = 2026-10-19T04:00:00Z = 1792382400 s since the epoch.
  EXPECT_EQ(d->at.unix_seconds, 1792382400);
  EXPECT_EQ(d->at.offset_minutes, 480);
}

TEST(DatasetLoad, BrokenFilesNameTheFileAndTheProblem) {
  struct Case {
    const char* file;
    const char* expect;
  } cases[] = {
      {"duplicate_key.json", "duplicate object key \"version\""},
      {"truncated.json", "malformed JSON"},
      {"invalid_utf8.json", "malformed JSON"},
  };
  for (const auto& c : cases) {
    auto d = qaplan::load_dataset_file(fixture(c.file));
    ASSERT_FALSE(d.ok()) << c.file;
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(d.error().where().find(c.file), std::string::npos) << d.error().to_string();
    EXPECT_NE(d.error().message.find(c.expect), std::string::npos) << d.error().to_string();
    EXPECT_EQ(d.error().to_string().find('\n'), std::string::npos);
  }
  auto missing = qaplan::load_dataset_file(fixture("does-not-exist.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
}

// Each case edits the minimal fixture and names the exact error line expected.
TEST(DatasetLoad, StrictValidationTable) {
  const json base = json::parse(slurp(fixture("minimal.json")));
  struct Case {
    std::function<void(json&)> edit;
    std::string expect;  // full "context: message" line (prefix match)
  };
  const std::vector<Case> cases = {
      {[](json& j) { j["extra"] = 1; }, "m.json: extra: unknown field"},
      {[](json& j) { j.erase("description"); }, "m.json: description: missing field"},
      {[](json& j) { j["version"] = 1; }, "m.json: version: must be a string, not number"},
      {[](json& j) { j["version"] = "  "; }, "m.json: version: must not be empty"},
      {[](json& j) { j["time_point"] = "2026-10-19 12:00:00"; },
       "m.json: time_point: not an ISO-8601 time point"},
      {[](json& j) { j["time_point"] = "2026-10-19T12:00:00"; },
       "m.json: time_point: not an ISO-8601 time point"},
      {[](json& j) { j["policies"] = json::array(); }, "m.json: policies: must not be empty"},
      {[](json& j) { j["policies"][0]["owner"] = "x"; },
       "m.json: policies[0].owner: unknown field"},
      {[](json& j) { j["policies"][0].erase("effective_to"); },
       "m.json: policies[0].effective_to: missing field"},
      {[](json& j) { j["policies"][0]["title"] = 3; },
       "m.json: policies[0].title: must be a string or null, not number"},
      {[](json& j) { j["policies"][0]["version"] = "v1"; },
       "m.json: policies[0].version: must be dotted decimal numbers"},
      {[](json& j) { j["policies"][0]["status"] = "active"; },
       "m.json: policies[0].status: must be effective|superseded"},
      {[](json& j) { j["policies"][0]["effective_from"] = "2026-02-30"; },
       "m.json: policies[0].effective_from: not an ISO-8601 date"},
      {[](json& j) { j["policies"][0]["effective_from"] = "2026/01/01"; },
       "m.json: policies[0].effective_from: not an ISO-8601 date"},
      {[](json& j) { j["policies"][0]["effective_to"] = "2025-12-31"; },
       "m.json: policies[0].effective_to: is before effective_from"},
      {[](json& j) { j["policies"][0]["chunks"][1]["kind"] = "faq"; },
       "m.json: policies[0].chunks[1].kind: must be rule|background|revision_notes"},
      {[](json& j) { j["policies"][0]["chunks"][1]["id"] = "r-01"; },
       "m.json: policies[0].chunks[1].id: duplicate chunk id r-01"},
      {[](json& j) { j["policies"][0]["chunks"][1]["id"] = "r-00"; },
       "m.json: policies[0].chunks[1].id: chunks must be listed in ascending id order"},
      {[](json& j) { j["policies"][0]["chunks"][1]["section"] = "退货期限"; },
       "m.json: policies[0].chunks[1].section: duplicate section title"},
      {[](json& j) { j["policies"][0]["chunks"][0]["text"] = ""; },
       "m.json: policies[0].chunks[0].text: must not be empty"},
      {[](json& j) {
         json p = j["policies"][0];
         p["chunks"][0]["id"] = "r-03";
         p["chunks"].erase(1);
         j["policies"].push_back(p);
       },
       "m.json: policies[1].version: duplicate version 1.0 of policy \"returns\""},
      {[](json& j) {
         json p = j["policies"][0];
         p["source"] = "other-source";
         p["version"] = "2.0";
         p["chunks"][0]["id"] = "r-03";
         p["chunks"].erase(1);
         j["policies"].push_back(p);
       },
       "m.json: policies[1].source: policy \"returns\" already has source"},
      {[](json& j) {
         json p = j["policies"][0];
         p["policy_id"] = "other";
         p["chunks"][0]["id"] = "r-03";
         p["chunks"].erase(1);
         j["policies"].push_back(p);
       },
       "m.json: policies[1].source: source \"returns-policy\" already belongs to policy"},
      {[](json& j) { j["queries"][0]["split"] = "train"; },
       "m.json: queries[0].split: must be dev|test"},
      {[](json& j) { j["queries"][1]["id"] = "d01"; }, "m.json: queries[1].id: duplicate query id"},
      {[](json& j) { j["queries"][1]["query"] = "多久之内 可以退货"; },
       "m.json: queries[1].query: query appears in both splits (also queries[0])"},
      {[](json& j) {
         j["queries"][1]["query"] = "ＭＵＬ多久之内可以退货";
         j["queries"][0]["query"] = "mul多久之内可以退货";
         j["queries"][1]["split"] = "dev";
       },
       "m.json: queries[1].query: duplicate query text (also queries[0])"},
      {[](json& j) { j["queries"][0]["relevant"][0]["section"] = "背景"; },
       "m.json: queries[0].relevant[0]: no rule section \"背景\" in source \"returns-policy\""},
      {[](json& j) { j["queries"][0]["relevant"][0]["source"] = "nope"; },
       "m.json: queries[0].relevant[0]: no rule section"},
      {[](json& j) { j["queries"][0]["relevant"].push_back(j["queries"][0]["relevant"][0]); },
       "m.json: queries[0].relevant[1]: duplicate relevant section"},
      {[](json& j) { j["queries"][0]["relevant"][0]["page"] = 2; },
       "m.json: queries[0].relevant[0].page: unknown field"},
      {[](json& j) { j["queries"][0]["tags"].push_back("typo"); },
       "m.json: queries[0].tags[1]: unknown tag \"typo\""},
      {[](json& j) { j["queries"][0]["tags"].push_back("number"); },
       "m.json: queries[0].tags[1]: duplicate tag"},
      {[](json& j) { j["queries"][0]["tags"].push_back("multi_section"); },
       "m.json: queries[0].tags: \"multi_section\" must be present exactly when"},
      {[](json& j) { j["queries"][1]["tags"] = json::array(); },
       "m.json: queries[1].tags: \"lexical_negative\" must be present exactly when"},
      {[](json& j) { j["queries"][1]["reason"] = ""; },
       "m.json: queries[1].reason: must not be empty"},
      {[](json& j) { j["queries"][1]["relevant"] = json::object(); },
       "m.json: queries[1].relevant: must be an array, not object"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    json j = base;
    cases[i].edit(j);
    auto d = qaplan::parse_dataset(j.dump(), "m.json");
    ASSERT_FALSE(d.ok()) << "case " << i << " (" << cases[i].expect << ") was accepted";
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(d.error().to_string().rfind(cases[i].expect, 0), 0u)
        << "case " << i << ": got " << d.error().to_string();
  }
  // Null metadata is valid JSON for the loader; scope selection reports it (scope_test).
  json j = base;
  j["policies"][0]["title"] = nullptr;
  j["policies"][0]["status"] = nullptr;
  auto d = qaplan::parse_dataset(j.dump(), "m.json");
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_FALSE(d->policies[0].title.has_value());
  EXPECT_FALSE(d->policies[0].status.has_value());
}

// Bad input never crashes: every truncation of the real file (at a stride) and single-byte
// corruptions are either refused with a one-line kInvalidInput error or (rarely) still valid.
TEST(DatasetLoad, TruncatedOrCorruptedFilesAreRefusedCleanly) {
  const std::string text = slurp(real_path());
  int refused = 0;
  for (std::size_t cut = 0; cut < text.size(); cut += 97) {
    auto d = qaplan::parse_dataset(std::string_view(text).substr(0, cut), "cut.json");
    ASSERT_FALSE(d.ok()) << cut;
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(d.error().to_string().find('\n'), std::string::npos);
    ++refused;
  }
  EXPECT_GT(refused, 100);
  for (std::size_t pos = 0; pos < text.size(); pos += 199) {
    for (char c : {'\0', '"', '\xff', '}', '1'}) {
      std::string bad = text;
      bad[pos] = c;
      auto d = qaplan::parse_dataset(bad, "bad.json");
      if (!d.ok()) EXPECT_EQ(d.error().code, ErrorCode::kInvalidInput);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Dates, time points and versions
// ---------------------------------------------------------------------------------------------

TEST(IsoDates, Dates) {
  EXPECT_EQ(*qaplan::parse_iso_date("2024-02-29"), (qaplan::CivilDate{2024, 2, 29}));
  EXPECT_EQ(*qaplan::parse_iso_date("2000-02-29"), (qaplan::CivilDate{2000, 2, 29}));
  for (const char* bad : {"2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31",
                          "2026-4-01", "2026-04-01T00:00:00Z", " 2026-04-01", "0000-01-01", ""}) {
    EXPECT_FALSE(qaplan::parse_iso_date(bad).ok()) << bad;
  }
  EXPECT_EQ(qaplan::days_from_civil({1970, 1, 1}), 0);
  EXPECT_EQ(qaplan::days_from_civil({2000, 3, 1}), 11017);
  EXPECT_EQ(qaplan::days_from_civil({1969, 12, 31}), -1);
  // 2026-10-19: 56 years after 1970 with 14 leap days (1972..2024) = 20454 days to
  // 2026-01-01, plus 291 days (Jan..Sep = 273, + 18) = 20745.
  EXPECT_EQ(qaplan::days_from_civil({2026, 10, 19}), 20745);
}

TEST(IsoDates, TimePointsCompareAsInstants) {
  auto a = qaplan::parse_iso_time_point("2026-10-19T12:00:00+08:00");
  auto b = qaplan::parse_iso_time_point("2026-10-19T04:00:00Z");
  auto c = qaplan::parse_iso_time_point("2026-10-18T20:00:00-08:00");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->unix_seconds, 20745LL * 86400 + 4 * 3600);
  EXPECT_EQ(a->unix_seconds, b->unix_seconds);
  EXPECT_EQ(a->unix_seconds, c->unix_seconds);
  EXPECT_EQ(c->offset_minutes, -480);
  EXPECT_EQ(a->local_date(), (qaplan::CivilDate{2026, 10, 19}));
  EXPECT_EQ(c->local_date(), (qaplan::CivilDate{2026, 10, 18}));
  auto f = qaplan::parse_iso_time_point("2026-10-19T12:00:00.25+05:30");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->nanos, 250000000);
  EXPECT_EQ(f->offset_minutes, 330);
  EXPECT_EQ(f->unix_seconds, a->unix_seconds + 150 * 60);
  for (const char* bad :
       {"2026-10-19T12:00:00", "2026-10-19T12:00+08:00", "2026-10-19T24:00:00Z",
        "2026-10-19T12:00:60Z", "2026-10-19T12:00:00+0800", "2026-10-19t12:00:00Z",
        "2026-10-19T12:00:00.Z", "2026-10-19T12:00:00.1234567890Z", "2026-10-19T12:00:00+24:00",
        "2026-10-19T12:00:00Zjunk", "2026-02-30T12:00:00Z"}) {
    EXPECT_FALSE(qaplan::parse_iso_time_point(bad).ok()) << bad;
  }
}

TEST(PolicyVersions, ValidateAndCompareNumerically) {
  for (const char* ok : {"1", "2.4", "1.10.0", "007"}) {
    EXPECT_TRUE(qaplan::is_valid_policy_version(ok)) << ok;
  }
  for (const char* bad : {"", ".", "1.", ".1", "1..2", "v1", "1.0-rc", " 1"}) {
    EXPECT_FALSE(qaplan::is_valid_policy_version(bad)) << bad;
  }
  EXPECT_GT(qaplan::compare_policy_versions("1.10", "1.9"), 0);
  EXPECT_LT(qaplan::compare_policy_versions("2.4", "3.0"), 0);
  EXPECT_EQ(qaplan::compare_policy_versions("2", "2.0.0"), 0);
  EXPECT_EQ(qaplan::compare_policy_versions("02.1", "2.01"), 0);
  EXPECT_GT(qaplan::compare_policy_versions("100000000000000000000.1", "99999999999999999999.9"),
            0);
}

}  // namespace
