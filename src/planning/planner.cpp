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
#include "planning/stages/follow_up.hpp"
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
  const bool domain_words = reader && lex.config().rewrite.domain_word_break;
  analyzer.prepare_terms(domain_words ? &reader->lexicon() : nullptr);
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

namespace {

// What a host can get wrong in a request, named precisely (kInvalidInput): the scenario, the
// source filter, the number of history turns. Returns the scenario.
Result<const ScenarioConfig*> check_request(const PrepareRequest& request, const Config& c) {
  const std::string& name = request.scenario.empty() ? c.default_scenario : request.scenario;
  const auto sc = c.scenarios.find(name);
  if (sc == c.scenarios.end())
    return make_error(ErrorCode::kInvalidInput, "unknown scenario '" + name + "'", "scenario");
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
  return &sc->second;
}

Result<std::vector<NormalizedQuery>> normalize_history(const std::vector<std::string>& turns,
                                                       const InputConfig& input) {
  std::vector<NormalizedQuery> history;
  history.reserve(turns.size());
  for (std::size_t i = 0; i < turns.size(); ++i) {
    auto h = internal::normalize_question(turns[i], input, "history[" + std::to_string(i) + "]",
                                          /*space_breaks_clause=*/true);
    if (!h.ok()) return std::move(h).error();
    history.push_back(std::move(h).value());
  }
  return history;
}

// The model's verdicts as the Preparation reports them.
ModelVerdicts verdicts_of(const internal::ModelVerdict& v, const internal::RouterModel& m,
                          bool has_history) {
  using internal::Head;
  auto label = [&](Head h) -> const std::string& { return m.labels(h)[v.head(h).best]; };
  ModelVerdicts out;
  out.model = m.name();
  out.act = label(Head::kAct);
  out.act_score = v.head(Head::kAct).score;
  out.intent = label(Head::kIntent);
  out.intent_score = v.head(Head::kIntent).score;
  out.category = label(Head::kCategory);
  out.category_score = v.head(Head::kCategory).score;
  out.source = label(Head::kSource);
  out.source_score = v.head(Head::kSource).score;
  out.dependent_score = has_history ? v.dependent_score() : 0.0;
  return out;
}

// The intent gateway over the (corrected) rule candidate and the model's candidate: the host's
// intent model when it registered one (under its budget), else the built-in model's.
IntentResult decide_with_models(internal::FollowUpArbitration turn,
                                const PrepareRequest& request, const internal::ScannedQuery& q,
                                const internal::ModelVerdict& verdict, const Config& c,
                                const std::shared_ptr<const IntentModel>& host,
                                const internal::RouterModel* builtin) {
  using namespace internal;
  std::optional<IntentCandidate> model;
  std::string model_error;
  const double dependent_min =
      turn.dependence_open ? c.model.open_dependent_min_score : c.model.dependent_min_score;
  if (host)
    model = host_intent(host, request, q.query.text,
                        c.intent_gateway.model_budget_us, model_error);
  else if (builtin)
    model = model_intent(verdict, *builtin, turn.model_may_follow, dependent_min);
  return decide_intent(std::move(turn.rule), std::move(model), model_error, c.intent_gateway,
                       turn.override_min);
}

}  // namespace

// The pipeline of docs/architecture.md: text → route → intent (and the source it carries) →
// category → plan. Each signal is decided once, by its stage (src/planning/stages/).
Result<Preparation> Planner::prepare(const PrepareRequest& request) const {
  using namespace internal;
  const Lexicon& lex = impl_->lexicon;
  const Config& c = lex.config();
  const auto t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(const ScenarioConfig* scenario, check_request(request, c));
  QAPLAN_ASSIGN_OR_RETURN(std::vector<NormalizedQuery> history,
                          normalize_history(request.history, c.input));
  const bool has_history = !history.empty();
  QAPLAN_ASSIGN_OR_RETURN(NormalizedQuery question,
                          normalize_question(request.question, c.input, "question"));
  ScannedQuery q = lex.scan(std::move(question));
  Preparation out;
  out.query = request.question;
  // The normalized text moves into the result when prepare() ends (a copy per question showed in
  // the plan's p50); until then the stages read it from q. `end` is the last stage's clock read
  // (one read fewer per question).
  auto finish = [&](Clock::time_point end) {
    out.normalized = std::move(q.query);
    out.timings.total_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end - t0).count();
    return std::move(out);
  };

  ModelVerdict verdict;
  if (impl_->model) {
    verdict.map = &impl_->labels;
    impl_->model->predict(q.query.text, has_history ? history.back().text : std::string_view(),
                          verdict.out);
    out.model = verdicts_of(verdict, *impl_->model, has_history);
  }
  auto t = Clock::now();
  out.timings.text_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count();

  // Route. The host's vocabulary anchors the message and feeds the source decision, which serves
  // the boundary check and the intent candidate. With history the rule candidate comes first: a
  // turn its follow-up rules recognise is not refused by the model.
  const DomainReader* reader = impl_->domain ? &*impl_->domain : nullptr;
  DomainView domain;
  if (reader) domain = reader->read(q, lex);
  SourceDecision source = decide_source(q, verdict, lex, reader ? &domain.sources : nullptr);
  std::optional<IntentCandidate> rule;
  if (has_history) rule = classify_intent(q, true, source.scope.value, lex);
  out.route = decide_route(q, *scenario, request.source, source.scope.value, verdict, lex,
                           rule && rule->intent == Intent::kFollowUp, domain.term);
  out.timings.route_ns = lap(t);
  if (out.route.route == Route::kDirectAnswer) {
    out.source = std::move(source.scope);
    return finish(t);
  }

  // Intent: the rules, corrected for topic switches (stages/follow_up.hpp), then the model's or
  // the host's candidate, through the gateway.
  if (!rule) rule = classify_intent(q, has_history, source.scope.value, lex);
  FollowUpArbitration turn{std::move(*rule), false, false, std::nullopt};
  if (has_history)
    turn = arbitrate_follow_up(std::move(turn.rule),
                               {q, history, lex, reader, domain, source.scope.value}, verdict);
  IntentResult intent = decide_with_models(std::move(turn), request, q, verdict, c, impl_->options.intent_model,
                                           impl_->model ? &*impl_->model : nullptr);
  if (intent.intent == Intent::kFollowUp && source.keyword)
    share_scope_with_history(q, history, lex, reader, source);
  if (intent.intent == Intent::kFollowUp && !source.keyword) {
    carry_history_source(history, lex, reader, {impl_->model ? &*impl_->model : nullptr, &impl_->labels}, source);
    if (carried_source_boundary(out.route, source.scope.value, request.source, *scenario, c)) {
      out.source = std::move(source.scope);
      return finish(Clock::now());
    }
  }
  out.source = std::move(source.scope);
  intent.suggested_source = out.source.value;
  out.effective_source = effective_source(request.source, intent.suggested_source);
  out.effective_sources =
      effective_sources_of(out.effective_source, std::move(source.candidates), *scenario, c);
  out.fallback_sources = fallback_sources_of(request.source, out.effective_sources, *scenario, c);
  out.timings.intent_ns = lap(t);

  out.category = decide_category(q, lex, verdict);
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
  return finish(t);
}

}  // namespace qaplan
