#include "planning/model/router_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "common/popcount.hpp"
#include "common/json_reader.hpp"
#include "common/file_image.hpp"
#include "common/sha256.hpp"
#include "planning/model/features.hpp"
#include "planning/model/fold.hpp"
#include "planning/model/model_format.hpp"
#include "qaplan/io.hpp"

namespace qaplan::internal {

namespace {

constexpr std::size_t kMaxRowWidth = kHeads * kMaxLabels;
constexpr std::size_t kDigestSize = 32;
constexpr std::size_t kMaxNameLength = 128;

// ---- little-endian helpers ----------------------------------------------------------------------

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_f32(std::string& out, float f) { put_u32(out, std::bit_cast<std::uint32_t>(f)); }
void pad4(std::string& out) {
  while (out.size() % 4 != 0) out.push_back('\0');
}

std::string digest_bytes(std::string_view data) {
  Sha256 h;
  h.update(data);
  const auto d = h.finish();
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

// A bounds-checked cursor over the file bytes; every read names what it was reading so a
// truncated file says where it ends.
class Cursor {
 public:
  Cursor(std::string_view bytes, std::string_view origin) : b_(bytes), origin_(origin) {}

  Result<std::uint32_t> u32(std::string_view what) {
    if (b_.size() - pos_ < 4) return truncated(what, 4);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return v;
  }
  Result<float> f32(std::string_view what) {
    QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t bits, u32(what));
    const float f = std::bit_cast<float>(bits);
    if (!std::isfinite(f)) return invalid(std::string(what) + " is not a finite number");
    return f;
  }
  Result<std::string_view> bytes(std::size_t n, std::string_view what) {
    if (b_.size() - pos_ < n) return truncated(what, n);
    const std::string_view v = b_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  Status padding(std::string_view what) {
    while (pos_ % 4 != 0) {
      if (pos_ >= b_.size()) return truncated(what, 1);
      if (b_[pos_] != '\0') return invalid(std::string(what) + " is not zero");
      ++pos_;
    }
    return {};
  }
  std::size_t pos() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }

  Error invalid(std::string message) const {
    return make_file_error(ErrorCode::kInvalidInput, "invalid router model: " + std::move(message),
                           std::string(origin_));
  }
  Error truncated(std::string_view what, std::size_t need) const {
    return invalid("truncated: the file has " + std::to_string(b_.size()) + " bytes, " +
                   std::string(what) + " needs " + std::to_string(need) + " from byte " +
                   std::to_string(pos_));
  }

 private:
  std::string_view b_;
  std::string_view origin_;
  std::size_t pos_ = 0;
};

struct Meta {
  std::string name;
  std::string feature_spec;
  unsigned hash_bits = 0;
  std::array<std::vector<std::string>, kHeads> labels;
};

Result<Meta> read_meta(std::string_view text, std::string_view origin) {
  auto meta = json::read_json(origin, 0, [&]() -> Meta {
    using json::fail;
    const json::Json j = json::parse_strict(text);
    if (!j.is_object()) fail("", "must be a JSON object");
    json::expect_keys(j, "", {"name", "feature_spec", "hash_bits", "heads", "training"});
    Meta m;
    m.name = json::req_string(j, "", "name");
    if (m.name.size() > kMaxNameLength) fail("name", "longer than 128 bytes");
    m.feature_spec = json::req_string(j, "", "feature_spec");
    const json::Json& bits = j.at("hash_bits");
    if (!bits.is_number_unsigned() || bits.get<std::uint64_t>() < kMinHashBits ||
        bits.get<std::uint64_t>() > kMaxHashBits)
      fail("hash_bits", "must be an integer in [" + std::to_string(kMinHashBits) + ", " +
                            std::to_string(kMaxHashBits) + "]");
    m.hash_bits = bits.get<unsigned>();
    if (!j.at("training").is_object()) fail("training", "must be an object");
    const json::Json& heads = json::req_array(j, "", "heads", true);
    if (heads.size() != kHeads)
      fail("heads",
           "must list " + std::to_string(kHeads) + " heads, has " + std::to_string(heads.size()));
    for (std::size_t h = 0; h < kHeads; ++h) {
      const std::string path = json::index_path("heads", h);
      const json::Json& head = heads[h];
      if (!head.is_object()) fail(path, "must be an object");
      json::expect_keys(head, path, {"name", "labels"});
      const std::string name = json::req_string(head, path, "name");
      if (name != kHeadNames[h])
        fail(json::join(path, "name"),
             "expected \"" + std::string(kHeadNames[h]) + "\", found \"" + name + "\"");
      const json::Json& labels = json::req_array(head, path, "labels", true);
      const std::string lpath = json::join(path, "labels");
      if (labels.size() < 2 || labels.size() > kMaxLabels)
        fail(lpath, "must hold 2 to " + std::to_string(kMaxLabels) + " labels, has " +
                        std::to_string(labels.size()));
      std::set<std::string> seen;
      for (std::size_t k = 0; k < labels.size(); ++k) {
        if (!labels[k].is_string() || labels[k].get<std::string>().empty())
          fail(json::index_path(lpath, k), "must be a non-empty string");
        std::string label = labels[k].get<std::string>();
        if (!seen.insert(label).second)
          fail(json::index_path(lpath, k), "duplicate label \"" + label + "\"");
        m.labels[h].push_back(std::move(label));
      }
    }
    return m;
  });
  if (meta.ok()) return meta;
  // Same shape as the binary checks: "invalid router model: metadata …", the JSON path as field.
  Error e = std::move(meta).error();
  e.message = "invalid router model: metadata: " + e.message;
  e.field = e.field.empty() ? "metadata" : "metadata " + e.field;
  return e;
}

}  // namespace

struct RouterModel::Impl {
  Impl() = default;
  Impl(const Impl&) = delete;  // `weights` points into `file`
  Impl& operator=(const Impl&) = delete;
  std::string name;
  std::string sha256;
  std::string metadata;
  unsigned hash_bits = 0;
  std::array<std::vector<std::string>, kHeads> labels;
  std::array<std::uint32_t, kHeads> offset{};  // first column of each head in a row
  std::array<std::uint32_t, kHeads> count{};
  std::array<float, kHeads> scale{};
  std::array<std::array<float, kMaxLabels>, kHeads> bias{};
  std::uint32_t row_width = 0;
  // The file's bytes, kept: the weight table is read in place rather than copied (at every CLI
  // start a copy cost as much as reading the file).
  FileImage file;
  const std::int8_t* weights = nullptr;
  // A rank directory over the id space: one word per 64 ids says which have a row and how many
  // rows come before it, so an id's row is one load and a popcount (ids are stored sorted). It
  // replaced an open-addressing table twice its size whose probe was a second cache miss per
  // feature (2^hash_bits / 4 bytes: 256 KB at 20 bits).
  struct RankWord {
    std::uint64_t present = 0;
    std::uint64_t before = 0;  // rows of the ids below this word
  };
  std::vector<RankWord> directory;
  std::uint8_t independent = 0;  // the dependent head's label when there is no history

  const std::int8_t* find(std::uint32_t id) const noexcept {
    const RankWord& w = directory[id / 64];
    const std::uint64_t bit = std::uint64_t{1} << (id % 64);
    if ((w.present & bit) == 0) return nullptr;
    const auto row = w.before + static_cast<std::uint64_t>(popcount64(w.present & (bit - 1)));
    return weights + row * row_width;
  }
};

Result<RouterModel> RouterModel::parse(std::string_view bytes, std::string_view origin) {
  return parse_image(FileImage::copy_of(bytes), origin);
}

Result<RouterModel> RouterModel::parse_image(FileImage file, std::string_view origin) {
  auto impl = std::make_shared<Impl>();
  impl->file = std::move(file);
  const std::string_view bytes = impl->file.bytes();
  Cursor c(bytes, origin);
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view magic, c.bytes(8, "magic"));
  if (std::memcmp(magic.data(), kRouterMagic, 8) != 0)
    return c.invalid("bad magic (not a qaplan router model file)");
  QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t version, c.u32("format version"));
  if (version != kRouterFormatVersion)
    return c.invalid("format version " + std::to_string(version) + " not supported (this build " +
                     "reads version " + std::to_string(kRouterFormatVersion) + ")");
  QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t meta_len, c.u32("metadata length"));
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view meta_text, c.bytes(meta_len, "metadata"));
  QAPLAN_ASSIGN_OR_RETURN(Meta meta, read_meta(meta_text, origin));
  if (meta.feature_spec != kRouterFeatureSpec)
    return c.invalid("feature spec \"" + meta.feature_spec + "\" not supported (this build " +
                     "implements \"" + std::string(kRouterFeatureSpec) + "\")");
  QAPLAN_TRY(c.padding("metadata padding"));

  impl->name = meta.name;
  impl->metadata = std::string(meta_text);
  QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t hash_bits, c.u32("hash bits"));
  if (hash_bits != meta.hash_bits)
    return c.invalid("hash bits " + std::to_string(hash_bits) + " differ from the metadata's " +
                     std::to_string(meta.hash_bits));
  impl->hash_bits = hash_bits;
  QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t heads, c.u32("head count"));
  if (heads != kHeads)
    return c.invalid("head count " + std::to_string(heads) + ", expected " +
                     std::to_string(kHeads));
  std::uint32_t width = 0;
  for (std::size_t h = 0; h < kHeads; ++h) {
    const std::string what = std::string(kHeadNames[h]) + " head";
    QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t n, c.u32(what + " label count"));
    if (n > kMaxLabels)
      return c.invalid(what + " has " + std::to_string(n) + " labels, more than " +
                       std::to_string(kMaxLabels));
    if (n != meta.labels[h].size())
      return c.invalid(what + " has " + std::to_string(n) + " labels, the metadata names " +
                       std::to_string(meta.labels[h].size()));
    QAPLAN_ASSIGN_OR_RETURN(const float scale, c.f32(what + " scale"));
    if (!(scale > 0.0f)) return c.invalid(what + " scale must be > 0");
    impl->scale[h] = scale;
    for (std::uint32_t k = 0; k < n; ++k) {
      QAPLAN_ASSIGN_OR_RETURN(impl->bias[h][k], c.f32(what + " bias"));
    }
    impl->offset[h] = width;
    impl->count[h] = n;
    width += n;
    impl->labels[h] = std::move(meta.labels[h]);
  }
  QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t rows, c.u32("row count"));
  QAPLAN_ASSIGN_OR_RETURN(const std::uint32_t row_width, c.u32("row width"));
  if (row_width != width)
    return c.invalid("row width " + std::to_string(row_width) + ", the heads' labels add up to " +
                     std::to_string(width));
  impl->row_width = row_width;
  if (rows > (std::uint64_t{1} << hash_bits))
    return c.invalid("row count " + std::to_string(rows) + " exceeds 2^hash_bits");
  const std::uint64_t table_bytes = std::uint64_t{rows} * (4 + std::uint64_t{row_width});
  if (table_bytes > c.left())
    return c.truncated("the weight table", static_cast<std::size_t>(table_bytes));
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view id_bytes, c.bytes(std::size_t{rows} * 4, "ids"));
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view w_bytes,
                          c.bytes(std::size_t{rows} * row_width, "weights"));
  QAPLAN_TRY(c.padding("table padding"));
  QAPLAN_ASSIGN_OR_RETURN(const std::string_view digest, c.bytes(kDigestSize, "checksum"));
  if (c.left() != 0)
    return c.invalid(std::to_string(c.left()) + " unexpected bytes after the checksum");
  // One pass over the file (it is hashed at every start): the checksum covers everything before
  // it, the fingerprint ([model] sha256) the whole file.
  Sha256 whole;
  whole.update(bytes.substr(0, bytes.size() - kDigestSize));
  Sha256 body = whole;
  const auto sum = body.finish();
  if (digest != std::string_view(reinterpret_cast<const char*>(sum.data()), sum.size()))
    return c.invalid("checksum mismatch (the file is corrupted)");
  whole.update(digest);

  impl->directory.assign((std::size_t{1} << hash_bits) / 64, {});
  std::uint32_t prev = 0;
  for (std::uint32_t r = 0; r < rows; ++r) {
    std::uint32_t id = 0;
    for (int i = 0; i < 4; ++i)
      id |= static_cast<std::uint32_t>(static_cast<unsigned char>(id_bytes[4 * r + i])) << (8 * i);
    if (hash_bits < 32 && id >= (std::uint32_t{1} << hash_bits))
      return c.invalid("feature id " + std::to_string(id) + " at row " + std::to_string(r) +
                       " is not below 2^hash_bits");
    if (r > 0 && id <= prev)
      return c.invalid("feature ids are not strictly increasing at row " + std::to_string(r));
    prev = id;
    impl->directory[id / 64].present |= std::uint64_t{1} << (id % 64);
  }
  std::uint64_t before = 0;
  for (auto& w : impl->directory) {
    w.before = before;
    before += static_cast<std::uint64_t>(popcount64(w.present));
  }
  // -128 (0x80) has no negation in int8: the trainer never writes it.
  if (w_bytes.find('\x80') != std::string_view::npos)
    return c.invalid("weight -128 is outside the quantized range [-127, 127]");
  impl->weights = reinterpret_cast<const std::int8_t*>(w_bytes.data());
  const auto& dep = impl->labels[static_cast<std::size_t>(Head::kDependent)];
  for (std::size_t k = 0; k < dep.size(); ++k)
    if (dep[k] == "independent") impl->independent = static_cast<std::uint8_t>(k);
  impl->sha256 = whole.hex_digest();
  // The fold's index is built here, once, not by the first question (predict stays
  // allocation-free and its first call as fast as the rest).
  char warm[kMaxFoldBytes];
  fold_for_model("", warm);
  return RouterModel(std::move(impl));
}

Result<RouterModel> RouterModel::load(const std::filesystem::path& path) {
  QAPLAN_ASSIGN_OR_RETURN(FileImage bytes, FileImage::read(path, "router model"));
  return parse_image(std::move(bytes), path.string());
}

void RouterModel::predict(std::string_view normalized, std::string_view previous,
                          ModelOutput& out) const noexcept {
  const Impl& m = *impl_;
  FeatureBuffer buf;
  extract_router_features(normalized, previous, m.hash_bits, buf);
  // Integer sums are exact, so the order features arrive in cannot change a score.
  // Each feature costs a directory word and a row, scattered over the table: after a retrieval
  // has evicted them, those are cache misses. They are fetched for all features first (the
  // loads overlap) and summed after, rather than one miss after another.
  for (std::uint32_t i = 0; i < buf.size; ++i) __builtin_prefetch(&m.directory[buf.ids[i] / 64]);
  std::array<const std::int8_t*, kMaxRouterFeatures> rows;
  for (std::uint32_t i = 0; i < buf.size; ++i) {
    rows[i] = m.find(buf.ids[i]);
    if (rows[i] != nullptr) __builtin_prefetch(rows[i]);
  }
  std::array<std::int32_t, kMaxRowWidth> acc{};
  const std::size_t width = m.row_width;
  for (std::uint32_t i = 0; i < buf.text_count; ++i) {
    if (const std::int8_t* row = rows[i])
      for (std::size_t j = 0; j < width; ++j) acc[j] += row[j];
  }
  constexpr auto kDep = static_cast<std::size_t>(Head::kDependent);
  const std::uint32_t dep_off = m.offset[kDep], dep_n = m.count[kDep];
  for (std::uint32_t i = buf.text_count; i < buf.size; ++i) {
    if (const std::int8_t* row = rows[i])
      for (std::uint32_t j = 0; j < dep_n; ++j) acc[dep_off + j] += row[dep_off + j];
  }
  const float inv =
      1.0f / std::sqrt(static_cast<float>(std::max<std::uint32_t>(buf.text_count, 1)));
  for (std::size_t h = 0; h < kHeads; ++h) {
    HeadOutput& o = out[h];
    o.probs.fill(0.0f);
    const std::uint32_t n = m.count[h];
    if (h == kDep && previous.empty()) {
      // Without history nothing can depend on it.
      o.best = m.independent;
      o.score = 1.0f;
      o.probs[m.independent] = 1.0f;
      continue;
    }
    std::array<float, kMaxLabels> z{};
    float zmax = -std::numeric_limits<float>::infinity();
    std::uint8_t best = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      // A file may hold any finite bias and scale; their sum can overflow to ±inf, and inf − inf
      // would make every probability NaN (fuzz finding 11). Clamped, the largest logit still
      // wins and the softmax stays finite; a trained model's logits are far inside the range.
      z[k] = std::clamp(m.bias[h][k] + m.scale[h] * inv * static_cast<float>(acc[m.offset[h] + k]),
                        -std::numeric_limits<float>::max(), std::numeric_limits<float>::max());
      if (z[k] > zmax) {
        zmax = z[k];
        best = static_cast<std::uint8_t>(k);
      }
    }
    float sum = 0.0f;
    for (std::uint32_t k = 0; k < n; ++k) {
      o.probs[k] = std::exp(z[k] - zmax);
      sum += o.probs[k];
    }
    for (std::uint32_t k = 0; k < n; ++k) o.probs[k] /= sum;
    o.best = best;
    o.score = o.probs[best];
  }
}

const std::vector<std::string>& RouterModel::labels(Head head) const noexcept {
  return impl_->labels[static_cast<std::size_t>(head)];
}
const std::string& RouterModel::name() const noexcept { return impl_->name; }
const std::string& RouterModel::sha256() const noexcept { return impl_->sha256; }
const std::string& RouterModel::metadata() const noexcept { return impl_->metadata; }

// ---- writer -------------------------------------------------------------------------------------

Result<std::string> serialize_router_model(const RouterModelData& d) {
  auto bad = [](std::string message) {
    return make_error(ErrorCode::kInvalidInput, "cannot write router model: " + std::move(message));
  };
  if (d.name.empty() || d.name.size() > kMaxNameLength) return bad("name must be 1–128 bytes");
  if (d.hash_bits < kMinHashBits || d.hash_bits > kMaxHashBits)
    return bad("hash_bits out of range");
  std::size_t width = 0;
  std::array<std::size_t, kHeads> offset{};
  for (std::size_t h = 0; h < kHeads; ++h) {
    const RouterHeadData& head = d.heads[h];
    if (head.labels.size() < 2 || head.labels.size() > kMaxLabels)
      return bad(std::string(kHeadNames[h]) + " head needs 2 to 16 labels");
    if (head.bias.size() != head.labels.size())
      return bad(std::string(kHeadNames[h]) + " head: one bias per label");
    for (float b : head.bias)
      if (!std::isfinite(b)) return bad(std::string(kHeadNames[h]) + " head: non-finite bias");
    offset[h] = width;
    width += head.labels.size();
  }
  const std::size_t rows = d.feature_ids.size();
  if (d.weights.size() != rows * width) return bad("weights do not match ids × row width");
  for (std::size_t r = 0; r < rows; ++r) {
    if (r > 0 && d.feature_ids[r] <= d.feature_ids[r - 1])
      return bad("ids not strictly increasing");
    if (d.feature_ids[r] >= (std::uint32_t{1} << d.hash_bits)) return bad("id beyond hash_bits");
  }
  for (float w : d.weights)
    if (!std::isfinite(w)) return bad("non-finite weight");

  // Per-head int8 scale from the largest magnitude.
  std::array<float, kHeads> scale{};
  for (std::size_t h = 0; h < kHeads; ++h) {
    float maxabs = 0.0f;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t k = 0; k < d.heads[h].labels.size(); ++k)
        maxabs = std::max(maxabs, std::fabs(d.weights[r * width + offset[h] + k]));
    scale[h] = maxabs > 0.0f ? maxabs / 127.0f : 1.0f;
  }
  std::vector<std::uint32_t> kept_ids;
  std::string q;
  std::string row(width, '\0');
  for (std::size_t r = 0; r < rows; ++r) {
    bool any = false;
    for (std::size_t h = 0; h < kHeads; ++h)
      for (std::size_t k = 0; k < d.heads[h].labels.size(); ++k) {
        const double v = static_cast<double>(d.weights[r * width + offset[h] + k]) /
                         static_cast<double>(scale[h]);
        const long qv = std::clamp(std::lround(v), -127L, 127L);
        row[offset[h] + k] = static_cast<char>(static_cast<std::int8_t>(qv));
        any |= qv != 0;
      }
    if (!any) continue;
    kept_ids.push_back(d.feature_ids[r]);
    q += row;
  }

  std::string meta;
  try {
    nlohmann::json j;
    j["name"] = d.name;
    j["feature_spec"] = std::string(kRouterFeatureSpec);
    j["hash_bits"] = d.hash_bits;
    nlohmann::json heads = nlohmann::json::array();
    for (std::size_t h = 0; h < kHeads; ++h)
      heads.push_back({{"name", kHeadNames[h]}, {"labels", d.heads[h].labels}});
    j["heads"] = heads;
    nlohmann::json training = nlohmann::json::parse(d.training_json);
    if (!training.is_object()) return bad("training metadata must be a JSON object");
    j["training"] = training;
    meta = j.dump();
  } catch (const std::exception& e) {
    return bad(std::string("training metadata: ") + e.what());
  }

  std::string out(kRouterMagic, 8);
  put_u32(out, kRouterFormatVersion);
  put_u32(out, static_cast<std::uint32_t>(meta.size()));
  out += meta;
  pad4(out);
  put_u32(out, d.hash_bits);
  put_u32(out, static_cast<std::uint32_t>(kHeads));
  for (std::size_t h = 0; h < kHeads; ++h) {
    put_u32(out, static_cast<std::uint32_t>(d.heads[h].labels.size()));
    put_f32(out, scale[h]);
    for (float b : d.heads[h].bias) put_f32(out, b);
  }
  put_u32(out, static_cast<std::uint32_t>(kept_ids.size()));
  put_u32(out, static_cast<std::uint32_t>(width));
  for (std::uint32_t id : kept_ids) put_u32(out, id);
  out += q;
  pad4(out);
  out += digest_bytes(out);
  return out;
}

}  // namespace qaplan::internal
