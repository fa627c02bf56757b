#pragma once
// The host's domain lexicon (docs/domain.md): the vocabulary of its knowledge base, built by
// `qaplan domain build`, with the source collection each term characterises. The route and
// source stages read it so a deployment over a bank FAQ or a SaaS manual knows its own words,
// not only the ones in config/rules.toml.
//
// Terms are stored normalized (normalize_question), so they match a normalized question byte for
// byte; one pass over the question finds them all (domain_trie.hpp). Immutable and thread-safe
// after load(); cheap to copy (shared state).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::internal {

class DomainLexicon {
 public:
  /// Reads and checks a lexicon file strictly (format version 1: header lines in order, the
  /// declared number of term lines in byte order of the term, each
  /// `term<TAB>df<TAB>source<TAB>share`, nothing after).
  /// Errors: kIo (unreadable), kInvalidInput naming file:line and what is wrong (bad header,
  /// bad df, unknown source, duplicate, unsorted or unnormalized term, truncated file).
  static Result<DomainLexicon> load(const std::filesystem::path& file);
  /// The same from bytes in memory; `name` stands for the file in errors and describe().
  static Result<DomainLexicon> parse(std::string_view bytes, std::string_view name);

  /// SHA-256 of the file's bytes: the lexicon's fingerprint (64 lower-case hex digits).
  const std::string& sha256() const noexcept;
  std::size_t term_count() const noexcept;
  /// Documents of the KB it was built from.
  std::size_t doc_count() const noexcept;
  /// Source names as in the file (the KB's own names, first-appearance order).
  const std::vector<std::string>& sources() const noexcept;

  /// A term occurrence: term id and bytes [begin, end) of the normalized question.
  struct Hit {
    std::uint32_t term;
    std::uint32_t begin, end;
  };
  /// Clears `out`, then appends every occurrence of every term in one linear pass (a trie walk
  /// from each byte, at most one term's length deep: domain_trie.hpp), ordered by begin byte,
  /// shorter first at one begin. Overlapping terms (信用 and 信用卡) are all reported.
  /// A term that starts or ends with an ASCII letter or digit must not cut an ASCII word
  /// (`app` is not found in `apple`; `apps` still finds `app`, as the rules' cues do).
  void scan(std::string_view normalized, std::vector<Hit>& out) const;

  /// Index into sources() of the source the term characterises, -1 for a generic term.
  int term_source(std::uint32_t term) const noexcept;
  /// Share of the term's documents in its best source (0 when the KB has no sources).
  float term_share(std::uint32_t term) const noexcept;
  /// Documents of the KB that hold the term.
  std::uint32_t term_df(std::uint32_t term) const noexcept;
  std::string_view term_text(std::uint32_t term) const noexcept;

  /// "kb.qdl sha256:<64 hex> 1234 terms, 5 sources" for logs and `--verbose`.
  std::string describe() const;
  /// A number no other lexicon read in this process has (copies share it): what a cache of
  /// results that depend on the terms keys on, since an address may be reused once freed.
  std::uint64_t serial() const noexcept;

 private:
  struct Impl;
  explicit DomainLexicon(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan::internal
