// The domain lexicon loader (domain_lexicon.hpp); the format is docs/domain.md's.
#include "planning/domain_lexicon.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "common/sha256.hpp"
#include "common/utf8.hpp"
#include "planning/matcher.hpp"
#include "planning/domain_trie.hpp"
#include "planning/lexicon.hpp"
#include "qaplan/io.hpp"

namespace qaplan::internal {

struct DomainLexicon::Impl {
  std::string name;  // the file name, for describe()
  std::string sha256;
  std::size_t docs = 0;
  std::vector<std::string> sources;
  std::string blob;                    // every term's bytes, back to back
  std::vector<std::uint32_t> offsets;  // term i = blob[offsets[i], offsets[i+1])
  std::vector<std::uint32_t> df;
  std::vector<std::int16_t> source;
  std::vector<float> share;
  DomainTrie trie;
  std::uint64_t serial = next_vocabulary_serial();  // this content, for caches keyed on it
};

namespace {

// Splits a line at tabs.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t tab = line.find('\t');
    out.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return out;
    line.remove_prefix(tab + 1);
  }
}

// The four fields of a term line without allocating (a load reads tens of thousands); false when
// the line does not have exactly four.
bool term_fields(std::string_view line, std::array<std::string_view, 4>& f) {
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos) return false;
    f[i] = line.substr(0, tab);
    line.remove_prefix(tab + 1);
  }
  f[3] = line;
  return line.find('\t') == std::string_view::npos;
}

bool parse_count(std::string_view s, std::uint64_t& n) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), n);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_fraction(std::string_view s, double& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && v >= 0 && v <= 1;
}

// A normalized question never holds upper-case ASCII, spaces or control bytes at a term's edge;
// a term that does could never match, which is a build bug or a hand edit worth refusing.
bool looks_normalized(std::string_view t) {
  if (t.empty() || t.front() == ' ' || t.back() == ' ') return false;
  for (const char c : t) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || (c >= 'A' && c <= 'Z')) return false;
  }
  return is_valid_utf8(t);
}

// Reads the file line by line; every line must end with a line break, so a cut file is caught
// even when it is cut exactly after a line.
class LineReader {
 public:
  LineReader(std::string_view text, std::string_view name) : rest_(text), name_(name) {}
  int line() const noexcept { return line_; }
  bool at_end() const noexcept { return rest_.empty(); }
  Result<std::string_view> next(std::string_view expecting) {
    ++line_;
    if (rest_.empty()) return fail("truncated: expected " + std::string(expecting));
    const std::size_t nl = rest_.find('\n');
    if (nl == std::string_view::npos) return fail("truncated: the last line has no line break");
    const std::string_view l = rest_.substr(0, nl);
    rest_.remove_prefix(nl + 1);
    return l;
  }
  Error fail(const std::string& message) const {
    return make_file_error(ErrorCode::kInvalidInput, message, std::string(name_), line_);
  }

 private:
  std::string_view rest_;
  std::string_view name_;
  int line_ = 0;
};

// One `key<TAB>value…` header line with exactly `n` fields (n = 0: at least two).
Result<std::vector<std::string_view>> header(LineReader& in, std::string_view key, std::size_t n) {
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view line, in.next(std::string(key) + " line"));
  std::vector<std::string_view> f = fields(line);
  if (f[0] != key) return in.fail("expected the " + std::string(key) + " line");
  if (n != 0 ? f.size() != n : f.size() < 1)
    return in.fail(std::string(key) + " line: expected " + std::to_string(n) + " fields");
  return f;
}

Result<double> header_fraction(LineReader& in, std::string_view key) {
  QAPLAN_ASSIGN_OR_RETURN(const auto f, header(in, key, 2));
  double v = 0;
  if (!parse_fraction(f[1], v)) return in.fail(std::string(key) + " must be a number in 0..1");
  return v;
}

Result<std::uint64_t> header_count(LineReader& in, std::string_view key) {
  QAPLAN_ASSIGN_OR_RETURN(const auto f, header(in, key, 2));
  std::uint64_t v = 0;
  if (!parse_count(f[1], v) || v > 0xFFFFFFFFu)
    return in.fail(std::string(key) + " must be a count");
  return v;
}

Status read_header(LineReader& in, std::size_t& docs, std::vector<std::string>& sources,
                   std::uint64_t& terms) {
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view magic, in.next("the format line"));
  if (magic != "qaplan-domain-lexicon\t1")
    return in.fail("not a qaplan domain lexicon (format line \"qaplan-domain-lexicon<TAB>1\")");
  QAPLAN_ASSIGN_OR_RETURN(const auto built, header(in, "built_from", 4));
  if (!is_sha256_hex(built[3])) return in.fail("built_from: the input hash is not a SHA-256");
  QAPLAN_ASSIGN_OR_RETURN(const auto bg, header(in, "background", 2));
  if (!is_sha256_hex(bg[1])) return in.fail("background: not a SHA-256");
  QAPLAN_ASSIGN_OR_RETURN(const std::uint64_t d, header_count(in, "docs"));
  if (d == 0) return in.fail("docs must be > 0");
  docs = static_cast<std::size_t>(d);
  QAPLAN_TRY(header_count(in, "min_df"));
  {
    QAPLAN_ASSIGN_OR_RETURN(const auto f, header(in, "contrast", 2));
    double v = 0;
    const auto r = std::from_chars(f[1].data(), f[1].data() + f[1].size(), v);
    if (r.ec != std::errc() || r.ptr != f[1].data() + f[1].size() || !(v > 0))
      return in.fail("contrast must be a number > 0");
  }
  QAPLAN_TRY(header_fraction(in, "chat_common"));
  QAPLAN_TRY(header_fraction(in, "pair_share"));
  QAPLAN_TRY(header_fraction(in, "source_share"));
  QAPLAN_TRY(header_count(in, "source_min_df"));
  QAPLAN_ASSIGN_OR_RETURN(const auto src, header(in, "sources", 0));
  if (src.size() > 0x7FFF) return in.fail("too many sources");
  for (std::size_t i = 1; i < src.size(); ++i) {
    if (src[i].empty() || src[i] == "-") return in.fail("sources: empty name or \"-\"");
    for (std::size_t j = 1; j < i; ++j)
      if (src[j] == src[i]) return in.fail("sources: \"" + std::string(src[i]) + "\" twice");
    sources.emplace_back(src[i]);
  }
  QAPLAN_ASSIGN_OR_RETURN(terms, header_count(in, "terms"));
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view cols, in.next("the column line"));
  if (cols != "term\tdf\tsource\tshare")
    return in.fail("expected the column line term<TAB>df<TAB>source<TAB>share");
  return {};
}

}  // namespace

Result<DomainLexicon> DomainLexicon::load(const std::filesystem::path& file) {
  QAPLAN_ASSIGN_OR_RETURN(const std::string bytes, read_file(file, "domain lexicon"));
  return parse(bytes, file.string());
}

Result<DomainLexicon> DomainLexicon::parse(std::string_view bytes, std::string_view name) {
  auto m = std::make_shared<Impl>();
  m->name = std::filesystem::path(name).filename().string();
  m->sha256 = sha256_hex(bytes);
  LineReader in(bytes, name);
  std::uint64_t terms = 0;
  QAPLAN_TRY(read_header(in, m->docs, m->sources, terms));
  // The declared count bounds the allocation only as far as the bytes could hold it.
  const std::size_t reserve = std::min<std::uint64_t>(terms, bytes.size() / 8 + 1);
  m->offsets.reserve(reserve + 1);
  m->df.reserve(reserve);
  m->source.reserve(reserve);
  m->share.reserve(reserve);
  m->blob.reserve(bytes.size() / 2);
  m->offsets.push_back(0);
  auto text_of = [&](std::uint32_t t) {
    return std::string_view(m->blob).substr(m->offsets[t], m->offsets[t + 1] - m->offsets[t]);
  };
  for (std::uint64_t i = 0; i < terms; ++i) {
    auto line = in.next(std::to_string(terms) + " term lines, found " + std::to_string(i));
    if (!line.ok()) return std::move(line).error();
    std::array<std::string_view, 4> f;
    if (!term_fields(*line, f)) return in.fail("expected term<TAB>df<TAB>source<TAB>share");
    if (!looks_normalized(f[0])) return in.fail("term is not normalized text");
    if (f[0].size() > DomainTrie::kMaxTermBytes)
      return in.fail("term longer than " + std::to_string(DomainTrie::kMaxTermBytes) + " bytes");
    std::uint64_t df = 0;
    if (!parse_count(f[1], df) || df == 0 || df > m->docs)
      return in.fail("df must be a count in 1.." + std::to_string(m->docs));
    int source = -1;
    if (f[2] != "-") {
      for (std::size_t s = 0; s < m->sources.size() && source < 0; ++s)
        if (m->sources[s] == f[2]) source = static_cast<int>(s);
      if (source < 0) return in.fail("source \"" + std::string(f[2]) + "\" is not in sources");
    }
    double share = 0;
    if (!parse_fraction(f[3], share)) return in.fail("share must be a number in 0..1");
    const auto id = static_cast<std::uint32_t>(m->df.size());
    m->blob.append(f[0]);
    m->offsets.push_back(static_cast<std::uint32_t>(m->blob.size()));
    // Byte order makes the trie a single pass and a duplicate a neighbour.
    if (id > 0 && !(text_of(id - 1) < f[0]))
      return in.fail("term \"" + std::string(f[0]) + "\" " +
                     (text_of(id - 1) == f[0] ? "is listed twice" : "is out of byte order"));
    m->df.push_back(static_cast<std::uint32_t>(df));
    m->source.push_back(static_cast<std::int16_t>(source));
    m->share.push_back(static_cast<float>(share));
  }
  if (!in.at_end()) {
    (void)in.next("");  // point at the first extra line
    return in.fail("more lines than the " + std::to_string(terms) + " terms declared");
  }
  m->trie.build(static_cast<std::uint32_t>(m->df.size()), text_of, m->blob.size());
  return DomainLexicon(std::move(m));
}

const std::string& DomainLexicon::sha256() const noexcept { return impl_->sha256; }
std::size_t DomainLexicon::term_count() const noexcept { return impl_->df.size(); }
std::size_t DomainLexicon::doc_count() const noexcept { return impl_->docs; }
const std::vector<std::string>& DomainLexicon::sources() const noexcept { return impl_->sources; }

void DomainLexicon::scan(std::string_view normalized, std::vector<Hit>& out) const {
  out.clear();
  impl_->trie.scan(normalized, [&](std::uint32_t term, std::uint32_t b, std::uint32_t e) {
    if (at_word_boundaries(normalized, b, e)) out.push_back({term, b, e});
  });
}

int DomainLexicon::term_source(std::uint32_t term) const noexcept {
  return term < impl_->source.size() ? impl_->source[term] : -1;
}
float DomainLexicon::term_share(std::uint32_t term) const noexcept {
  return term < impl_->share.size() ? impl_->share[term] : 0.0f;
}
std::uint32_t DomainLexicon::term_df(std::uint32_t term) const noexcept {
  return term < impl_->df.size() ? impl_->df[term] : 0;
}
std::string_view DomainLexicon::term_text(std::uint32_t term) const noexcept {
  if (term >= impl_->df.size()) return {};
  return std::string_view(impl_->blob)
      .substr(impl_->offsets[term], impl_->offsets[term + 1] - impl_->offsets[term]);
}

std::uint64_t DomainLexicon::serial() const noexcept { return impl_->serial; }

std::string DomainLexicon::describe() const {
  return impl_->name + " sha256:" + impl_->sha256 + " " + std::to_string(term_count()) +
         " terms, " + std::to_string(impl_->sources.size()) + " sources";
}

}  // namespace qaplan::internal
