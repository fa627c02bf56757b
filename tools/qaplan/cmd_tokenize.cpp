// qaplan tokenize: writes `id<TAB>tok tok …` per record with the benchmark tokenizer, so a peer
// (e.g. the Lucene harness in ../shared/peers/lucene) ranks exactly the tokens qaplan ranks.
#include <iostream>
#include <string>

#include "cli.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/tokenizer.hpp"

namespace qaplan::cli {
namespace {

struct TokenizeOptions {
  std::string input;
  std::string format = "tsv";
  std::string output;
};

int run_tokenize(const TokenizeOptions& o) {
  auto recs = load_jsonl(o.input, JsonlKind::kAuto);
  if (!recs) return report(recs.error());
  auto tok = Tokenizer::create();
  if (!tok) return report(tok.error());
  std::string out;
  std::vector<std::string> toks;
  for (const auto& r : *recs) {
    toks.clear();
    if (Status s = tok->tokenize_into(r.text, toks); !s) {
      Error e = s.error();
      e.file = o.input;
      e.field = "id " + r.id;
      return report(e);
    }
    out += r.id;
    out += '\t';
    for (std::size_t i = 0; i < toks.size(); ++i) {
      if (i) out += ' ';
      out += toks[i];
    }
    out += '\n';
  }
  if (o.output.empty() || o.output == "-") {
    std::cout << out;
    return flush_stdout();
  }
  if (Status s = write_file_atomic(o.output, out, {o.input}); !s) return report(s.error());
  return kOk;
}

}  // namespace

Runner register_tokenize(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<TokenizeOptions>();
  auto* sub = app.add_subcommand(
      "tokenize",
      "Tokenize a JSONL corpus ({\"id\",\"text\"}) or query file ({\"id\",\"query\"}) with the "
      "benchmark tokenizer (nfkc-cjk-bigrams-ascii-1); writes id<TAB>tok tok ... per record");
  sub->add_option("--input", o->input, "JSONL file (corpus or queries, detected by field)")
      ->required();
  sub->add_option("--format", o->format, "output format (tsv, the only one)")
      ->check(CLI::IsMember({"tsv"}))
      ->capture_default_str();
  sub->add_option("--output", o->output, "output file (default: stdout); never an input");
  return [o] { return run_tokenize(*o); };
}

}  // namespace qaplan::cli
