#include "qaplan/eval/vector_pack.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "common/printable.hpp"
#include "common/sha256.hpp"

namespace qaplan {

namespace {

constexpr const char* kPackCtx = "vector pack";
constexpr const char* kIndexCtx = "vector index";

// Error contexts quote queries; keep them one short line.
std::string quote(std::string_view text) {
  constexpr std::size_t kMax = 80;
  std::string s(text.substr(0, std::min(text.size(), kMax)));
  if (text.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    s = std::string(text.substr(0, cut)) + "…";
  }
  return "\"" + internal::one_printable_line(s) + "\"";
}

// Whether a JSON number's text (already validated by the JSON parser) has magnitude < 1: the
// decimal exponent of its first non-zero digit is negative. Exponents saturate, so any length of
// digits is fine.
bool magnitude_below_one(std::string_view raw) {
  auto digit = [&](std::size_t k) { return k < raw.size() && raw[k] >= '0' && raw[k] <= '9'; };
  std::size_t i = (!raw.empty() && raw[0] == '-') ? 1 : 0;
  const std::size_t int_begin = i;
  while (digit(i)) ++i;
  const std::size_t int_end = i;
  std::optional<long long> lead;  // decimal exponent of the first non-zero digit
  for (std::size_t k = int_begin; k < int_end && !lead; ++k)
    if (raw[k] != '0') lead = static_cast<long long>(int_end - k) - 1;
  if (i < raw.size() && raw[i] == '.') {
    const std::size_t frac_begin = ++i;
    for (; digit(i); ++i)
      if (!lead && raw[i] != '0') lead = -static_cast<long long>(i - frac_begin) - 1;
  }
  if (!lead) return true;  // zero
  long long exp = 0;
  if (i < raw.size() && (raw[i] == 'e' || raw[i] == 'E')) {
    bool negative = false;
    if (++i < raw.size() && (raw[i] == '+' || raw[i] == '-')) negative = raw[i++] == '-';
    for (; digit(i); ++i) exp = std::min<long long>(exp * 10 + (raw[i] - '0'), 1'000'000'000);
    if (negative) exp = -exp;
  }
  return *lead + exp < 0;
}

// A top-level scalar as the SAX reader saw it.
struct Scalar {
  enum Kind { kNull, kBool, kInt, kUInt, kFloat, kString } kind = kNull;
  std::string text;
  std::int64_t i = 0;
  std::uint64_t u = 0;
};

// Schema-aware SAX reader: keeps top-level scalars, streams the one vectors object straight into
// floats (a DOM would cost ~100 bytes per number), and sees every number's source text, so a float
// is rounded once from decimal and duplicate keys (which a DOM would silently merge) are caught.
class PackReader {
 public:
  using json = nlohmann::json;
  explicit PackReader(std::string vectors_key, const char* item_name)
      : vectors_key_(std::move(vectors_key)), item_name_(item_name) {}

  std::map<std::string, Scalar> fields;
  std::vector<NamedVector> vectors;
  bool vectors_seen = false;
  std::string error;

  bool null() { return scalar(Scalar{Scalar::kNull, {}, 0, 0}); }
  bool boolean(bool) { return scalar(Scalar{Scalar::kBool, {}, 0, 0}); }
  bool number_integer(json::number_integer_t v) {
    if (depth_ == 3) return push(static_cast<float>(v));
    return scalar(Scalar{Scalar::kInt, {}, v, 0});
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (depth_ == 3) return push(static_cast<float>(v));
    return scalar(Scalar{Scalar::kUInt, {}, 0, v});
  }
  bool number_float(json::number_float_t, const json::string_t& raw) {
    if (depth_ == 3) {
      float f = 0.0f;
      const char* end = raw.data() + raw.size();
      auto [ptr, ec] = std::from_chars(raw.data(), end, f);
      if (ec == std::errc::result_out_of_range && ptr == end && magnitude_below_one(raw)) {
        // libstdc++ reports both overflow and underflow; only overflow is an error. The
        // decimal exponent decides which, so 1e-400 (beyond double too) is a zero like 1e-46.
        f = raw.front() == '-' ? -0.0f : 0.0f;
        ec = std::errc();
      }
      if (ec != std::errc() || ptr != end) {
        return fail(where() + ": value " + raw + " is not a finite float");
      }
      return push(f);
    }
    return scalar(Scalar{Scalar::kFloat, raw, 0, 0});
  }
  bool string(json::string_t& s) { return scalar(Scalar{Scalar::kString, s, 0, 0}); }
  bool binary(json::binary_t&) { return fail("unexpected binary value"); }

  bool start_object(std::size_t) {
    if (depth_ == 0) return ++depth_, true;
    if (depth_ == 1 && top_key_ == vectors_key_) {
      vectors_seen = true;
      return ++depth_, true;
    }
    if (depth_ == 1) return fail("field " + quote(top_key_) + " has the wrong type");
    return fail(where() + ": vector must be an array of numbers");
  }
  bool key(json::string_t& k) {
    if (depth_ == 1) {
      if (!top_keys_.insert(k).second) return fail("duplicate key " + quote(k));
      top_key_ = k;
      return true;
    }
    // depth 2: an id inside the vectors object.
    if (!item_keys_.insert(k).second) {
      return fail("duplicate " + std::string(item_name_) + " " + quote(k));
    }
    item_key_ = k;
    return true;
  }
  bool end_object() { return --depth_, true; }
  bool start_array(std::size_t) {
    if (depth_ == 2) {
      vectors.push_back(NamedVector{item_key_, {}});
      return ++depth_, true;
    }
    if (depth_ == 0) return fail("top level must be a JSON object");
    if (depth_ == 1) return fail("field " + quote(top_key_) + " has the wrong type");
    return fail(where() + ": vector must be a flat array of numbers");
  }
  bool end_array() { return --depth_, true; }
  bool parse_error(std::size_t pos, const std::string& token,
                   const nlohmann::detail::exception& e) {
    // nlohmann refuses a number beyond double range (1e400) itself (out_of_range.406), before
    // number_float sees it; inside a vector that is the same error as 1e39.
    if (e.id == 406 && depth_ == 3) return fail(where() + ": value " + token + " is not a finite float");
    // nlohmann's message already says "syntax error while parsing … at line L, column C".
    std::string what = e.what();
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    // Drop "; last read: '<raw bytes>'": they may be invalid UTF-8; the byte offset says where.
    if (auto p = what.find("; last read:"); p != std::string::npos) what.resize(p);
    return fail("malformed JSON at byte " + std::to_string(pos) + ": " + what);
  }

 private:
  bool fail(std::string msg) {
    if (error.empty()) error = std::move(msg);
    return false;
  }
  std::string where() const { return std::string(item_name_) + " " + quote(item_key_); }
  bool push(float f) {
    vectors.back().values.push_back(f);
    return true;
  }
  bool scalar(Scalar s) {
    if (depth_ == 0) return fail("top level must be a JSON object");
    if (depth_ == 1) {
      if (top_key_ == vectors_key_) return fail("field " + quote(top_key_) + " must be an object");
      fields[top_key_] = std::move(s);
      return true;
    }
    if (depth_ == 2) return fail(where() + ": vector must be an array of numbers");
    return fail(where() + ": vector holds a non-number");
  }

  std::string vectors_key_;
  const char* item_name_;
  int depth_ = 0;
  std::string top_key_;
  std::string item_key_;
  std::unordered_set<std::string> top_keys_;
  std::unordered_set<std::string> item_keys_;
};

// `ctx` names which of the two files ("vector pack", "vector index"); callers that know the
// paths replace it.
Error invalid(std::string msg, const char* ctx) {
  return make_file_error(ErrorCode::kInvalidInput, std::move(msg), ctx);
}

// Runs the SAX reader and checks the top-level key set.
Status read(std::string_view text, PackReader& reader, const std::vector<std::string>& scalar_keys,
            const std::string& vectors_key, const char* ctx) {
  try {
    const bool ok = nlohmann::json::sax_parse(text.begin(), text.end(), &reader);
    if (!ok) {
      return invalid(reader.error.empty() ? "malformed JSON" : reader.error, ctx);
    }
  } catch (const std::exception& e) {
    return invalid(std::string("malformed JSON: ") + e.what(), ctx);
  }
  for (const auto& [k, v] : reader.fields) {
    bool known = false;
    for (const auto& s : scalar_keys) known = known || s == k;
    if (!known) return invalid("unknown field " + quote(k), ctx);
  }
  for (const auto& k : scalar_keys) {
    if (!reader.fields.count(k)) return invalid("missing field \"" + k + "\"", ctx);
  }
  if (!reader.vectors_seen) return invalid("missing field \"" + vectors_key + "\"", ctx);
  const Scalar& sv = reader.fields.at("schema_version");
  const bool v1 = (sv.kind == Scalar::kUInt && sv.u == 1) || (sv.kind == Scalar::kInt && sv.i == 1);
  if (!v1) return invalid("schema_version must be 1", ctx);
  return {};
}

Result<std::string> get_string(const PackReader& r, const std::string& key, const char* ctx) {
  const Scalar& s = r.fields.at(key);
  if (s.kind != Scalar::kString) return invalid("field \"" + key + "\" must be a string", ctx);
  return s.text;
}

Result<std::size_t> get_dimensions(const PackReader& r, const char* ctx) {
  const Scalar& s = r.fields.at("dimensions");
  if (s.kind == Scalar::kUInt && s.u > 0 && s.u <= (1u << 24)) {
    return static_cast<std::size_t>(s.u);
  }
  return invalid("field \"dimensions\" must be a positive integer", ctx);
}


Status check_hash_field(std::string_view value, const char* field, const char* ctx) {
  if (!internal::is_sha256_hex(value)) {
    return invalid(std::string("field \"") + field + "\" must be 64 lower-case hex digits", ctx);
  }
  return {};
}

// ---- writing ----

Result<std::string> json_string(std::string_view s) {
  try {
    return nlohmann::json(std::string(s)).dump();
  } catch (const std::exception&) {
    return invalid("string is not valid UTF-8: " + quote(s), "vector pack writer");
  }
}

Status append_vectors(std::string& out, const std::vector<NamedVector>& vectors) {
  if (vectors.empty()) {
    out += "{}";
    return {};
  }
  out += "{\n";
  char buf[64];
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    auto key = json_string(vectors[i].key);
    if (!key.ok()) return key.error();
    out += "    ";
    out += *key;
    out += ": [";
    for (std::size_t j = 0; j < vectors[i].values.size(); ++j) {
      const float f = vectors[i].values[j];
      if (!std::isfinite(f)) {
        return invalid("non-finite value in " + quote(vectors[i].key), "vector pack writer");
      }
      if (j) out += ',';
      if (f == 0.0f && std::signbit(f)) {
        out += "-0.0";  // "-0" would read back as the integer 0 and lose the sign
        continue;
      }
      auto res = std::to_chars(buf, buf + sizeof buf, f);
      out.append(buf, res.ptr);
    }
    out += ']';
    out += i + 1 < vectors.size() ? ",\n" : "\n";
  }
  out += "  }";
  return {};
}

Status append_field(std::string& out, const char* key, std::string_view value) {
  auto v = json_string(value);
  if (!v.ok()) return v.error();
  out += "  \"";
  out += key;
  out += "\": ";
  out += *v;
  out += ",\n";
  return {};
}

// ---- validation ----

Status check_vectors(const std::vector<NamedVector>& vectors, std::size_t dims, const char* item,
                     const char* ctx) {
  for (const auto& nv : vectors) {
    if (nv.values.size() != dims) {
      return invalid(std::string(item) + " " + quote(nv.key) + ": vector has " +
                         std::to_string(nv.values.size()) + " values, dimensions is " +
                         std::to_string(dims),
                     ctx);
    }
    bool nonzero = false;
    for (float f : nv.values) {
      if (!std::isfinite(f)) {
        return invalid(std::string(item) + " " + quote(nv.key) + ": non-finite value", ctx);
      }
      nonzero = nonzero || f != 0.0f;
    }
    if (!nonzero) return invalid(std::string(item) + " " + quote(nv.key) + ": zero vector", ctx);
  }
  return {};
}

// Exactly `expected` (as a set) must be the keys of `vectors`.
Status check_key_set(const std::vector<NamedVector>& vectors,
                     const std::vector<std::string>& expected, const char* item,
                     const char* ctx) {
  std::unordered_set<std::string_view> want(expected.begin(), expected.end());
  std::unordered_set<std::string_view> have;
  for (const auto& nv : vectors) {
    if (!have.insert(nv.key).second) {
      return invalid("duplicate " + std::string(item) + " " + quote(nv.key), ctx);
    }
  }
  for (const auto& e : expected) {
    if (!have.count(e)) return invalid(std::string("missing ") + item + " " + quote(e), ctx);
  }
  for (const auto& nv : vectors) {
    if (!want.count(nv.key)) {
      return invalid(std::string("unexpected ") + item + " " + quote(nv.key) +
                         " (not in the frozen dataset)",
                     ctx);
    }
  }
  return {};
}

std::vector<std::vector<float>> reorder(const std::vector<NamedVector>& vectors,
                                        const std::vector<std::string>& order) {
  std::unordered_map<std::string_view, const std::vector<float>*> by_key;
  for (const auto& nv : vectors) by_key.emplace(nv.key, &nv.values);
  std::vector<std::vector<float>> out;
  out.reserve(order.size());
  for (const auto& k : order) out.push_back(*by_key.at(k));
  return out;
}

}  // namespace

Result<QueryVectorPack> parse_query_pack(std::string_view json_text) {
  PackReader r("query_vectors", "query");
  const std::vector<std::string> keys = {"schema_version", "model",         "provenance",
                                         "index_sha256",   "corpus_sha256", "dimensions"};
  if (Status st = read(json_text, r, keys, "query_vectors", kPackCtx); !st.ok()) {
    return st.error();
  }
  QueryVectorPack p;
  for (auto [field, dest] : {std::pair{"model", &p.model}, std::pair{"provenance", &p.provenance},
                             std::pair{"index_sha256", &p.index_sha256},
                             std::pair{"corpus_sha256", &p.corpus_sha256}}) {
    auto s = get_string(r, field, kPackCtx);
    if (!s.ok()) return s.error();
    *dest = std::move(*s);
  }
  if (p.model.empty()) return invalid("field \"model\" is empty", kPackCtx);
  if (Status st = check_hash_field(p.index_sha256, "index_sha256", kPackCtx); !st.ok()) {
    return st.error();
  }
  if (Status st = check_hash_field(p.corpus_sha256, "corpus_sha256", kPackCtx); !st.ok()) {
    return st.error();
  }
  auto dims = get_dimensions(r, kPackCtx);
  if (!dims.ok()) return dims.error();
  p.dimensions = *dims;
  p.query_vectors = std::move(r.vectors);
  return p;
}

Result<DocumentVectorIndex> parse_vector_index(std::string_view json_text) {
  PackReader r("vectors", "chunk");
  const std::vector<std::string> keys = {"schema_version", "model", "dimensions", "corpus_sha256"};
  if (Status st = read(json_text, r, keys, "vectors", kIndexCtx); !st.ok()) return st.error();
  DocumentVectorIndex x;
  auto model = get_string(r, "model", kIndexCtx);
  if (!model.ok()) return model.error();
  x.model = std::move(*model);
  if (x.model.empty()) return invalid("field \"model\" is empty", kIndexCtx);
  auto corpus = get_string(r, "corpus_sha256", kIndexCtx);
  if (!corpus.ok()) return corpus.error();
  x.corpus_sha256 = std::move(*corpus);
  if (Status st = check_hash_field(x.corpus_sha256, "corpus_sha256", kIndexCtx); !st.ok()) {
    return st.error();
  }
  auto dims = get_dimensions(r, kIndexCtx);
  if (!dims.ok()) return dims.error();
  x.dimensions = *dims;
  x.vectors = std::move(r.vectors);
  return x;
}

Result<std::string> write_query_pack(const QueryVectorPack& pack) {
  std::string out = "{\n  \"schema_version\": " + std::to_string(kVectorPackSchemaVersion) + ",\n";
  for (auto [k, v] : {std::pair{"model", &pack.model}, std::pair{"provenance", &pack.provenance},
                      std::pair{"index_sha256", &pack.index_sha256},
                      std::pair{"corpus_sha256", &pack.corpus_sha256}}) {
    if (Status st = append_field(out, k, *v); !st.ok()) return st.error();
  }
  out += "  \"dimensions\": " + std::to_string(pack.dimensions) + ",\n  \"query_vectors\": ";
  if (Status st = append_vectors(out, pack.query_vectors); !st.ok()) return st.error();
  out += "\n}\n";
  return out;
}

Result<std::string> write_vector_index(const DocumentVectorIndex& index) {
  std::string out = "{\n  \"schema_version\": " + std::to_string(kVectorPackSchemaVersion) + ",\n";
  if (Status st = append_field(out, "model", index.model); !st.ok()) return st.error();
  out += "  \"dimensions\": " + std::to_string(index.dimensions) + ",\n";
  if (Status st = append_field(out, "corpus_sha256", index.corpus_sha256); !st.ok()) {
    return st.error();
  }
  out += "  \"vectors\": ";
  if (Status st = append_vectors(out, index.vectors); !st.ok()) return st.error();
  out += "\n}\n";
  return out;
}

Status validate_vector_pack(const QueryVectorPack& pack, const DocumentVectorIndex& index,
                            std::string_view raw_index_bytes, const PackExpectations& expected) {
  if (pack.model != index.model) {
    return invalid("pack model " + quote(pack.model) + " differs from index model " +
                       quote(index.model),
                   kPackCtx);
  }
  if (pack.dimensions != index.dimensions) {
    return invalid("pack dimensions " + std::to_string(pack.dimensions) +
                       " differ from index dimensions " + std::to_string(index.dimensions),
                   kPackCtx);
  }
  if (pack.dimensions == 0) return invalid("dimensions must be > 0", kPackCtx);
  const std::string index_hash = internal::sha256_hex(raw_index_bytes);
  if (pack.index_sha256 != index_hash) {
    return invalid("index_sha256 " + pack.index_sha256 + " does not match the index file (" +
                       index_hash + ")",
                   kPackCtx);
  }
  if (pack.corpus_sha256 != expected.corpus_sha256) {
    return invalid("corpus_sha256 " + pack.corpus_sha256 + " does not match the dataset corpus (" +
                       expected.corpus_sha256 + ")",
                   kPackCtx);
  }
  if (index.corpus_sha256 != expected.corpus_sha256) {
    return invalid("corpus_sha256 " + index.corpus_sha256 +
                       " does not match the dataset corpus (" + expected.corpus_sha256 + ")",
                   kIndexCtx);
  }
  if (Status st = check_key_set(pack.query_vectors, expected.queries, "query", kPackCtx);
      !st.ok()) {
    return st;
  }
  if (Status st = check_key_set(index.vectors, expected.chunk_ids, "chunk", kIndexCtx); !st.ok()) {
    return st;
  }
  if (Status st = check_vectors(pack.query_vectors, pack.dimensions, "query", kPackCtx);
      !st.ok()) {
    return st;
  }
  return check_vectors(index.vectors, index.dimensions, "chunk", kIndexCtx);
}

Result<LoadedVectors> load_vector_pack(std::string_view pack_text, std::string_view index_text,
                                       const PackExpectations& expected) {
  auto index = parse_vector_index(index_text);
  if (!index.ok()) return index.error();
  auto pack = parse_query_pack(pack_text);
  if (!pack.ok()) return pack.error();
  if (Status st = validate_vector_pack(*pack, *index, index_text, expected); !st.ok()) {
    return st.error();
  }
  LoadedVectors out;
  out.model = pack->model;
  out.provenance = pack->provenance;
  out.dimensions = pack->dimensions;
  out.query_vectors = reorder(pack->query_vectors, expected.queries);
  out.chunk_vectors = reorder(index->vectors, expected.chunk_ids);
  return out;
}

Result<VectorPackFiles> build_vector_pack(const Embedder& embedder,
                                          const PackExpectations& expected,
                                          const std::vector<std::string>& chunk_texts,
                                          std::string provenance) {
  if (chunk_texts.size() != expected.chunk_ids.size()) {
    return invalid(std::to_string(expected.chunk_ids.size()) + " chunk ids but " +
                       std::to_string(chunk_texts.size()) + " chunk texts",
                   "vector pack builder");
  }
  DocumentVectorIndex index;
  index.model = std::string(embedder.model());
  index.dimensions = embedder.dimensions();
  index.corpus_sha256 = expected.corpus_sha256;
  for (std::size_t i = 0; i < chunk_texts.size(); ++i) {
    auto v = embedder.embed(chunk_texts[i]);
    if (!v.ok()) {
      Error e = v.error();
      e.field = "vector pack builder: chunk " + quote(expected.chunk_ids[i]);
      return e;
    }
    index.vectors.push_back(NamedVector{expected.chunk_ids[i], std::move(*v)});
  }
  auto index_json = write_vector_index(index);
  if (!index_json.ok()) return index_json.error();
  QueryVectorPack pack;
  pack.model = index.model;
  pack.provenance = std::move(provenance);
  pack.index_sha256 = internal::sha256_hex(*index_json);
  pack.corpus_sha256 = expected.corpus_sha256;
  pack.dimensions = index.dimensions;
  for (const auto& q : expected.queries) {
    auto v = embedder.embed(q);
    if (!v.ok()) {
      Error e = v.error();
      e.field = "vector pack builder: query " + quote(q);
      return e;
    }
    pack.query_vectors.push_back(NamedVector{q, std::move(*v)});
  }
  auto pack_json = write_query_pack(pack);
  if (!pack_json.ok()) return pack_json.error();
  return VectorPackFiles{std::move(*index_json), std::move(*pack_json)};
}

}  // namespace qaplan
