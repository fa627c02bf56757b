#pragma once
/// The domain lexicon build (`qaplan domain build`, docs/domain.md): reads a host's knowledge base
/// and writes the vocabulary the planner should know — terms the KB uses clearly more often than
/// general chat, each with the source collection it characterises (or none). The planner loads the
/// file with its own loader; this header is the build side only.
///
/// Flow: a `DomainLexiconBuilder` receives documents (from `add_domain_corpus`, `add_domain_kb`,
/// or a host's own loop), then `finish()` contrasts their document frequencies against a
/// `DomainBackground` (word frequencies of general chat, `config/domain/background.tsv`, built by
/// `build_domain_background`) and renders the lexicon file. Same inputs and options give
/// byte-identical files.
///
/// Thread-safety: the builder is a plain mutable object (one thread at a time); the free functions
/// are thread-safe.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// Options of the lexicon build (docs/domain.md says why these defaults).
///
/// | field         | default | meaning                                                         |
/// |---------------|---------|-----------------------------------------------------------------|
/// | min_df        | 0       | documents a term needs; 0 = auto: 1 under 200 documents, else 2 |
/// | contrast      | 8.0     | a term chat uses (bg_df ≥ 1) is kept only when                  |
/// |               |         | df/docs ≥ contrast × (bg_df+1)/(bg_docs+1) (> 0)                |
/// | chat_common   | 0.005   | a term in ≥ this share of chat rows is general, whatever the KB |
/// |               |         | says (0..1]                                                     |
/// | pair_share    | 0.5     | an ICU-split pair (招财\|宝) is a term when its df ≥ this share  |
/// |               |         | of each part's df (0..1]                                        |
/// | source_share  | 0.8     | a term characterises its best source when that source holds    |
/// |               |         | this share of its df (0.5..1] …                                 |
/// | source_min_df | 2       | … and at least this many of its documents (≥ 1)                 |
/// | max_terms     | 50000   | keep at most this many terms, highest df first (≥ 1)            |
struct DomainBuildOptions {
  int min_df = 0;
  double contrast = 8.0;
  double chat_common = 0.005;
  double pair_share = 0.5;
  double source_share = 0.8;
  int source_min_df = 2;
  std::size_t max_terms = 50000;

  /// Errors: kInvalidConfig naming the field.
  QAPLAN_API Status validate() const;
};

/// Document frequencies of candidate terms in general chat (the contrast set).
struct DomainBackground {
  std::size_t docs = 0;  ///< rows counted
  std::string sha256;    ///< of the file's bytes (recorded in the lexicon)
  std::unordered_map<std::string, std::uint32_t> df;
};

/// What the lexicon was built from (its `built_from` line).
struct DomainProvenance {
  std::string kind;    ///< "corpus" | "kb"
  std::string name;    ///< the path as the user gave it
  std::string sha256;  ///< of the input files' bytes (see docs/domain.md)
};

/// The rendered lexicon and a summary for the CLI.
struct DomainLexiconFile {
  std::string text;    ///< the file's bytes
  std::string sha256;  ///< of `text` — the lexicon's fingerprint
  std::size_t docs = 0;
  std::size_t terms = 0;         ///< written
  std::size_t source_terms = 0;  ///< of which characterise a source
  std::size_t candidates = 0;    ///< distinct candidates counted before any filter
  std::size_t general = 0;       ///< dropped by the background contrast
  std::size_t capped = 0;        ///< dropped by max_terms
  int min_df = 0;                ///< the value used (after auto)
  std::vector<std::string> sources;
};

/// Accumulates document frequencies. Memory grows with the number of distinct candidate terms,
/// not with the corpus.
class QAPLAN_API DomainLexiconBuilder {
 public:
  DomainLexiconBuilder();
  ~DomainLexiconBuilder();
  DomainLexiconBuilder(DomainLexiconBuilder&&) noexcept;
  DomainLexiconBuilder& operator=(DomainLexiconBuilder&&) noexcept;

  /// Adds one document: its texts (fields; words never join across two fields) and its source
  /// ("" = none). Each text is normalized like a question. Errors: kInvalidInput (invalid UTF-8,
  /// field = `what`), kInternal (ICU).
  Status add(std::string_view source, const std::vector<std::string_view>& texts,
             std::string_view what = "text");

  std::size_t docs() const noexcept;

  /// Filters the counted candidates and renders the file. Errors: kInvalidConfig (options),
  /// kInvalidInput (no document added).
  Result<DomainLexiconFile> finish(const DomainBackground& background,
                                   const DomainProvenance& provenance,
                                   const DomainBuildOptions& options) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Streams a JSONL corpus (corpus.hpp's rules: `{"id","text"}` per line, unique ids) into
/// `builder`; an optional string field `source` names the document's source. Returns the
/// provenance (kind "corpus", sha256 of the file's bytes). Errors: kIo, kInvalidInput naming
/// file:line and field.
QAPLAN_API Result<DomainProvenance> add_domain_corpus(const std::filesystem::path& file,
                                                      DomainLexiconBuilder& builder);

/// Reads a KB directory in eval_sets/kb's schema — `faq.jsonl` (question, paraphrases, answer,
/// tags, source) and/or `docs.jsonl` (title, section, text, tags, source) — into `builder`: one
/// document per FAQ entry and per chunk. Unlike kb.hpp's loader it accepts any source names and
/// needs no fingerprint registry (a host's KB is not ours to register); other fields are ignored.
/// Errors: kIo, kInvalidInput naming file:line and field (neither file present: naming both).
QAPLAN_API Result<DomainProvenance> add_domain_kb(const std::filesystem::path& dir,
                                                  DomainLexiconBuilder& builder);

/// A saved index directory keeps postings and ids, not text or the corpus path, so no lexicon can
/// be built from it: always kInvalidInput naming what is missing and what to pass instead (kIo
/// when `dir` is not an index directory at all).
QAPLAN_API Status check_domain_index(const std::filesystem::path& dir);

/// Renders config/domain/background.tsv from a router data directory (eval_sets/router, verified
/// against its fingerprints.json): every row whose act is not `question`, from the files whose
/// licence is known to be permissive (their licences and attributions go into the header).
/// Errors: kIo, kInvalidInput, kFingerprintMismatch (as the router data loader).
QAPLAN_API Result<std::string> build_domain_background(const std::filesystem::path& router_dir);

/// Parses a background file. Errors: kInvalidInput naming `name`:line.
QAPLAN_API Result<DomainBackground> parse_domain_background(std::string_view text,
                                                            std::string_view name);

}  // namespace qaplan
