// qaplan domain build | background: the host's domain lexicon (docs/domain.md) — the vocabulary
// of its knowledge base, read by the planner — and the general-chat background it is contrasted
// with.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/domain_build.hpp"

namespace qaplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct DomainOptions {
  std::string corpus, index, kb;
  std::string output;
  std::string background;
  DomainBuildOptions build;
  std::string data;  // background: the router data directory
  bool pretty = false;
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Reads the one input the user named into the builder; `inputs` collects the files read, which
// the output must never replace.
Result<DomainProvenance> read_input(const DomainOptions& o, DomainLexiconBuilder& b,
                                    std::vector<std::filesystem::path>& inputs) {
  const int given = !o.corpus.empty() + !o.index.empty() + !o.kb.empty();
  if (given != 1)
    return make_error(ErrorCode::kInvalidInput, "give exactly one of --corpus, --index, --kb",
                      "--corpus");
  if (!o.index.empty()) {
    QAPLAN_TRY(check_domain_index(o.index));
    return make_error(ErrorCode::kInternal, "unreachable", "--index");
  }
  if (!o.corpus.empty()) {
    inputs.emplace_back(o.corpus);
    return add_domain_corpus(o.corpus, b);
  }
  inputs.push_back(std::filesystem::path(o.kb) / "faq.jsonl");
  inputs.push_back(std::filesystem::path(o.kb) / "docs.jsonl");
  return add_domain_kb(o.kb, b);
}

int run_build(const DomainOptions& o) {
  const auto t0 = Clock::now();
  if (Status s = o.build.validate(); !s) {
    Error e = s.error();
    e.field = "--" + e.field;
    for (char& c : e.field)
      if (c == '_') c = '-';
    return report(e);
  }
  auto bg_path = find_data_file(o.background, "config/domain/background.tsv", "--background");
  if (!bg_path) return report(bg_path.error());
  auto bg_text = read_file(*bg_path, "background file");
  if (!bg_text) return report(bg_text.error());
  auto bg = parse_domain_background(*bg_text, bg_path->string());
  if (!bg) return report(bg.error());
  std::vector<std::filesystem::path> inputs = {*bg_path};
  DomainLexiconBuilder builder;
  auto provenance = read_input(o, builder, inputs);
  if (!provenance) return report(provenance.error());
  const double read_s = seconds_since(t0);
  auto lex = builder.finish(*bg, *provenance, o.build);
  if (!lex) return report(lex.error());
  if (Status s = write_file_atomic(o.output, lex->text, inputs); !s) return report(s.error());
  nlohmann::ordered_json j;
  j["lexicon"] = o.output;
  j["sha256"] = lex->sha256;
  j["built_from"] = {
      {"kind", provenance->kind}, {"name", provenance->name}, {"sha256", provenance->sha256}};
  j["background"] = bg_path->string();
  j["docs"] = lex->docs;
  j["sources"] = lex->sources;
  j["terms"] = lex->terms;
  j["source_terms"] = lex->source_terms;
  j["candidates"] = lex->candidates;
  j["general"] = lex->general;
  j["capped"] = lex->capped;
  j["min_df"] = lex->min_df;
  j["bytes"] = lex->text.size();
  j["timing"] = {{"read_and_count_s", read_s}, {"total_s", seconds_since(t0)}};
  std::cout << j.dump(o.pretty ? 2 : -1) << '\n';
  return flush_stdout();
}

int run_background(const DomainOptions& o) {
  auto text = build_domain_background(o.data);
  if (!text) return report(text.error());
  // The data directory's files are the inputs; the registry names them all.
  if (Status s =
          write_file_atomic(o.output, *text, {std::filesystem::path(o.data) / "fingerprints.json"});
      !s)
    return report(s.error());
  nlohmann::ordered_json j;
  j["background"] = o.output;
  j["bytes"] = text->size();
  std::cout << j.dump(o.pretty ? 2 : -1) << '\n';
  return flush_stdout();
}

void add_build(CLI::App& sub, const std::shared_ptr<DomainOptions>& o) {
  auto* build = sub.add_subcommand(
      "build",
      "Build a domain lexicon (the vocabulary the planner should know) from a knowledge "
      "base; writes --output atomically and prints a JSON summary");
  build->add_option("--corpus", o->corpus,
                    "JSONL corpus, one {\"id\",\"text\"} per line, optional \"source\" (default: "
                    "none; give one of --corpus, --index, --kb)");
  build->add_option("--index", o->index,
                    "saved index directory (default: none; refused: it keeps no document text, see "
                    "docs/domain.md)");
  build->add_option(
      "--kb", o->kb,
      "KB directory with faq.jsonl and/or docs.jsonl in eval_sets/kb's schema (default: none)");
  build->add_option("--output", o->output, "lexicon file to write (never an input)")->required();
  build->add_option("--background", o->background,
                    "general-chat word frequencies (default: config/domain/background.tsv)");
  // The lexicon's tuning knobs: each shows its default in --help.
  const auto knob = [build](const char* flag, auto& value, const char* what) {
    build->add_option(flag, value, what)->capture_default_str();
  };
  knob("--min-df", o->build.min_df,
       "documents a term needs (default 0 = auto: 1 under 200 documents, else 2)");
  knob("--max-terms", o->build.max_terms, "keep at most this many terms, highest df first");
  knob("--source-share", o->build.source_share,
       "share of a term's documents its best source needs to own it (0.5..1]");
  knob("--contrast", o->build.contrast,
       "a term chat uses is kept when its KB frequency is this many times chat's");
  knob("--chat-common", o->build.chat_common,
       "a term in at least this share of chat rows is general language");
  knob("--pair-share", o->build.pair_share,
       "an ICU-split pair is a term when it holds this share of each part's documents");
  build->add_flag("--pretty", o->pretty, "indent the JSON summary");
}

CLI::App* add_background(CLI::App& sub, const std::shared_ptr<DomainOptions>& o) {
  auto* bg =
      sub.add_subcommand("background",
                         "Count words of general chat (router data rows whose act is not question) "
                         "into the background file domain build contrasts with");
  bg->add_option("--data", o->data, "router data directory (eval_sets/router)")->required();
  bg->add_option("--output", o->output, "background file to write")->required();
  bg->add_flag("--pretty", o->pretty, "indent the JSON summary");
  return bg;
}

}  // namespace

Runner register_domain(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<DomainOptions>();
  auto* sub = app.add_subcommand("domain", "Domain lexicon of a knowledge base (domain build …)");
  sub->require_subcommand(1);
  add_build(*sub, o);
  const CLI::App* background = add_background(*sub, o);
  return [o, background, &g] {
    if (g.pretty) o->pretty = true;
    return background->parsed() ? run_background(*o) : run_build(*o);
  };
}

}  // namespace qaplan::cli
