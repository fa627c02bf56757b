// qaplan --version: what a bug report needs — the library version, the config schema and file in
// use, the router model's fingerprint and the frozen benchmark's dataset fingerprints.
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/io.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "qaplan/version.hpp"

namespace qaplan::cli {

std::string version_text() {
  std::ostringstream out;
  out << "qaplan " << QAPLAN_VERSION_STRING << "\n";
  out << "config schema_version " << kConfigSchemaVersion << "\n";
  out << "tokenizer " << kTokenizerVersion << "\n";
  // Never fails: a missing or broken config is reported on its line, --version still answers.
  auto where = locate_config();
  if (!where.ok()) {
    out << "config: none (" << where.error().to_string() << ")\n";
  } else {
    std::error_code ec;
    const auto shown = std::filesystem::absolute(where->path, ec).lexically_normal();
    out << "config " << (ec ? where->path : shown).string() << " (" << where->describe() << ")\n";
    auto cfg = load_config(where->path);
    if (!cfg.ok()) {
      out << "router model: unknown (config error: " << cfg.error().to_string() << ")\n";
    } else if (cfg->model.path.empty()) {
      out << "router model: none\n";
    } else {
      out << "router model " << cfg->model.path << " sha256:" << cfg->model.sha256
          << (cfg->model.enabled ? " (on)" : " (off)") << "\n";
    }
    if (cfg.ok())
      out << "domain lexicon "
          << (cfg->domain.lexicon.empty()
                  ? std::string("none")
                  : cfg->domain.lexicon + " sha256:" +
                        (cfg->domain.sha256.empty() ? "not pinned" : cfg->domain.sha256))
          << "\n";
  }
  auto registry = find_data_file("", "eval_sets/fingerprints.json", "--fingerprints");
  if (!registry.ok()) {
    out << "benchmark datasets: none found\n";
    return out.str();
  }
  try {
    const auto text = read_file(*registry, "fingerprint registry");
    if (!text.ok()) throw std::runtime_error(text.error().message);
    const auto j = nlohmann::json::parse(*text);
    for (const auto& [name, fp] : j.items())
      out << "benchmark dataset " << name << " dataset_sha256:"
          << fp.value("dataset_sha256", std::string("?")) << " corpus_sha256:"
          << fp.value("corpus_sha256", std::string("?")) << "\n";
  } catch (const std::exception& e) {
    out << "benchmark datasets: unreadable " << registry->string() << "\n";
  }
  return out.str();
}

}  // namespace qaplan::cli
