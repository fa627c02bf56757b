#include "qaplan/planning/planner.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include "common/deadline.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/analyzer.hpp"
#include "planning/domain_lexicon.hpp"
#include "planning/lexicon.hpp"
#include "planning/model/model_view.hpp"
#include "planning/model/router_model.hpp"
#include "planning/simplify.hpp"
#include "planning/stages/category.hpp"
#include "planning/stages/domain.hpp"
#include "planning/stages/gateway.hpp"
#include "planning/stages/intent.hpp"
#include "planning/stages/route.hpp"
#include "planning/stages/source.hpp"
#include "planning/stages/topic_switch.hpp"
#include "planning/text.hpp"

namespace qaplan {

IntentModel::~IntentModel() = default;
QueryRewriter::~QueryRewriter() = default;

namespace {

using Clock = std::chrono::steady_clock;
std::int64_t ns_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

// The time since `t` in ns, and `t` moved to now: one clock read ends a stage and starts the
// next (a read costs ~27 ns here, BM_SteadyClockNow; prepare() has five stages).
std::int64_t lap(Clock::time_point& t) {
  const Clock::time_point now = Clock::now();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - t).count();
  t = now;
  return ns;
}

// [model] path and [domain] lexicon are relative to the rules file's directory (a Config built in
// memory resolves them against the working directory).
std::filesystem::path beside_config(const Config& c, const std::string& file) {
  const std::filesystem::path p(file);
  if (p.is_absolute() || c.origin == "<memory>") return p;
  return std::filesystem::path(c.origin).parent_path() / p;
}

// The host's domain lexicon: PlannerOptions' path over [domain] lexicon; none when neither names
// one. A [domain] sha256 pins the file the config was written for.
Result<std::optional<internal::DomainLexicon>> load_domain(const Config& c,
                                                           const PlannerOptions& o) {
  std::filesystem::path path;
  if (o.domain_lexicon)
    path = *o.domain_lexicon;
  else if (!c.domain.lexicon.empty())
    path = beside_config(c, c.domain.lexicon);
  else
    return std::optional<internal::DomainLexicon>();
  QAPLAN_ASSIGN_OR_RETURN(internal::DomainLexicon d, internal::DomainLexicon::load(path));
  if (!o.domain_lexicon && !c.domain.sha256.empty() && d.sha256() != c.domain.sha256)
    return make_file_error(ErrorCode::kInvalidConfig,
                           "domain lexicon fingerprint mismatch: " + path.string() +
                               " has sha256 " + d.sha256() + ", the config expects " +
                               c.domain.sha256,
                           c.origin, 0, "[domain] sha256");
  return std::optional<internal::DomainLexicon>(std::move(d));
}

// A source keyword in the turn's content: the turn names a topic of its own.
bool names_topic(const internal::ScannedQuery& q, const internal::Lexicon& lex) {
  for (std::uint32_t id : lex.ids().source)
    if (q.has_in_content(id)) return true;
  return false;
}

bool allowed(const ScenarioConfig& sc, const std::string& source) {
  return std::find(sc.allowed_sources.begin(), sc.allowed_sources.end(), source) !=
         sc.allowed_sources.end();
}

}  // namespace

struct Planner::Impl {
  internal::Lexicon lexicon;
  std::optional<internal::RouterModel> model;
  internal::ModelLabelMap labels;
  std::optional<internal::DomainReader> domain;
  PlannerOptions options;
  internal::Analyzer analyzer;
};

Result<Planner> Planner::create(Config config, PlannerOptions options) {
  QAPLAN_TRY(internal::ensure_simplifier());
  std::optional<internal::RouterModel> model;
  if (config.model.enabled) {
    const std::filesystem::path path = beside_config(config, config.model.path);
    QAPLAN_ASSIGN_OR_RETURN(internal::RouterModel m, internal::RouterModel::load(path));
    // The config pins the model it was tuned with: another file (retrained, corrupted, swapped)
    // would silently change every threshold's meaning.
    if (m.sha256() != config.model.sha256)
      return make_file_error(ErrorCode::kInvalidConfig,
                             "model fingerprint mismatch: " + path.string() + " has sha256 " +
                                 m.sha256() + ", the config expects " + config.model.sha256,
                             config.origin, 0, "[model] sha256");
    model = std::move(m);
  }
  QAPLAN_ASSIGN_OR_RETURN(auto domain, load_domain(config, options));
  QAPLAN_ASSIGN_OR_RETURN(internal::Lexicon lex, internal::Lexicon::create(std::move(config)));
  internal::ModelLabelMap labels;
  if (model) {
    QAPLAN_ASSIGN_OR_RETURN(labels, internal::map_model_labels(*model, lex.config()));
  }
  QAPLAN_ASSIGN_OR_RETURN(internal::Analyzer analyzer,
                          internal::Analyzer::create(lex.config(), options.rewriters));
  std::optional<internal::DomainReader> reader;
  if (domain) reader.emplace(std::move(*domain), lex.config());
  return Planner(std::make_shared<const Impl>(Impl{std::move(lex), std::move(model), labels,
                                                   std::move(reader),
                                                   std::move(options), std::move(analyzer)}));
}

const Config& Planner::config() const noexcept { return impl_->lexicon.config(); }

namespace {

// The session fields enter filters and the ledger: each is valid UTF-8 without control
// characters, or the request is refused naming the field (a department of U+FFFD was the
// filter before). `now` and `timezone` are checked by their own parsers.
Status check_context(const AnalysisContext& c) {
  auto check = [](const std::string& text, const char* field) -> Status {
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t at = i;
      const std::int32_t cp = internal::next_code_point(text, i);
      if (cp < 0)
        return make_error(ErrorCode::kInvalidInput, "invalid UTF-8 at byte " + std::to_string(at), field);
      if (cp < 0x20 || cp == 0x7F)
        return make_error(ErrorCode::kInvalidInput,
                          "control character at byte " + std::to_string(at), field);
    }
    return {};
  };
  if (c.session_department) QAPLAN_TRY(check(*c.session_department, "session_department"));
  if (c.session_user) QAPLAN_TRY(check(*c.session_user, "session_user"));
  return {};
}

}  // namespace

Result<QueryAnalysis> Planner::analyze(const Preparation& preparation,
                                       const AnalysisContext& context) const {
  QAPLAN_TRY(check_context(context));
  const bool domain_words = impl_->domain && impl_->lexicon.config().rewrite.domain_word_break;
  return impl_->analyzer.analyze(preparation, context, impl_->lexicon,
                                 domain_words ? &impl_->domain->lexicon() : nullptr);
}

std::string Planner::model_description() const {
  if (!impl_->model) return "off";
  return impl_->model->name() + " sha256:" + impl_->model->sha256();
}

std::string Planner::domain_description() const {
  return impl_->domain ? impl_->domain->lexicon().describe() : "none";
}

namespace {

// The built-in model's intent candidate: FOLLOW_UP when the turn needs its history, else the
// intent head's label.
IntentCandidate model_intent(const internal::ModelVerdict& m, const internal::RouterModel& model,
                             bool has_history, double dependent_min_score) {
  using internal::Head;
  IntentCandidate c;
  c.rule_id = model.name();
  const double dep = has_history ? m.dependent_score() : 0.0;
  if (has_history && dep >= dependent_min_score) {
    c.intent = Intent::kFollowUp;
    c.score = dep;
  } else {
    const auto& head = m.head(Head::kIntent);
    c.intent = m.map->intent[head.best].value_or(Intent::kKnowledgeQuery);
    c.score = head.score;
  }
  c.requires_rewrite = c.intent == Intent::kFollowUp;
  return c;
}

// A host model's candidate, or why it failed. Exceptions, errors, bad scores and calls over the
// budget are failures; the rule candidate stands. The call runs under a deadline that holds
// (common/deadline.hpp): a model that never returns costs the budget, not the request.
std::optional<IntentCandidate> host_intent(std::shared_ptr<const IntentModel> m,
                                           const PrepareRequest& req, std::string_view normalized,
                                           int budget_us, std::string& error) {
  const auto budget = std::chrono::microseconds(budget_us);
  struct Copies {
    std::string question, normalized;
    std::vector<std::string> history;
  };
  auto in = std::make_shared<Copies>(Copies{req.question, std::string(normalized), req.history});
  const auto t0 = Clock::now();
  auto call = [m, in, budget]() -> Result<IntentCandidate> {
    try {
      return m->classify(IntentModelInput{in->question, in->normalized, in->history, budget});
    } catch (const std::exception& e) {
      return make_error(ErrorCode::kInternal, std::string("exception: ") + e.what());
    } catch (...) {
      return make_error(ErrorCode::kInternal, "exception");
    }
  };
  auto done = internal::call_with_deadline<Result<IntentCandidate>>(call, budget);
  const auto took = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
  if (done.outcome != internal::DeadlineOutcome::kDone) {
    error = internal::deadline_error(done.outcome, std::to_string(took.count()) + " us",
                           std::to_string(budget_us) + " us");
    return std::nullopt;
  }
  Result<IntentCandidate>& r = *done.value;
  if (!r.ok()) {
    const bool thrown = r.error().code == ErrorCode::kInternal &&
                        r.error().message.starts_with("exception");
    error = thrown ? r.error().message : "error: " + r.error().to_string();
  } else if (took > budget) {
    error = "timeout: " + std::to_string(took.count()) + " us > budget " +
            std::to_string(budget_us) + " us";
  } else if (!(r->score >= 0.0 && r->score <= 1.0)) {
    error = "score outside [0, 1]";
  } else {
    IntentCandidate c = std::move(r).value();
    if (c.rule_id.empty()) c.rule_id = std::string(m->name());
    c.requires_rewrite = c.intent == Intent::kFollowUp;
    return c;
  }
  return std::nullopt;
}

}  // namespace

void set_hook_interrupt_check(bool (*check)()) noexcept { internal::set_interrupt_check(check); }

Result<Preparation> Planner::prepare(const PrepareRequest& request) const {
  using namespace internal;
  const Lexicon& lex = impl_->lexicon;
  const Config& c = lex.config();
  const auto t0 = Clock::now();
  Preparation out;
  out.query = request.question;

  // Request validation: everything a host can get wrong is invalid input, named precisely.
  const std::string& scenario_name = request.scenario.empty() ? c.default_scenario : request.scenario;
  const auto sc = c.scenarios.find(scenario_name);
  if (sc == c.scenarios.end())
    return make_error(ErrorCode::kInvalidInput, "unknown scenario '" + scenario_name + "'", "scenario");
  const ScenarioConfig& scenario = sc->second;
  if (request.source) {
    const bool known = std::any_of(c.sources.begin(), c.sources.end(),
                                   [&](const SourceConfig& s) { return s.name == *request.source; });
    if (!known) {
      std::string names;
      for (const auto& s : c.sources) names += (names.empty() ? "" : ", ") + s.name;
      return make_error(ErrorCode::kInvalidInput,
                        "unknown source '" + *request.source + "' (known: " + names + ")", "source");
    }
  }
  if (request.history.size() > static_cast<std::size_t>(c.input.max_history_turns))
    return make_error(ErrorCode::kInvalidInput,
                      std::to_string(request.history.size()) +
                          (request.history.size() == 1 ? " turn, limit " : " turns, limit ") +
                          std::to_string(c.input.max_history_turns) + " ([input] max_history_turns)",
                      "history");
  std::vector<NormalizedQuery> history;
  history.reserve(request.history.size());
  for (std::size_t i = 0; i < request.history.size(); ++i) {
    auto h = normalize_question(request.history[i], c.input, "history[" + std::to_string(i) + "]");
    if (!h.ok()) return std::move(h).error();
    history.push_back(std::move(h).value());
  }
  const bool has_history = !history.empty();
  auto norm = normalize_question(request.question, c.input, "question");
  if (!norm.ok()) return std::move(norm).error();
  ScannedQuery q = lex.scan(std::move(norm).value());
  // The normalized text moves into the result when prepare() ends (a copy per question showed in
  // the plan's p50); until then the stages read it from q.
  auto finish = [&]() {
    out.normalized = std::move(q.query);
    out.timings.total_ns = ns_since(t0);
    return std::move(out);
  };

  ModelVerdict verdict;
  if (impl_->model) {
    verdict.map = &impl_->labels;
    impl_->model->predict(q.query.text, has_history ? history.back().text : std::string_view(),
                          verdict.out);
    const RouterModel& m = *impl_->model;
    ModelVerdicts v;
    v.model = m.name();
    auto label = [&](Head h) -> const std::string& { return m.labels(h)[verdict.head(h).best]; };
    v.act = label(Head::kAct);
    v.act_score = verdict.head(Head::kAct).score;
    v.intent = label(Head::kIntent);
    v.intent_score = verdict.head(Head::kIntent).score;
    v.category = label(Head::kCategory);
    v.category_score = verdict.head(Head::kCategory).score;
    v.source = label(Head::kSource);
    v.source_score = verdict.head(Head::kSource).score;
    v.dependent_score = has_history ? verdict.dependent_score() : 0.0;
    out.model = std::move(v);
  }
  auto t = Clock::now();
  out.timings.text_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count();

  // The host's vocabulary: a KB term anchors the message; per-source terms and generic keywords
  // feed the source decision.
  DomainView domain;
  if (impl_->domain) domain = impl_->domain->read(q, lex);
  // One source suggestion serves the boundary check and the intent candidate.
  SourceDecision source = decide_source(q, verdict, lex, impl_->domain ? &domain.sources : nullptr);
  out.source = std::move(source.scope);
  // With history the rule candidate comes first: a turn its follow-up rules recognise is not
  // refused by the model. (Without history nothing continues; a direct answer skips it.)
  std::optional<IntentCandidate> early_rule;
  if (has_history) early_rule = classify_intent(q, true, out.source.value, lex);
  out.route = decide_route(q, scenario, request.source, out.source.value, verdict, lex,
                           early_rule && early_rule->intent == Intent::kFollowUp, domain.term);
  out.timings.route_ns = lap(t);
  if (out.route.route == Route::kDirectAnswer) return finish();

  // The sources a turn's words (keywords, KB terms) name: its scope or its candidates.
  auto source_of_turn = [&](const NormalizedQuery& turn) {
    const ScannedQuery hq = lex.scan(turn);
    DomainView hd;
    if (impl_->domain) hd = impl_->domain->read(hq, lex);
    return decide_source(hq, ModelVerdict{}, lex, impl_->domain ? &hd.sources : nullptr);
  };
  IntentCandidate rule =
      early_rule ? std::move(*early_rule) : classify_intent(q, has_history, out.source.value, lex);
  auto turn_switches_topic = [&] {
    return switches_topic(
        decide_source(q, ModelVerdict{}, lex, impl_->domain ? &domain.sources : nullptr),
        source_of_turn(history.back()));
  };
  // A demonstrative before a noun of the turn's own, in a whole question on other sources than
  // the previous turn's, is a topic switch (stages/topic_switch.hpp).
  if (has_history && rule.intent == Intent::kFollowUp && points_at_own_noun(q, lex.ids()) &&
      turn_switches_topic()) {
    rule = classify_intent(q, false, out.source.value, lex);
    rule.matched_rules.push_back("topic_switch_other_source");
  }
  // A pronoun whose antecedent stands before it in the turn, where the model too reads the turn
  // as standalone, does not point back (stages/topic_switch.hpp).
  if (impl_->model && has_history && rule.intent == Intent::kFollowUp &&
      verdict.dependent_score() < c.model.dependent_min_score &&
      antecedent_in_turn(q, lex.ids())) {
    rule = classify_intent(q, false, out.source.value, lex);
    rule.matched_rules.push_back("antecedent_in_turn");
  }
  const bool names_own_topic =
      names_topic(q, lex) || std::any_of(domain.sources.terms.begin(), domain.sources.terms.end(),
                                         [](int n) { return n > 0; });
  // The rules are silent and the turn names a topic of its own on other sources than the previous
  // turn's (Is Zoom available on company laptops? after a leave question): a topic switch the
  // dependent head may not turn into a follow-up.
  bool model_may_follow = has_history;
  if (impl_->model && has_history && rule.intent != Intent::kFollowUp && names_own_topic &&
      verdict.dependent_score() >= c.model.dependent_min_score && turn_switches_topic()) {
    model_may_follow = false;
    rule.matched_rules.push_back("topic_switch_other_source");
  }
  // The follow-up rules are silent and the turn names no topic of its own (no source keyword or
  // source term, no topic-switch cue): whether it continues the conversation is the dependent
  // head's call, at [model] open_dependent_min_score.
  const bool dependence_open = has_history && rule.intent != Intent::kFollowUp &&
                               !q.has_in_content(lex.ids().topic_switch) && !names_own_topic;
  std::optional<IntentCandidate> model;
  std::string model_error;
  if (impl_->options.intent_model) {
    model = host_intent(impl_->options.intent_model, request, q.query.text,
                        c.intent_gateway.model_budget_us, model_error);
  } else if (impl_->model) {
    model = model_intent(verdict, *impl_->model, model_may_follow,
                         dependence_open ? c.model.open_dependent_min_score
                                         : c.model.dependent_min_score);
  }
  IntentResult intent =
      decide_intent(std::move(rule), std::move(model), model_error, c.intent_gateway,
                    dependence_open ? std::optional<double>(c.model.open_dependent_min_score)
                                    : std::nullopt);

  // A follow-up that names no source continues the conversation's source: the latest earlier
  // turn whose words (keywords, KB terms) suggest one — its scope, or its candidates when they
  // name several. Words, not the model: an earlier turn may itself be a fragment the model
  // guesses at (我是普通员工去北京 after 出差住宿标准是多少). A source only the model guessed from
  // the follow-up's few words (它的有效期是多久) yields to the history's. When no earlier turn
  // suggests one either, the fragment's own guess is dropped: 它的年度限额是多少 says nothing
  // about finance, and a wrong scope finds nothing where no scope finds the answer.
  if (intent.intent == Intent::kFollowUp && !source.keyword) {
    std::optional<SourceDecision> carried;
    for (std::size_t i = history.size(); i-- > 0 && !carried;) {
      SourceDecision hs = source_of_turn(history[i]);
      if (hs.scope.value || !hs.candidates.empty()) carried = std::move(hs);
    }
    if (carried) {
      out.source = std::move(carried->scope);
      out.source.detail = out.source.detail.empty() ? "carried from history"
                                                    : "carried from history: " + out.source.detail;
      source.candidates = std::move(carried->candidates);
    } else if (out.source.decided_by == DecidedBy::kModel || !source.candidates.empty()) {
      out.source = {};
      out.source.detail = "fragment's model source dropped (follow-up)";
      source.candidates.clear();
    }
    if (out.source.value && !request.source && !allowed(scenario, *out.source.value)) {
      out.route.route = Route::kDirectAnswer;
      out.route.reason = RouteReason::kSourceBoundary;
      out.route.detail = *out.source.value;
      out.route.decided_by = DecidedBy::kRule;
      out.route.reply = c.route.replies.at("source_boundary");
      return finish();
    }
  }
  intent.suggested_source = out.source.value;
  out.effective_source = effective_source(request.source, intent.suggested_source);
  if (out.effective_source) {
    out.effective_sources = {*out.effective_source};
  } else {
    // Candidates (no hard scope) within the scenario; none left means the scenario's own.
    for (std::string& s : source.candidates)
      if (allowed(scenario, s)) out.effective_sources.push_back(std::move(s));
    if (out.effective_sources.empty() && scenario.allowed_sources.size() < c.sources.size())
      out.effective_sources = scenario.allowed_sources;
  }
  out.timings.intent_ns = lap(t);

  out.category.value = infer_question_category(q, lex);
  if (out.category.value != QuestionCategory::kDefault) {
    out.category.decided_by = DecidedBy::kRule;
  } else if (verdict.on()) {
    const HeadOutput& head = verdict.head(Head::kCategory);
    const auto cat = impl_->labels.category[head.best].value_or(QuestionCategory::kDefault);
    if (cat != QuestionCategory::kDefault && head.score >= c.model.category_min_score) {
      out.category.value = cat;
      out.category.decided_by = DecidedBy::kModel;
      out.category.score = head.score;
    }
  }
  const PlanSignals signals{q.query.query_units, out.category.value, is_table_query(q, lex)};
  out.timings.category_ns = lap(t);

  auto plan = build_retrieval_plan(out.route, intent, signals, c.retrieval_strategy);
  if (!plan.ok()) return std::move(plan).error();
  out.plan = std::move(plan->plan);
  out.plan_trace = std::move(plan->trace);
  out.intent = std::move(intent);
  out.timings.plan_ns = lap(t);
  out.history.reserve(history.size());
  for (NormalizedQuery& h : history) out.history.push_back(std::move(h.text));
  return finish();
}

}  // namespace qaplan
