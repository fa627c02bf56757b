// The domain lexicon build (domain_build.hpp): count candidate terms per document, filter them
// (document frequency, pair stickiness, background contrast), attach sources, render the file.
#include "qaplan/eval/domain_build.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "common/sha256.hpp"
#include "eval/domain_terms.hpp"

namespace qaplan {
namespace {

using internal::Candidate;
using internal::CandidateKind;

constexpr std::uint32_t kNoDoc = 0xFFFFFFFFu;

struct Count {
  std::uint32_t df = 0;
  std::uint32_t last_doc = kNoDoc;  // counts a document once however often the term occurs
  std::uint32_t split = 0;          // pairs: byte length of the first part, as first seen
  bool word = false;                // seen as one ICU word (not only as a pair)
  bool pair = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_source;  // (source index, df)
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};
using CountMap = std::unordered_map<std::string, Count, StringHash, std::equal_to<>>;

int count_chars(std::string_view s) {
  int n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Shortest round-trip spelling: the file records option values exactly as they were used.
std::string number(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Shares are ratios of small integers; four decimals keep the file short and deterministic.
std::string share_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 4);
  return std::string(buf, r.ptr);
}

struct Term {
  std::string_view text;
  std::uint32_t df = 0;
  int source = -1;
  double share = 0.0;
};

}  // namespace

Status DomainBuildOptions::validate() const {
  auto bad = [](const char* field, const char* rule) {
    return make_error(ErrorCode::kInvalidConfig, std::string("must be ") + rule, field);
  };
  if (min_df < 0) return bad("min_df", ">= 0 (0 = auto)");
  if (!(contrast > 0) || !std::isfinite(contrast)) return bad("contrast", "> 0");
  if (!(chat_common > 0 && chat_common <= 1)) return bad("chat_common", "in (0, 1]");
  if (!(pair_share > 0 && pair_share <= 1)) return bad("pair_share", "in (0, 1]");
  // Below one half two sources could both "characterise" a term.
  if (!(source_share > 0.5 && source_share <= 1)) return bad("source_share", "in (0.5, 1]");
  if (source_min_df < 1) return bad("source_min_df", ">= 1");
  if (max_terms < 1) return bad("max_terms", ">= 1");
  return {};
}

struct DomainLexiconBuilder::Impl {
  CountMap counts;
  std::vector<std::string> sources;  // first-appearance order: the KB's own order
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> source_index;
  std::uint32_t docs = 0;
  std::vector<Candidate> scratch;

  std::uint32_t intern_source(std::string_view s) {
    if (auto it = source_index.find(s); it != source_index.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(sources.size());
    sources.emplace_back(s);
    source_index.emplace(std::string(s), id);
    return id;
  }

  void count(const Candidate& c, std::uint32_t doc, int source) {
    auto it = counts.find(c.text);
    if (it == counts.end()) it = counts.emplace(std::string(c.text), Count{}).first;
    Count& k = it->second;
    if (c.kind == CandidateKind::kPair) {
      if (!k.pair && !k.word) k.split = c.split;
      k.pair = true;
    } else {
      k.word = true;
    }
    if (k.last_doc == doc) return;
    k.last_doc = doc;
    ++k.df;
    if (source < 0) return;
    const auto s = static_cast<std::uint32_t>(source);
    auto bs = std::find_if(k.by_source.begin(), k.by_source.end(),
                           [s](const auto& p) { return p.first == s; });
    if (bs == k.by_source.end())
      k.by_source.emplace_back(s, 1);
    else
      ++bs->second;
  }
};

DomainLexiconBuilder::DomainLexiconBuilder() : impl_(std::make_unique<Impl>()) {}
DomainLexiconBuilder::~DomainLexiconBuilder() = default;
DomainLexiconBuilder::DomainLexiconBuilder(DomainLexiconBuilder&&) noexcept = default;
DomainLexiconBuilder& DomainLexiconBuilder::operator=(DomainLexiconBuilder&&) noexcept = default;

std::size_t DomainLexiconBuilder::docs() const noexcept { return impl_->docs; }

Status DomainLexiconBuilder::add(std::string_view source,
                                 const std::vector<std::string_view>& texts,
                                 std::string_view what) {
  Impl& m = *impl_;
  if (m.docs == kNoDoc)
    return make_error(ErrorCode::kInvalidInput, "more than 4294967294 documents",
                      std::string(what));
  const std::uint32_t doc = m.docs++;
  const int src = source.empty() ? -1 : static_cast<int>(m.intern_source(source));
  for (const std::string_view text : texts) {
    QAPLAN_ASSIGN_OR_RETURN(const std::string norm, internal::normalize_for_terms(text, what));
    m.scratch.clear();
    internal::candidates(norm, m.scratch);
    for (const Candidate& c : m.scratch) m.count(c, doc, src);
  }
  return {};
}

namespace {

// Whether a counted candidate is vocabulary at all (before df and background): a Han word of
// ≥ 2 characters, an ASCII word, or a pair that sticks together — one that makes up at least
// `pair_share` of the documents of EACH part (招财|宝: neither piece occurs much without the
// other). Measured against the rarer part only, a frequent function character glued to a term
// passed (在|星河, 个|工作: the pair is most of 星河's documents but few of 在's).
bool is_vocabulary(std::string_view text, const Count& k, const CountMap& counts,
                   double pair_share) {
  if (k.word) return is_ascii(text) || count_chars(text) >= 2;
  const auto df_of = [&](std::string_view part) -> std::uint32_t {
    const auto it = counts.find(part);
    return it == counts.end() ? 0 : it->second.df;
  };
  const std::uint32_t commoner =
      std::max(df_of(text.substr(0, k.split)), df_of(text.substr(k.split)));
  return commoner > 0 && static_cast<double>(k.df) >= pair_share * static_cast<double>(commoner);
}

// General language: chat uses the term (bg_df ≥ 1) and the KB does not use it clearly more often
// (relative document frequencies, add-one smoothed on the chat side), or chat uses it so often
// (怎么, 可以, 多少, 问题) that a question holding it says nothing about the domain — an FAQ
// is made of questions, so it uses question words more than chat does and the ratio alone keeps
// them. A term chat never used is kept whatever the KB's size: the background is too small to
// call it general.
bool is_general(std::string_view text, std::uint32_t df, std::size_t docs,
                const DomainBackground& bg, const DomainBuildOptions& o) {
  const auto it = bg.df.find(std::string(text));
  if (it == bg.df.end() || it->second == 0 || bg.docs == 0) return false;
  const double bg_docs = static_cast<double>(bg.docs);
  if (static_cast<double>(it->second) >= o.chat_common * bg_docs) return true;
  const double p_kb = static_cast<double>(df) / static_cast<double>(docs);
  const double p_bg = (static_cast<double>(it->second) + 1.0) / (bg_docs + 1.0);
  return p_kb < o.contrast * p_bg;
}

void attach_source(Term& t, const Count& k, const DomainBuildOptions& o) {
  std::uint32_t best = 0, best_df = 0;
  for (const auto& [s, n] : k.by_source)
    if (n > best_df || (n == best_df && s < best)) {
      best = s;
      best_df = n;
    }
  t.share = k.df ? static_cast<double>(best_df) / static_cast<double>(k.df) : 0.0;
  // Compared in integers' terms so 4 of 5 is exactly 0.8 whatever the rounding.
  const bool owns = static_cast<double>(best_df) >=
                    o.source_share * static_cast<double>(k.df) - 1e-9 * static_cast<double>(k.df);
  t.source =
      best_df >= static_cast<std::uint32_t>(o.source_min_df) && owns ? static_cast<int>(best) : -1;
}

std::string render(const std::vector<Term>& terms, const std::vector<std::string>& sources,
                   std::size_t docs, int min_df, const DomainBackground& bg,
                   const DomainProvenance& p, const DomainBuildOptions& o) {
  std::string out;
  out.reserve(256 + terms.size() * 32);
  out += "qaplan-domain-lexicon\t1\n";
  out += "built_from\t" + p.kind + "\t" + p.name + "\t" + p.sha256 + "\n";
  out += "background\t" + bg.sha256 + "\n";
  out += "docs\t" + std::to_string(docs) + "\n";
  out += "min_df\t" + std::to_string(min_df) + "\n";
  out += "contrast\t" + number(o.contrast) + "\n";
  out += "chat_common\t" + number(o.chat_common) + "\n";
  out += "pair_share\t" + number(o.pair_share) + "\n";
  out += "source_share\t" + number(o.source_share) + "\n";
  out += "source_min_df\t" + std::to_string(o.source_min_df) + "\n";
  out += "sources";
  for (const std::string& s : sources) out += "\t" + s;
  out += "\nterms\t" + std::to_string(terms.size()) + "\n";
  out += "term\tdf\tsource\tshare\n";
  for (const Term& t : terms) {
    out.append(t.text);
    out += '\t';
    out += std::to_string(t.df);
    out += '\t';
    out += t.source < 0 ? std::string("-") : sources[static_cast<std::size_t>(t.source)];
    out += '\t';
    out += share_text(t.share);
    out += '\n';
  }
  return out;
}

}  // namespace

Result<DomainLexiconFile> DomainLexiconBuilder::finish(const DomainBackground& background,
                                                       const DomainProvenance& provenance,
                                                       const DomainBuildOptions& options) const {
  QAPLAN_TRY(options.validate());
  const Impl& m = *impl_;
  if (m.docs == 0) return make_error(ErrorCode::kInvalidInput, "no document to build from");
  for (const std::string& s : m.sources)
    if (s.find_first_of("\t\r\n") != std::string::npos || s == "-")
      return make_error(ErrorCode::kInvalidInput,
                        "source name \"" + s + "\" holds a tab or line break, or is \"-\"",
                        "source");
  DomainLexiconFile f;
  f.docs = m.docs;
  // One document is evidence enough in a small KB, where most terms occur once; in a large one
  // a single occurrence is mostly noise (typos, ids).
  f.min_df = options.min_df > 0 ? options.min_df : (m.docs < 200 ? 1 : 2);
  f.candidates = m.counts.size();
  std::vector<Term> terms;
  for (const auto& [text, k] : m.counts) {
    if (k.df < static_cast<std::uint32_t>(f.min_df)) continue;
    if (!is_vocabulary(text, k, m.counts, options.pair_share)) continue;
    if (is_general(text, k.df, m.docs, background, options)) {
      ++f.general;
      continue;
    }
    Term t{text, k.df};
    attach_source(t, k, options);
    terms.push_back(t);
  }
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
    return a.df != b.df ? a.df > b.df : a.text < b.text;
  });
  if (terms.size() > options.max_terms) {
    f.capped = terms.size() - options.max_terms;
    terms.resize(options.max_terms);
  }
  // The file lists terms in byte order: the loader builds its trie in one pass from it.
  std::sort(terms.begin(), terms.end(),
            [](const Term& a, const Term& b) { return a.text < b.text; });
  f.terms = terms.size();
  f.source_terms = static_cast<std::size_t>(
      std::count_if(terms.begin(), terms.end(), [](const Term& t) { return t.source >= 0; }));
  f.sources = m.sources;
  f.text = render(terms, m.sources, m.docs, f.min_df, background, provenance, options);
  f.sha256 = internal::sha256_hex(f.text);
  return f;
}

}  // namespace qaplan
