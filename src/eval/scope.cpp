#include "qaplan/eval/scope.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "common/enum_table.hpp"

namespace qaplan {

namespace {
constexpr internal::EnumTable<ExclusionReason, 6> kReasons{{{
    {ExclusionReason::kIncompleteMetadata, "incomplete_metadata"},
    {ExclusionReason::kNotYetEffective, "not_yet_effective"},
    {ExclusionReason::kExpired, "expired"},
    {ExclusionReason::kSuperseded, "superseded"},
    {ExclusionReason::kConflictingVersions, "conflicting_versions"},
    {ExclusionReason::kNonRuleSection, "non_rule_section"},
}}};

std::string date_string(const CivilDate& d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", d.year, d.month, d.day);
  return buf;
}

// What rules 1–4 decided for one policy version before versions are compared.
enum class Stage { kExcluded, kInEffect, kEnded };

struct Decision {
  Stage stage = Stage::kExcluded;
  ExclusionReason reason = ExclusionReason::kIncompleteMetadata;
  std::string detail;
};

bool missing(const std::optional<std::string>& s) { return !s || s->empty(); }

}  // namespace

std::string_view to_string(ExclusionReason reason) noexcept { return kReasons.name(reason); }

Result<ExclusionReason> parse_exclusion_reason(std::string_view text) {
  return kReasons.parse(text, "exclusion reason");
}

ScopeResult select_policy_scope(const Dataset& d, const TimePoint& at) {
  const std::int64_t offset_s = std::int64_t{at.offset_minutes} * 60;
  // Start of local day D at the time point's offset, as a Unix instant.
  auto day_start = [&](const CivilDate& day) { return days_from_civil(day) * 86400 - offset_s; };
  const std::string today = date_string(at.local_date());

  // ---- rules 1–4 per version
  std::vector<Decision> dec(d.policies.size());
  for (std::size_t i = 0; i < d.policies.size(); ++i) {
    const Policy& p = d.policies[i];
    Decision& x = dec[i];
    std::string absent;
    auto note = [&](bool miss, const char* field) {
      if (miss) absent += (absent.empty() ? "" : ", ") + std::string(field);
    };
    note(missing(p.title), "title");
    note(missing(p.version) || !is_valid_policy_version(*p.version), "version");
    note(!p.status.has_value(), "status");
    std::optional<CivilDate> from, to;
    if (!missing(p.effective_from)) {
      if (auto r = parse_iso_date(*p.effective_from)) from = *r;
    }
    note(!from.has_value(), "effective_from");
    if (p.effective_to) {
      auto r = parse_iso_date(*p.effective_to);
      if (r) to = *r;
      note(!r.ok(), "effective_to");
    }
    if (!absent.empty()) {
      x.reason = ExclusionReason::kIncompleteMetadata;
      x.detail = "missing or malformed " + absent;
      continue;
    }
    if (*p.status == PolicyStatus::kSuperseded) {
      x.reason = ExclusionReason::kSuperseded;
      x.detail = "status is superseded";
      continue;
    }
    const bool started = at.unix_seconds >= day_start(*from);
    if (!started) {
      x.reason = ExclusionReason::kNotYetEffective;
      x.detail = "effective_from " + *p.effective_from + " is after " + today;
      continue;
    }
    // effective_to is inclusive: the range ends at the start of the following day.
    if (to && at.unix_seconds >= day_start(*to) + 86400) {
      x.stage = Stage::kEnded;
      x.reason = ExclusionReason::kExpired;
      x.detail = "effective_to " + *p.effective_to + " is before " + today;
      continue;
    }
    x.stage = Stage::kInEffect;
  }

  // ---- rule 4 (ended, and a newer version is in effect) and rule 5 (conflicts). Both look
  // only at stages from rules 1–4, so the members of a conflicting pair see each other.
  std::vector<std::string> conflicts_with(d.policies.size());
  for (std::size_t i = 0; i < d.policies.size(); ++i) {
    const Policy& p = d.policies[i];
    for (std::size_t j = 0; j < d.policies.size(); ++j) {
      const Policy& o = d.policies[j];
      if (j == i || dec[j].stage != Stage::kInEffect || o.policy_id != p.policy_id) continue;
      if (dec[i].stage == Stage::kEnded && compare_policy_versions(*o.version, *p.version) > 0 &&
          dec[i].reason != ExclusionReason::kSuperseded) {
        dec[i].reason = ExclusionReason::kSuperseded;
        dec[i].detail = "ended " + *p.effective_to + "; replaced by version " + *o.version;
      } else if (dec[i].stage == Stage::kInEffect) {
        conflicts_with[i] += (conflicts_with[i].empty() ? "" : ", ") + *o.version;
      }
    }
  }
  for (std::size_t i = 0; i < d.policies.size(); ++i) {
    if (conflicts_with[i].empty()) continue;
    dec[i].stage = Stage::kExcluded;
    dec[i].reason = ExclusionReason::kConflictingVersions;
    dec[i].detail = "version " + *d.policies[i].version + " and version " + conflicts_with[i] +
                    " are both effective on " + today;
  }

  // ---- rule 6 and the result, in chunk id order
  std::vector<std::size_t> order(d.chunks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return d.chunks[a].id < d.chunks[b].id; });
  ScopeResult out;
  out.at = at;
  for (std::size_t ci : order) {
    const Chunk& c = d.chunks[ci];
    const Decision& x = dec[c.policy_index];
    const Policy& p = d.policies[c.policy_index];
    if (x.stage == Stage::kInEffect && c.kind == ChunkKind::kRule) {
      out.chunks.push_back(c);
      continue;
    }
    Exclusion e;
    e.chunk_id = c.id;
    e.policy_id = c.policy_id;
    e.version = p.version.value_or("");
    if (x.stage == Stage::kInEffect) {
      e.reason = ExclusionReason::kNonRuleSection;
      e.detail =
          "section \"" + c.section + "\" is " + std::string(to_string(c.kind)) + ", not rule";
    } else {
      e.reason = x.reason;
      e.detail = x.detail;
    }
    out.excluded.push_back(std::move(e));
  }
  return out;
}

ScopeResult select_policy_scope(const Dataset& d) { return select_policy_scope(d, d.at); }

std::optional<std::uint32_t> find_section(const ScopeResult& scope, std::string_view source,
                                          std::string_view section) {
  for (std::size_t i = 0; i < scope.chunks.size(); ++i) {
    if (scope.chunks[i].source == source && scope.chunks[i].section == section) {
      return static_cast<std::uint32_t>(i);
    }
  }
  return std::nullopt;
}

std::vector<std::uint32_t> relevant_docs(const ScopeResult& scope, const Query& q) {
  std::vector<std::uint32_t> out;
  for (const SectionRef& r : q.relevant) {
    if (auto doc = find_section(scope, r.source, r.section)) out.push_back(*doc);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Status check_labels_in_scope(const Dataset& d, const ScopeResult& scope) {
  for (const Query& q : d.queries) {
    for (const SectionRef& r : q.relevant) {
      std::size_t hits = 0;
      for (const Chunk& c : scope.chunks) {
        hits += (c.source == r.source && c.section == r.section) ? 1 : 0;
      }
      if (hits != 1) {
        return make_error(ErrorCode::kInvalidInput,
                          "relevant section \"" + r.section + "\" of \"" + r.source +
                              "\" matches " + std::to_string(hits) +
                              " in-scope chunks (must be exactly 1)",
                          "query " + q.id);
      }
    }
  }
  return {};
}

}  // namespace qaplan
