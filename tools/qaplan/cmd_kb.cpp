// qaplan kb build: a knowledge base from the host's own FAQ and document JSONL, with the
// fingerprint registry eval-chain, calibrate and recommend verify (docs/evaluation.md).
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/retrieval/kb.hpp"

namespace qaplan::cli {
namespace {

struct KbOptions {
  std::string faq, docs, questions, output, config;
  KbBuildInput in;
  bool pretty = false;
};

Result<NamedText> read_named(const std::string& path, const char* what) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(path, what));
  return NamedText{std::filesystem::path(path).filename().string(), std::move(text)};
}

int run_kb_build(KbOptions& o) {
  auto config = load_cli_config(o.config);
  if (!config) return report(config.error());
  for (const SourceConfig& s : config->sources) o.in.sources.push_back(s.name);
  auto faq = read_named(o.faq, "FAQ file");
  if (!faq) return report(faq.error());
  auto docs = read_named(o.docs, "documents file");
  if (!docs) return report(docs.error());
  o.in.faq = std::move(*faq);
  o.in.docs = std::move(*docs);
  std::vector<std::filesystem::path> inputs{o.faq, o.docs};
  if (!o.questions.empty()) {
    auto q = read_named(o.questions, "questions file");
    if (!q) return report(q.error());
    o.in.questions = std::move(*q);
    inputs.emplace_back(o.questions);
  }
  auto built = build_knowledge_base(o.in, o.output, inputs);
  if (!built) return report(built.error());
  nlohmann::ordered_json j;
  j["kb"] = o.output;
  j["version"] = built->version;
  j["faqs"] = built->faqs;
  j["chunks"] = built->chunks;
  j["sources"] = built->sources;
  j["faq_sha256"] = built->faq_sha256;
  j["docs_sha256"] = built->docs_sha256;
  if (o.in.questions) {
    j["questions"] = (std::filesystem::path(o.output) / "questions" / "questions.jsonl").string();
    j["questions_version"] = o.in.questions_version;
    j["question_count"] = built->questions;
    j["questions_sha256"] = built->questions_sha256;
  }
  std::cout << j.dump(o.pretty ? 2 : -1) << '\n';
  return flush_stdout();
}

}  // namespace

Runner register_kb(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<KbOptions>();
  auto* sub = app.add_subcommand("kb", "Your own knowledge base (kb build)");
  sub->require_subcommand(1);
  auto* build = sub->add_subcommand(
      "build",
      "Write a knowledge base directory (faq.jsonl, docs.jsonl, fingerprints.json) from your FAQ "
      "and document JSONL, for eval-chain / calibrate / recommend --kb; prints a JSON summary");
  build->add_option("--faq", o->faq, "FAQ JSONL in eval_sets/kb's schema (docs/evaluation.md)")
      ->required();
  build->add_option("--docs", o->docs, "document chunks JSONL in eval_sets/kb's schema")
      ->required();
  build->add_option("--output", o->output, "KB directory to publish (never an input)")
      ->required();
  build->add_option("--questions", o->questions,
                    "labelled questions in the chain-set schema (eval_sets/chain), checked against "
                    "this KB and published as OUTPUT/questions/questions.jsonl (default: none)");
  build->add_option("--version", o->in.version, "the version the KB's fingerprint registry names")
      ->capture_default_str();
  build->add_option("--questions-version", o->in.questions_version,
                    "the version the questions' registry names")
      ->capture_default_str();
  build->add_option("--config", o->config,
                    "rules file whose [[sources]] every record's source must name (default: the "
                    "usual lookup; -v names it)");
  build->add_flag("--pretty", o->pretty, "indent the JSON summary");
  return [o, &g] {
    if (g.pretty) o->pretty = true;
    return run_kb_build(*o);
  };
}

}  // namespace qaplan::cli
