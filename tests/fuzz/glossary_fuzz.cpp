// Fuzz target: a glossary file (config/glossary/*.toml: `[[terms]] standard = "…", aliases =
// […]`), loaded the way load_config loads it — as the domain file a rules file's [glossary]
// names. The rules file is tests/fuzz/glossary_rules.toml (the smallest that loads), copied once
// into a private temp directory; each input is written as its glossary/fuzz.toml.
//
// Invariants: an error is one line naming the glossary file (or the rules file, for a term the
// cross-field validation refuses); a glossary that loads gives terms with a non-empty standard
// and non-empty aliases, all valid UTF-8; the config then validates and creates a Planner, which
// prepares (and analyzes, where the glossary is used) a question naming a term deterministically.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fuzz_support.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

using namespace qaplan;
namespace fs = std::filesystem;

namespace {

fs::path* g_dir = nullptr;

void write(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", p.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // /dev/shm when present: one small write per execution stays in memory.
  const fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  g_dir = new fs::path(base / ("qaplan-glossary-fuzz-" + std::to_string(::getpid())));
  fs::create_directories(*g_dir / "glossary");
  fs::copy_file(fs::path(QAPLAN_SOURCE_DIR) / "tests/fuzz/glossary_rules.toml", *g_dir / "rules.toml",
                fs::copy_options::overwrite_existing);
  fs::copy_file(fuzz::config_dir() / "glossary/hr.toml", *g_dir / "glossary/fuzz.toml",
                fs::copy_options::overwrite_existing);
  auto cfg = load_config(*g_dir / "rules.toml");
  if (!cfg.ok()) {
    std::fprintf(stderr, "tests/fuzz/glossary_rules.toml no longer loads (add the new key): %s\n",
                 cfg.error().to_string().c_str());
    std::abort();
  }
  std::atexit([] { fs::remove_all(*g_dir); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path glossary = *g_dir / "glossary/fuzz.toml";
  write(glossary, fuzz::as_view(data, size));
  auto cfg = load_config(*g_dir / "rules.toml");
  if (!cfg.ok()) {
    const Error& e = cfg.error();
    fuzz::check_error(e);
    QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidConfig, e.to_string());
    QAPLAN_FUZZ_CHECK(e.file == glossary.string() || e.file == (*g_dir / "rules.toml").string(),
                      e.to_string());
    return 0;
  }
  const auto& terms = cfg->glossary.terms.at("hr");
  for (const auto& t : terms) {
    QAPLAN_FUZZ_CHECK(!t.standard.empty() && fuzz::valid_utf8(t.standard), t.standard);
    QAPLAN_FUZZ_CHECK(!t.aliases.empty(), t.standard);
    for (const auto& a : t.aliases) QAPLAN_FUZZ_CHECK(!a.empty() && fuzz::valid_utf8(a), a);
  }
  QAPLAN_FUZZ_CHECK(cfg->validate().ok(), cfg->validate().error().to_string());
  auto planner = Planner::create(std::move(cfg).value());
  QAPLAN_FUZZ_CHECK(planner.ok(), planner.error().to_string());
  std::string question = "年假";
  if (!terms.empty()) question = terms.front().aliases.front() + "怎么办";
  PrepareRequest req{question, {}, "", std::string("hr")};
  auto a = planner->prepare(req);
  auto b = planner->prepare(req);
  QAPLAN_FUZZ_CHECK(a.ok() == b.ok(), question);
  if (!a.ok()) {
    fuzz::check_error(a.error());
    return 0;
  }
  QAPLAN_FUZZ_CHECK(to_json(*a) == to_json(*b), question);
  return 0;
}
