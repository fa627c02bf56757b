#include "eval/router_data.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {
namespace {

constexpr std::string_view kRegistryFormat = "qaplan-router-data-1";

int index_of(const std::vector<std::string>& labels, const std::string& label) {
  const auto it = std::find(labels.begin(), labels.end(), label);
  return it == labels.end() ? -1 : static_cast<int>(it - labels.begin());
}

std::string join_labels(const std::vector<std::string>& labels) {
  std::string out;
  for (const std::string& l : labels) out += (out.empty() ? "" : ", ") + l;
  return out;
}

Result<std::map<std::string, std::string>> read_registry(const NamedText& fp) {
  return json::read_json(fp.name, 0, [&] {
    const json::Json j = json::parse_strict(fp.text);
    if (!j.is_object()) json::fail("", "must be a JSON object");
    json::expect_keys(j, "", {"format", "files"});
    if (json::req_string(j, "", "format") != kRegistryFormat)
      json::fail("format", "must be \"" + std::string(kRegistryFormat) + "\"");
    const json::Json& files = j.at("files");
    if (!files.is_object() || files.empty()) json::fail("files", "must be a non-empty object");
    std::map<std::string, std::string> out;
    for (const auto& [name, sha] : files.items()) {
      if (!sha.is_string() || sha.get<std::string>().size() != 64)
        json::fail(json::join("files", name), "must be a 64-digit SHA-256");
      out[name] = sha.get<std::string>();
    }
    return out;
  });
}

struct Labels {
  std::optional<std::string> act, intent, category, source, previous;
  std::optional<bool> dependent;
  std::string text, split;
};

Labels read_row(const json::Json& j) {
  if (!j.is_object()) json::fail("", "must be a JSON object");
  json::expect_keys(j, "", {"text", "act", "intent", "category", "source", "lang", "split"},
                    {"previous", "dependent", "origin"});
  Labels l;
  l.text = json::req_string(j, "", "text");
  l.act = json::opt_string(j, "", "act");
  l.intent = json::opt_string(j, "", "intent");
  l.category = json::opt_string(j, "", "category");
  l.source = json::opt_string(j, "", "source");
  (void)json::opt_string(j, "", "lang");
  l.split = json::req_string(j, "", "split");
  if (j.contains("previous")) {
    l.previous = json::req_string(j, "", "previous");
    const json::Json& dep = j.contains("dependent") ? j.at("dependent") : json::Json();
    if (!dep.is_boolean()) json::fail("dependent", "must be true or false on a row with previous");
    l.dependent = dep.get<bool>();
  } else if (j.contains("dependent")) {
    json::fail("dependent", "only rows with a previous turn carry dependent");
  }
  if (j.contains("origin") && !j.at("origin").is_string()) json::fail("origin", "must be a string");
  return l;
}

}  // namespace

const RouterLabelSets& router_label_sets() {
  static const RouterLabelSets kSets = {
      std::vector<std::string>{"greeting", "thanks", "goodbye", "acknowledgement", "chit_chat",
                               "handoff", "out_of_scope", "unclear", "question"},
      std::vector<std::string>{"FAQ_QUERY", "KNOWLEDGE_QUERY"},
      std::vector<std::string>{"default", "pricing", "compliance", "troubleshooting", "summary"},
      std::vector<std::string>{"hr", "finance", "it", "admin", "legal", "none"},
      std::vector<std::string>{"independent", "dependent"}};
  return kSets;
}

Result<RouterLabelSets> router_label_sets_with_sources(const std::vector<std::string>& sources) {
  auto bad = [](std::string message) {
    return make_error(ErrorCode::kInvalidConfig, std::move(message), "sources");
  };
  // "none" is appended, and a model file holds at most kMaxLabels labels per head.
  if (sources.empty() || sources.size() + 1 > kMaxLabels)
    return bad("must name 1–" + std::to_string(kMaxLabels - 1) + " sources, not " +
               std::to_string(sources.size()));
  std::set<std::string> seen;
  for (const std::string& s : sources) {
    if (s.empty()) return bad("a source name is empty");
    if (s == "none") return bad("\"none\" is the no-source label, not a source name");
    if (!seen.insert(s).second) return bad("duplicate source \"" + s + "\"");
  }
  RouterLabelSets sets = router_label_sets();
  auto& source = sets[static_cast<std::size_t>(Head::kSource)];
  source = sources;
  source.push_back("none");
  return sets;
}

Result<RouterData> load_router_data(const std::vector<NamedText>& files,
                                    const NamedText& fingerprints) {
  return load_router_data(files, fingerprints, router_label_sets(),
                          "the shipped sources (eval_sets/router)");
}

Result<RouterData> load_router_data(const std::vector<NamedText>& files,
                                    const NamedText& fingerprints, const RouterLabelSets& sets,
                                    std::string_view source_origin) {
  QAPLAN_ASSIGN_OR_RETURN(const auto registry, read_registry(fingerprints));
  RouterData data;
  data.labels = sets;
  std::vector<const NamedText*> order;
  std::set<std::string> passed;
  for (const NamedText& f : files) {
    if (!passed.insert(f.name).second)
      return make_file_error(ErrorCode::kInvalidInput, "data file passed twice", f.name);
    const auto it = registry.find(f.name);
    if (it == registry.end())
      return make_file_error(ErrorCode::kFingerprintMismatch,
                             "not registered in " + fingerprints.name, f.name);
    const std::string sha = sha256_hex(f.text);
    if (sha != it->second)
      return make_file_error(ErrorCode::kFingerprintMismatch,
                             "SHA-256 " + sha + " differs from " + fingerprints.name + " (" +
                                 it->second + "); regenerate with scripts/make_router_data.py",
                             f.name);
    order.push_back(&f);
  }
  for (const auto& [name, sha] : registry)
    if (!passed.count(name))
      return make_file_error(ErrorCode::kFingerprintMismatch,
                             "registered in " + fingerprints.name + " but not found", name);
  std::sort(order.begin(), order.end(),
            [](const NamedText* a, const NamedText* b) { return a->name < b->name; });
  std::string listing;
  for (const NamedText* f : order) {
    data.files.emplace_back(f->name, registry.at(f->name));
    listing += f->name + " " + registry.at(f->name) + "\n";
  }
  data.fingerprint = sha256_hex(listing);

  const InputConfig limits;
  // Normalized text → where it was first seen, for the one-split-per-text rule.
  std::map<std::string, std::pair<RouterSplit, std::string>> seen;
  for (const NamedText* f : order) {
    std::size_t pos = 0;
    int line = 0;
    while (pos < f->text.size()) {
      std::size_t eol = f->text.find('\n', pos);
      if (eol == std::string::npos) eol = f->text.size();
      const std::string_view raw(f->text.data() + pos, eol - pos);
      pos = eol + 1;
      ++line;
      if (raw.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      auto fail_at = [&](const std::string& field, const std::string& message) {
        return make_file_error(ErrorCode::kInvalidInput, message, f->name, line, field);
      };
      QAPLAN_ASSIGN_OR_RETURN(const Labels l, json::read_json(f->name, line, [&] {
                                return read_row(json::parse_strict(raw));
                              }));
      RouterRow row;
      row.file = f->name;
      row.line = line;
      auto norm = normalize_question(l.text, limits, "text");
      if (!norm.ok()) return fail_at("text", norm.error().message);
      row.text = std::move(norm->text);
      if (l.previous) {
        auto prev = normalize_question(*l.previous, limits, "previous");
        if (!prev.ok()) return fail_at("previous", prev.error().message);
        row.previous = std::move(prev->text);
        row.has_previous = true;
        row.label[static_cast<std::size_t>(Head::kDependent)] =
            static_cast<std::int8_t>(*l.dependent ? 1 : 0);
      }
      const int split = index_of({"train", "dev", "test"}, l.split);
      if (split < 0) return fail_at("split", "must be train, dev or test, not \"" + l.split + "\"");
      row.split = static_cast<RouterSplit>(split);

      auto set_label = [&](Head h, const std::optional<std::string>& value,
                           const char* field) -> Status {
        if (!value) return {};
        const auto hi = static_cast<std::size_t>(h);
        const int k = index_of(sets[hi], *value);
        if (k < 0 && h == Head::kSource)
          return fail_at(field, "unknown source \"" + *value + "\": the source labels are " +
                                    std::string(source_origin) + " plus none (" +
                                    join_labels(sets[hi]) + "), or null");
        if (k < 0)
          return fail_at(field, "unknown label \"" + *value + "\" (one of " +
                                    join_labels(sets[hi]) + ", or null)");
        row.label[hi] = static_cast<std::int8_t>(k);
        return {};
      };
      QAPLAN_TRY(set_label(Head::kAct, l.act, "act"));
      const bool question = l.act && *l.act == "question";
      for (auto [h, value, field] : {std::tuple{Head::kIntent, &l.intent, "intent"},
                                     std::tuple{Head::kCategory, &l.category, "category"},
                                     std::tuple{Head::kSource, &l.source, "source"}}) {
        if (*value && !question)
          return fail_at(field, "only act = question rows carry " + std::string(field));
        QAPLAN_TRY(set_label(h, *value, field));
      }
      if (std::all_of(row.label.begin(), row.label.end(), [](std::int8_t x) { return x < 0; }))
        return fail_at("act", "the row carries no label for any head");

      const std::string here = f->name + ":" + std::to_string(line);
      const auto [it, fresh] = seen.emplace(row.text, std::pair{row.split, here});
      if (!fresh && it->second.first != row.split)
        return fail_at("split", "normalized text \"" + row.text + "\" is in " +
                                    kRouterSplitNames[static_cast<std::size_t>(row.split)] +
                                    " here but in " +
                                    kRouterSplitNames[static_cast<std::size_t>(it->second.first)] +
                                    " at " + it->second.second);
      data.rows.push_back(std::move(row));
    }
  }
  return data;
}

}  // namespace qaplan::internal
