// Fuzz target: a router model file (config/models/*.qpm) through RouterModel::parse, the loader
// behind RouterModel::load and Planner::create. Byte 0 of the input is a mode: with bit 0 set,
// the last 32 bytes of the rest are replaced by the SHA-256 of what precedes them, so mutations
// get past the checksum into the structure checks and predict(); otherwise the bytes are parsed
// as they are.
//
// Invariants: an error is one line, kInvalidInput, naming the file; a model that parses has 2–16
// distinct labels per head, a name, and sha256 = SHA-256 of the bytes; predict() gives, for every
// head, a best label below the label count and finite probabilities in [0, 1] that sum to 1 with
// probs[best] = score (on several questions, with and without a previous turn); the planner's
// label mapping against the shipped rules either succeeds or fails with a one-line error.
#include <cmath>

#include "common/sha256.hpp"
#include "fuzz_support.hpp"
#include "planning/model/model_view.hpp"
#include "planning/model/router_model.hpp"
#include "qaplan/planning/config.hpp"

using namespace qaplan;
using namespace qaplan::internal;

namespace {

constexpr const char* kOrigin = "fuzz.qpm";
Config* g_config = nullptr;

void check_output(const RouterModel& m, const ModelOutput& out, std::string_view q) {
  for (std::size_t h = 0; h < kHeads; ++h) {
    const HeadOutput& o = out[h];
    const std::size_t n = m.labels(static_cast<Head>(h)).size();
    const std::string where = "head " + std::to_string(h) + " on \"" + std::string(q) + "\"";
    QAPLAN_FUZZ_CHECK(o.best < n, where);
    double sum = 0;
    for (std::size_t k = 0; k < kMaxLabels; ++k) {
      const float p = o.probs[k];
      QAPLAN_FUZZ_CHECK(std::isfinite(p) && p >= 0.0f && p <= 1.0f,
                        where + ": p[" + std::to_string(k) + "] = " + std::to_string(p));
      if (k >= n) QAPLAN_FUZZ_CHECK(p == 0.0f, where);
      sum += p;
    }
    QAPLAN_FUZZ_CHECK(std::fabs(sum - 1.0) < 1e-3, where + ": sum " + std::to_string(sum));
    QAPLAN_FUZZ_CHECK(o.score == o.probs[o.best], where);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto cfg = load_config(fuzz::config_dir() / "rules.toml");
  if (!cfg.ok()) std::abort();
  g_config = new Config(std::move(cfg).value());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::string bytes(fuzz::as_view(data + 1, size - 1));
  if ((data[0] & 1) && bytes.size() >= 32) {
    Sha256 h;
    h.update(std::string_view(bytes).substr(0, bytes.size() - 32));
    const auto d = h.finish();
    bytes.replace(bytes.size() - 32, 32, reinterpret_cast<const char*>(d.data()), d.size());
  }
  auto model = RouterModel::parse(bytes, kOrigin);
  if (!model.ok()) {
    const Error& e = model.error();
    fuzz::check_error(e);
    QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidInput, e.to_string());
    QAPLAN_FUZZ_CHECK(e.file == kOrigin, e.to_string());
    return 0;
  }
  const RouterModel& m = *model;
  QAPLAN_FUZZ_CHECK(m.sha256() == sha256_hex(bytes), m.sha256());
  QAPLAN_FUZZ_CHECK(!m.name().empty(), "empty name");
  for (std::size_t h = 0; h < kHeads; ++h) {
    const auto& labels = m.labels(static_cast<Head>(h));
    QAPLAN_FUZZ_CHECK(labels.size() >= 2 && labels.size() <= kMaxLabels, std::to_string(h));
    for (std::size_t i = 0; i < labels.size(); ++i)
      for (std::size_t j = i + 1; j < labels.size(); ++j)
        QAPLAN_FUZZ_CHECK(labels[i] != labels[j], labels[i]);
  }
  ModelOutput out{};
  for (std::string_view q : {"年假怎么申请", "你好", "vpn连不上 error 0x800", ""}) {
    m.predict(q, "", out);
    check_output(m, out, q);
    m.predict(q, "上个问题是报销", out);
    check_output(m, out, q);
  }
  auto map = map_model_labels(m, *g_config);
  if (!map.ok()) fuzz::check_error(map.error());
  return 0;
}
