#include "engines/versions.hpp"

#include <charconv>

namespace qaplan::engines {

Result<Version> parse_version(Engine e, std::string_view text) {
  const char* range = e == Engine::kElasticsearch ? "8.14 … 9.x"
                      : e == Engine::kOpenSearch  ? "2.10 … 3.x"
                                                  : "2.4 … 2.x";
  auto fail = [&](std::string why) -> Error {
    return make_error(ErrorCode::kInvalidConfig,
                      std::string(to_string(e)) + " version '" + std::string(text) + "' " + why +
                          " (supported: " + range + ")",
                      "version");
  };
  Version v;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  auto r = std::from_chars(p, end, v.major);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return fail("is not major.minor");
  auto r2 = std::from_chars(r.ptr + 1, end, v.minor);
  if (r2.ec != std::errc()) return fail("is not major.minor");
  if (r2.ptr != end) {  // a patch level: digits only
    int patch = 0;
    if (*r2.ptr != '.') return fail("is not major.minor");
    auto r3 = std::from_chars(r2.ptr + 1, end, patch);
    if (r3.ec != std::errc() || r3.ptr != end) return fail("is not major.minor[.patch]");
  }
  bool ok = false;
  switch (e) {
    // 9.x takes the requests of 8.16+: knn queries carry k (9.0 defaults it to size), fused hits
    // go unhighlighted (9.0 refuses it) and _knn_search, which 9.0 removed, is never sent.
    case Engine::kElasticsearch: ok = (v.major == 8 && v.minor >= 14) || v.major == 9; break;
    case Engine::kOpenSearch: ok = (v.major == 2 && v.minor >= 10) || v.major == 3; break;
    case Engine::kMilvus: ok = v.major == 2 && v.minor >= 4; break;
  }
  if (!ok) return fail("is not supported");
  return v;
}

}  // namespace qaplan::engines
