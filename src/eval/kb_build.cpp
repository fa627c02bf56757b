// `qaplan kb build` (docs/evaluation.md, "Your own knowledge base"): a host's FAQ and document
// JSONL become a KB directory with its fingerprint registry — and its labelled questions a chain
// set beside it — which eval-chain, calibrate and recommend read like the shipped eval_sets/.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "common/sha256.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/retrieval/kb.hpp"
#include "qaplan/io.hpp"

namespace qaplan {
namespace {

// A version names a registry entry and appears in every report: printable ASCII, no spaces.
Status check_version(const std::string& v, const char* field) {
  const bool ok = !v.empty() && v.size() <= 64 && std::all_of(v.begin(), v.end(), [](char c) {
    return c > 0x20 && c < 0x7F && c != '"' && c != '\\';
  });
  if (ok) return {};
  return make_error(ErrorCode::kInvalidInput,
                    "must be 1–64 printable ASCII characters without spaces or quotes: \"" + v +
                        "\"",
                    field);
}

// Every record's source must be a configured one: a record under another name could only be
// found by an unscoped search; a scope the planner sets would never reach it.
Status check_source(const std::string& source, const std::string& id,
                    const std::vector<std::string>& allowed, const std::string& file) {
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), source) != allowed.end())
    return {};
  std::string names;
  for (const std::string& a : allowed) names += (names.empty() ? "" : ", ") + a;
  return make_file_error(ErrorCode::kInvalidInput,
                         "record \"" + id + "\": source \"" + source +
                             "\" is not a [[sources]] name of the rules file (" + names + ")",
                         file, 0, "source");
}

// Parses both collections, checks their sources and fingerprints them.
Result<KnowledgeBase> assemble(const KbBuildInput& in, KbBuildSummary& s) {
  KnowledgeBase kb;
  kb.version = in.version;
  kb.faq_name = in.faq.name;
  kb.docs_name = in.docs.name;
  QAPLAN_ASSIGN_OR_RETURN(kb.faqs, parse_faq_jsonl(in.faq.text, in.faq.name));
  QAPLAN_ASSIGN_OR_RETURN(kb.docs, parse_docs_jsonl(in.docs.text, in.docs.name));
  if (kb.faqs.empty() && kb.docs.empty())
    return make_file_error(ErrorCode::kInvalidInput, "both collections are empty", in.faq.name);
  std::set<std::string> used;
  for (const FaqEntry& e : kb.faqs) {
    QAPLAN_TRY(check_source(e.source, e.id, in.sources, in.faq.name));
    used.insert(e.source);
  }
  for (const DocChunk& c : kb.docs) {
    QAPLAN_TRY(check_source(c.source, c.id, in.sources, in.docs.name));
    used.insert(c.source);
  }
  kb.faq_sha256 = internal::sha256_hex(canonical_faq_json(kb.faqs));
  kb.docs_sha256 = internal::sha256_hex(canonical_docs_json(kb.docs));
  s.version = kb.version;
  s.faq_sha256 = kb.faq_sha256;
  s.docs_sha256 = kb.docs_sha256;
  s.faqs = kb.faqs.size();
  s.chunks = kb.docs.size();
  s.sources.assign(used.begin(), used.end());
  return kb;
}

std::string kb_registry(const KbBuildSummary& s) {
  nlohmann::ordered_json j;
  j["format"] = "qaplan-kb-fingerprints-1";
  j["versions"][s.version] = {{"faq_sha256", s.faq_sha256}, {"docs_sha256", s.docs_sha256}};
  return j.dump(2) + "\n";
}

// The questions' registry, and the set loaded through it and checked against the KB exactly as
// eval-chain will load and check it.
Result<std::string> questions_registry(const KbBuildInput& in, KnowledgeBase kb,
                                       KbBuildSummary& s) {
  QAPLAN_TRY(check_version(in.questions_version, "questions_version"));
  const NamedText q{"questions.jsonl", in.questions->text};
  QAPLAN_ASSIGN_OR_RETURN(s.questions_sha256, canonical_jsonl_sha256(q.text, in.questions->name));
  nlohmann::ordered_json j;
  j["format"] = "qaplan-chain-fingerprints-1";
  j["files"][q.name] = {
      {"version", in.questions_version}, {"kb", in.version}, {"sha256", s.questions_sha256}};
  const std::string registry = j.dump(2) + "\n";
  auto set = load_chain_set(q, {"fingerprints.json", registry});
  if (!set) {  // name the user's file, not the name it is published under
    Error e = std::move(set).error();
    if (e.file == q.name) e.file = in.questions->name;
    return e;
  }
  set->name = in.questions->name;
  QAPLAN_ASSIGN_OR_RETURN(KbIndex index, KbIndex::create(std::move(kb)));
  QAPLAN_TRY(check_chain_against_kb(*set, index));
  s.questions = set->questions.size();
  return registry;
}

}  // namespace

Result<KbBuildSummary> build_knowledge_base(const KbBuildInput& in,
                                            const std::filesystem::path& dir,
                                            const std::vector<std::filesystem::path>& inputs) {
  QAPLAN_TRY(check_version(in.version, "version"));
  KbBuildSummary s;
  QAPLAN_ASSIGN_OR_RETURN(KnowledgeBase kb, assemble(in, s));
  std::string q_registry;
  if (in.questions) {
    QAPLAN_ASSIGN_OR_RETURN(q_registry, questions_registry(in, std::move(kb), s));
  }
  QAPLAN_TRY(write_files_atomic(
      dir,
      {{"faq.jsonl", in.faq.text}, {"docs.jsonl", in.docs.text}, {"fingerprints.json", kb_registry(s)}},
      inputs));
  if (in.questions) {
    QAPLAN_TRY(write_files_atomic(
        dir / "questions",
        {{"questions.jsonl", in.questions->text}, {"fingerprints.json", q_registry}}, inputs));
  }
  return s;
}

}  // namespace qaplan
