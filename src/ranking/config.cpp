#include "qaplan/ranking/config.hpp"

#include "common/toml_reader.hpp"
#include "qaplan/io.hpp"

namespace qaplan {
namespace {

using internal::toml_reader::Reader;

// An option struct's validate() error, placed on the TOML key it names ("hnsw.m" → m).
Status at_key(Reader& r, Status st) {
  if (st.ok()) return st;
  Error e = std::move(st).error();
  const std::string key = e.field.substr(e.field.find('.') + 1);
  const auto* at = r.find(key);
  return r.err(at ? *at : r.v, key, e.message);
}

Result<RankingConfig> read_ranking(const internal::toml_reader::Value& root,
                                   const std::string& origin) {
  RankingConfig k;
  k.origin = origin;
  Reader top{root, "", origin, {}};
  QAPLAN_TRY(top.section("ranking", false, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.section("bm25", false, [&](Reader& s) -> Status {
      QAPLAN_TRY(s.get("k1", k.bm25.k1));
      QAPLAN_TRY(s.get("b", k.bm25.b));
      if (s.find("norms")) {
        std::string n;
        QAPLAN_TRY(s.get("norms", n));
        auto norms = parse_bm25_norms(n);
        if (!norms.ok()) return s.err(*s.find("norms"), "norms", "must be \"exact\" or \"lucene\"");
        k.bm25.norms = *norms;
      }
      return at_key(s, k.bm25.validate());
    }));
    QAPLAN_TRY(r.section("hnsw", false, [&](Reader& s) -> Status {
      for (auto [key, dst] : {std::pair{"m", &k.hnsw.m},
                              std::pair{"ef_construction", &k.hnsw.ef_construction},
                              std::pair{"ef_search", &k.hnsw.ef_search}}) {
        long long v = static_cast<long long>(*dst);
        QAPLAN_TRY(s.get(key, v));
        if (v < 0) return s.err(*s.find(key), key, "must be ≥ 0");
        *dst = static_cast<std::size_t>(v);
      }
      long long seed = static_cast<long long>(k.hnsw.seed);
      QAPLAN_TRY(s.get("seed", seed));
      if (seed < 0) return s.err(*s.find("seed"), "seed", "must be ≥ 0");
      k.hnsw.seed = static_cast<std::uint64_t>(seed);
      return at_key(s, k.hnsw.validate());
    }));
    QAPLAN_TRY(r.section("rrf", false, [&](Reader& s) -> Status {
      QAPLAN_TRY(s.get("k", k.rrf.k));
      return at_key(s, k.rrf.validate());
    }));
    QAPLAN_TRY(r.section("index", false, [&](Reader& s) -> Status {
      QAPLAN_TRY(s.get("load", k.load));
      if (k.load != "mmap" && k.load != "memory")
        return s.err(*s.find("load"), "load", "must be \"mmap\" or \"memory\"");
      return {};
    }));
    return r.section("bench", false, [&](Reader& s) {
      return s.unit("current_vector_threshold", k.current_vector_threshold);
    });
  }));
  return k;
}

}  // namespace

Status RankingConfig::validate() const {
  for (Status st : {bm25.validate(), hnsw.validate(), rrf.validate()}) {
    if (st.ok()) continue;
    Error e = std::move(st).error();
    e.file = origin;
    e.field = "[ranking." + e.field.substr(0, e.field.find('.')) + "] " +
              e.field.substr(e.field.find('.') + 1);
    return e;
  }
  if (!internal::toml_reader::check_unit(current_vector_threshold).empty())
    return make_file_error(ErrorCode::kInvalidConfig, "must be within [0, 1]", origin, 0,
                           "[ranking.bench] current_vector_threshold");
  return {};
}

Result<RankingConfig> parse_ranking_config(std::string_view toml_text, std::string_view origin) {
  return internal::toml_reader::read_document(toml_text, origin, read_ranking);
}

Result<RankingConfig> load_ranking_config(const std::filesystem::path& path) {
  auto text = read_file(path, "config file");
  if (!text.ok()) return text.error();
  return parse_ranking_config(*text, path.string());
}

}  // namespace qaplan
