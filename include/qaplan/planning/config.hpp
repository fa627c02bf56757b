#pragma once
/// The planning configuration (config/rules.toml): every word list and every number the
/// planning stages use. ([ranking.*] in the same file belongs to the ranking room:
/// qaplan/ranking/config.hpp.) Loading is strict — an unknown key, a wrong type, a threshold outside
/// [0, 1] or a top_k ≤ 0 is an error naming the file, line and key. See config/rules.toml for
/// the meaning and default of each key; the structs below mirror its sections one to one.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/config_location.hpp"
#include "qaplan/export.hpp"
#include "qaplan/planning/filters_config.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// [input]: limits checked before normalization.
struct InputConfig {
  int max_question_chars = 512;  ///< code points of the raw question (and of each history turn)
  int max_history_turns = 20;    ///< more history turns than this is invalid input
};

/// [matching]: cue hits that lie inside one of these phrases are ignored by every stage
/// (e.g. 这个 inside 这个月 is not an anaphora).
struct MatchingConfig {
  std::vector<std::string> ignore_within;
};

/// [route]: the dialogue-act cue lists, decided on the WHOLE message: a message made only of one
/// act's cues plus politeness/fillers, punctuation and emoji is that act; a cue inside a longer
/// message (公司年会唱歌比赛怎么报名) decides nothing — the model judges the grey zone.
struct RouteConfig {
  std::vector<std::string> greeting;         ///< 你好, 在吗, hi
  std::vector<std::string> thanks;           ///< 谢谢, 辛苦了, thanks
  std::vector<std::string> goodbye;          ///< 再见, 先这样, bye
  std::vector<std::string> acknowledgement;  ///< 好的, 收到, 明白了, ok
  std::vector<std::string> politeness;       ///< fillers around any message: 请问, 麻烦, 哈, please
  std::vector<std::string> handoff;          ///< asking for a person: 转人工, 人工客服, human agent
  std::vector<std::string> out_of_scope;     ///< requests the knowledge base cannot serve
  std::vector<std::string> chit_chat;        ///< small talk and questions about the assistant
  std::vector<std::string> context_words;    ///< may stand beside out_of_scope / chit_chat cues
  /// Connectives left around a social act (那, 就): 那就这样吧，谢谢 is still thanks. Never
  /// stripped from a question (那病假呢 keeps its 那). Optional.
  std::vector<std::string> connectives;
  /// Forms of address (老师, 医生, 客服, 亲) that may stand beside a social act (医生你好, 多谢老师啦)
  /// and count as weak evidence of small talk. Optional.
  std::vector<std::string> vocatives;
  /// A request frame the lists cannot enumerate: a message that starts (after fillers) with one
  /// of `request_verbs` and ends (before fillers) with one of `request_objects`, with no work
  /// keyword and no question word in it (帮我写一首关于春天的诗, 给我讲个有趣的故事).
  std::vector<std::string> request_verbs;
  std::vector<std::string> request_objects;
  int unclear_max_units = 1;  ///< a message of at most this many units that no list covers is unclear
  std::map<std::string, std::string> replies;  ///< reason → reply text (every direct reason)
  /// [route.model]: act → the model probability at or above which the model may answer a message
  /// directly with that act when the lists leave it open (absent act: the model never does);
  /// "anchored" raises every bar for a message that carries a source/category/table keyword or a
  /// domain-lexicon source term; "evidenced" lowers it for strong evidence of the act and none of
  /// a request ([route.evidence]).
  std::map<std::string, double> model_min_score;
  /// [route.evidence] (optional; absent = the model's act needs no evidence): what the model's act
  /// must be checked against before it answers a message directly. See RouteEvidenceConfig.
  struct Evidence {
    bool enabled = false;
    /// Evidence of a request for information in the message's content: a question word (about
    /// anything but the assistant), a service verb (开通, 还款, 注销), a problem word (用不了, 冻结,
    /// 不到账), a word naming information (流程, 地址, 费), a time word (去年, 上个月), or a digit
    /// run of at least `id_min_digits` (an order or card number).
    std::vector<std::string> interrogatives, service_verbs, problem_words, info_words, time_words;
    int id_min_digits = 4;
    /// Addressing the assistant (你, 您): a question about it is small talk. `institution`
    /// (你们, 贵公司) addresses the service instead and cancels a hit it contains.
    std::vector<std::string> assistant, institution;
    /// Positive evidence of small talk besides the assistant and the chit_chat / out_of_scope
    /// lists: the speaker about themselves (我; `self_possessive` 我的 / 我们 cancels a hit it
    /// contains: it names a thing or a group) and emotive words (哈哈, 唉).
    std::vector<std::string> self_reference, self_possessive, emotive;
  } evidence;
  /// A message whose letters are mostly of a script no list knows (Cyrillic, Arabic, Hangul):
  /// "retrieval" (default) or "out_of_scope" (detail names the script); never unclear.
  std::string foreign_script = "retrieval";
};

/// [model]: the built-in classifier (router model) behind the gateway, the route's grey zone, the
/// category and the source. `enabled = false` is the one switch that turns every model candidate
/// off (rule_only everywhere).
struct ModelConfig {
  bool enabled = false;
  std::string path;    ///< model file, relative to the rules file's directory
  std::string sha256;  ///< the file's fingerprint; a different file is refused
  double category_min_score = 0.6;   ///< model category used when no category keyword matched
  double source_min_score = 0.9;  ///< the model alone sets a hard source scope at this probability
  /// Keywords of a source and the model ranking it first at this probability set a hard scope.
  double source_agree_score = 0.7;
  /// Without a hard scope, the candidates searched are the most probable sources whose model
  /// probabilities sum to this (with a keyword's source), at most max_source_candidates of them;
  /// more than that is no scope at all.
  double source_cover = 0.9;
  int max_source_candidates = 3;
  double dependent_min_score = 0.6;  ///< model follow-up verdict used when the rules are silent
  /// The same for a turn with history that names no topic of its own (no source keyword, no
  /// source term of the domain lexicon, no topic-switch cue): a subjectless continuation
  /// (需要提前几天 after 年假怎么申请) is the dependent head's call at this lower bar.
  double open_dependent_min_score = 0.5;
  /// A turn the rules read as standalone, though it names a topic (a source keyword or a KB term),
  /// follows when the dependent head is this sure it needs its history and the turn has no
  /// topic-switch cue (分几个等级 after 绩效考核几月开始; 等级 is a KB term): a missed follow-up
  /// loses the answer, a false one costs a search.
  double sure_dependent_min_score = 0.9;
};

/// [domain]: the host's domain lexicon (`qaplan domain build`, docs/domain.md) — its knowledge
/// base's vocabulary. A message naming one of its terms is anchored (the model needs [route.model]
/// anchored to answer it directly), its per-source terms count like source keywords, and a
/// keyword the KB uses across its sources (员工, 系统) never sets a hard scope alone.
struct DomainConfig {
  std::string lexicon;  ///< file, relative to the rules file's directory ("" = none)
  std::string sha256;   ///< when set, the file's fingerprint must equal it
  /// A source keyword the KB holds as a term whose best source has less than this share of its
  /// documents is generic: it never sets a hard scope alone.
  double generic_share = 0.5;
};

/// [intent_gateway]: arbitration of the rule and model intent candidates.
struct GatewayConfig {
  double agree_score = 0.99;           ///< confidence when rule and model agree
  double conflict_final_score = 0.68;  ///< confidence when a strong rule and the model disagree
  double model_min_score = 0.75;       ///< a model candidate below this is not used
  double weak_rule_below = 0.70;       ///< a rule candidate below this may be overridden
  int model_budget_us = 2000;          ///< a host model slower than this counts as failed
};

/// [scenarios.<name>]
struct ScenarioConfig {
  std::string name;
  std::vector<std::string> allowed_sources;
  std::vector<std::string> out_of_scope;  ///< extra out-of-scope phrases for this scenario
};

/// [[sources]]: a knowledge source and the keywords that suggest it.
struct SourceConfig {
  std::string name;
  std::vector<std::string> keywords;
};

/// [[intent.rules]]: one rule = a conjunction of conditions; lists inside a condition are ORed.
/// Rules are tried in file order; the first that matches decides the intent, and every rule that
/// matches is reported in `matched_rules`.
struct IntentRuleConfig {
  std::string id;
  Intent intent = Intent::kKnowledgeQuery;
  double score = 0.0;
  bool requires_history = false;
  std::vector<std::string> contains_any;
  std::vector<std::string> unless_contains_any;
  std::vector<std::string> starts_with_any;
  std::vector<std::string> ends_with_any;
  std::optional<int> max_units;
  std::optional<int> min_units;
  bool without_anchor = false;  ///< holds only without a source, category or table keyword
  /// Holds only for a phrase that asks nothing by itself: no question word ([rewrite]
  /// question_words), no question mark, and no closing aspect particle (坏了 is a statement).
  bool without_question = false;
};

/// [intent]
struct IntentConfig {
  /// Phrases that open a new topic (换个问题, 另外问一下, by the way): a turn with one is never a
  /// follow-up, whatever the history.
  std::vector<std::string> topic_switch;
  /// With history, a question that names no topic of its own (no source keyword, no KB term of a
  /// source) and keeps at most this many units once its question words and [rewrite]
  /// function_words are taken out (an ASCII word counts 2) is a follow-up: 怎么申请 → 申请 (2),
  /// 要怎么处理 → 处理 (2); 急救箱放在哪里 → 急救箱放 (4) is not. 0 = off.
  int bare_question_max_units = 2;
  /// With history, a question of at most subjectless_max_units units whose first word (ICU's word
  /// break) is one of these — a modal verb or an adverb: 需要原部门同意吗, 一般多久能批下来,
  /// 总共多少学时 — opens with its predicate and names no subject: it is a follow-up unless its words
  /// name another source than the previous turn's. Empty = off.
  std::vector<std::string> subjectless_openers;
  /// Time words that may stand before such an opener (周末也来吗, 晚上能办理吗): the opener after
  /// them still names no subject. Empty = off.
  std::vector<std::string> subjectless_times;
  int subjectless_max_units = 10;
  /// With history, a question opening with one of these which-words and no noun after it — 的, a
  /// subjectless opener, or 是 / 在 / 最 / 更 / 比较 / 被: 哪些在2002年以后还有预算, 哪个最便宜 — picks
  /// from what the history named: it is a follow-up on the same terms as a subjectless question
  /// (at most twice subjectless_max_units units). Empty = off.
  std::vector<std::string> subjectless_which;
  std::string default_rule_id = "default_knowledge";
  Intent default_intent = Intent::kKnowledgeQuery;
  double default_score = 0.60;
  std::vector<IntentRuleConfig> rules;
};

/// [[category.rules]]: first match in file order wins.
struct CategoryRuleConfig {
  QuestionCategory category = QuestionCategory::kDefault;
  std::vector<std::string> keywords;
};

/// [category]
struct CategoryConfig {
  std::vector<CategoryRuleConfig> rules;
  std::vector<std::string> table_keywords;  ///< is_table_query()
};

/// One knob change of a patch.
struct PatchChange {
  KnobId knob = 0;
  PatchOp op = PatchOp::kSet;
  double value = 0.0;  ///< flags are 0/1, counts integral
};

/// When a patch fires. Every present condition must hold.
struct PatchCondition {
  std::optional<Intent> intent;
  std::optional<Intent> intent_not;
  std::optional<int> max_units;                 ///< query units ≤ this
  std::optional<double> confidence_below;       ///< confidence < this
  std::optional<double> confidence_at_least;    ///< confidence ≥ this
  std::optional<QuestionCategory> category;
  std::optional<bool> prefer_table;
};

/// [[retrieval_strategy.patches]]: applied in file order after the defaults.
struct PlanPatchConfig {
  std::string id;
  std::string tag;  ///< appended to RetrievalPlan::reason when the patch fires
  PatchCondition when;
  std::vector<PatchChange> changes;
};

struct RetrievalStrategyConfig {
  PlanKnobs defaults;  ///< [retrieval_strategy.defaults]
  std::vector<PlanPatchConfig> patches;
};

/// [rewrite]: the built-in follow-up rewriter and the model hooks (docs/rewrite.md).
struct RewriteConfig {
  int window_turns = 3;  ///< history turns the rewriter reads (plus the topic anchor)
  int max_growth = 12;   ///< a rewrite is at most anchor + turn + this many query units
  /// The [domain] lexicon's terms join ICU's pieces in the rewriter's word break (供应|商 → 供应商)
  bool domain_word_break = false;
  std::vector<std::string> function_words;  ///< words never part of an antecedent (你, 的, 怎么)
  std::vector<std::string> person_pronouns;  ///< 他, 她, 他们, he, she, they
  std::vector<std::string> thing_pronouns;   ///< 它, 这个, 那个, it, this, that
  /// Surnames and titles by which 他 / 她 finds a name ICU's dictionary lacks (张|敏, 陈|经理)
  std::vector<std::string> person_surnames;
  std::vector<std::string> person_titles;  ///< 经理, 老师, 主管: a surname before one is a person
  /// Endings of nouns that name people (员, 者, 人, 师, 星): 他们 after 哪些明星… is the 明星
  std::vector<std::string> person_heads;
  std::vector<std::string> not_person_nouns;  ///< 发生, 账户, 排队: such an ending, not a person
  /// Endings of nouns that name a group of people (部, 组, 中心, 局): 他们 after an answer naming
  /// one (由学习发展中心组织) is that group, before the people its question named
  std::vector<std::string> group_heads;
  std::vector<std::string> ellipsis_markers;  ///< stripped from a fragment: 那, 还有, what about
  /// A word before a comma that opens a turn and only moves the talk on (对了，…; 另外，…): the
  /// rewrite, a question standing alone, leaves it out.
  std::vector<std::string> discourse_openers;
  std::vector<std::string> condition_markers;  ///< 如果, 要是, 万一, what if
  std::vector<std::string> comparison_markers;  ///< 和, 跟, 相比, compared with
  std::vector<std::string> elaboration_markers;  ///< 详细说说, 说清楚一点, tell me more
  std::vector<std::string> sequence_markers;  ///< ask for the next step: 接下来, 之后, then what
  /// Replies to a statement (docs/rewrite.md#replies-to-a-statement): the words a speaker opens
  /// with (我, 我们), agreement (我也是), asking whether it holds (是吗, 真的吗), hearsay frames (听说)
  std::vector<std::string> speaker_words;
  std::vector<std::string> speaker_openers;  ///< open a first-person statement without its speaker
  std::vector<std::string> also_markers;
  std::vector<std::string> confirm_markers;
  std::vector<std::string> report_frames;
  /// Answers to the other side's question (docs/rewrite.md#answers-to-a-question): whom it
  /// addresses (你, 您, 你们), a choice (还是), the words that ask for a thing (什么, 哪, 几)
  std::vector<std::string> addressee_words;
  std::vector<std::string> alternative_markers;
  std::vector<std::string> answer_slots;
  std::vector<std::string> question_words;  ///< mark a predicate: 怎么, 多少, 几, 吗, how, what
  std::string prompt;  ///< multi_query template; {q} = the question, {history} = the summary
  std::string hyde_prompt;           ///< hyde template (a hypothetical answer passage)
  std::string step_back_prompt;      ///< step_back template (the broader question)
  std::string decomposition_prompt;  ///< decomposition template (independent sub-questions)
  /// condense template: the follow-up as one standalone question, replacing the built-in rewrite
  std::string condense_prompt =
      "根据对话历史,把用户的最新问题改写成一个不依赖上下文、可以直接检索的完整问题。保留所有实体与数值约束,"
      "不要回答问题。只输出 JSON 字符串数组,只含一个元素。\n对话历史:\n{history}\n最新问题:{q}";
  std::string hook;    ///< a registered QueryRewriter's name; "" = built-in rewrite only
  std::vector<std::string> hook_kinds;  ///< what to ask the hook for: multi_query, hyde, …
  int max_variants = 3;       ///< model variants kept after validation
  int hook_budget_ms = 2000;  ///< a hook slower than this failed
};

/// [glossary]: per-domain term lists in separate TOML files; only the effective source's domain
/// is loaded for a question (a glossary of one domain never pollutes another).
struct GlossaryTerm {
  std::string standard;              ///< the term the knowledge base uses
  std::vector<std::string> aliases;  ///< synonyms, abbreviations, old names
};
struct GlossaryConfig {
  std::string dir = "glossary";  ///< relative to the rules file
  std::map<std::string, std::string> domains;  ///< source → file name in dir
  /// Loaded terms per source (filled by load_config; a Config built in code may fill it).
  std::map<std::string, std::vector<GlossaryTerm>> terms;
};

/// [routing]: which index, keyword or hybrid, which model tier.
struct RoutingIndex {
  std::string name;
  std::vector<std::string> cues;  ///< words that route a question here (订单号 → orders)
  bool on_id = false;             ///< an ID shape (letters with digits) routes here too
};
struct RoutingConfig {
  std::string default_index = "knowledge";
  std::vector<RoutingIndex> indexes;  ///< first match in file order
  int large_model_min_units = 40;     ///< longer questions go to the large tier
  int large_model_min_parts = 2;      ///< so do questions with this many sub-questions
  std::vector<std::string> part_markers;  ///< 以及, 并且, 分别, 同时 …: count sub-questions
  std::vector<std::string> large_model_categories;  ///< e.g. summary, compliance
};

/// [execution]: the execution path and the fallback ladder.
struct ExecutionConfig {
  double min_confidence = 0.70;  ///< below this the path falls back to semantic
  double explicit_confidence = 0.95;
  double cue_confidence = 0.80;       ///< a cue word points at graph or research
  double semantic_confidence = 0.90;  ///< nothing points elsewhere
  double mixed_cue_confidence = 0.60;  ///< graph and research cues both occur
  std::vector<std::string> research_explicit;  ///< 帮我深度研究, 全面调研 …
  std::vector<std::string> research_cues;      ///< 对比…之间, 有哪些相关文件 …
  std::vector<std::string> graph_cues;         ///< 旗下, 子公司, 隶属, 关系 …
  std::vector<std::string> fallback;           ///< the ladder's steps, in order
  int max_tool_calls = 8;
  int budget_normal_tokens = 8000;
  int budget_stop_retrieval_tokens = 10000;
  double escalate_below_rerank_score = 0.3;
  int max_research_rounds = 2;
};

/// [[prompt_profiles]] (build_answer_prompt_profile): first match in file order.
struct PromptProfileConfig {
  std::string id;
  std::optional<QuestionCategory> category;  ///< when: the plan's category
  std::optional<Intent> intent;              ///< when: the intent
  std::optional<bool> prefer_table;          ///< when: a table question
  std::string citation_style;
  std::string caution;
  std::string answer_format;
};

/// The whole configuration. A plain value: copy it, edit it, then `validate()` or hand it to
/// `Planner::create()`, which validates.
struct Config {
  int schema_version = 1;
  InputConfig input;
  MatchingConfig matching;
  RouteConfig route;
  std::map<std::string, ScenarioConfig> scenarios;
  std::string default_scenario = "default";
  std::vector<SourceConfig> sources;
  IntentConfig intent;
  CategoryConfig category;
  RetrievalStrategyConfig retrieval_strategy;
  ModelConfig model;
  DomainConfig domain;  ///< [domain]
  GatewayConfig intent_gateway;
  FiltersConfig filters;  ///< [filters]
  RewriteConfig rewrite;  ///< [rewrite]
  GlossaryConfig glossary;  ///< [glossary]
  RoutingConfig routing;    ///< [routing]
  ExecutionConfig execution;  ///< [execution]
  std::vector<PromptProfileConfig> prompt_profiles;  ///< [[prompt_profiles]]
  std::string origin = "<memory>";  ///< file the config came from, used in error context

  /// Cross-field checks that do not need the file: referenced sources exist, the default
  /// scenario exists, scores and thresholds in [0, 1], top_k > 0, no empty words.
  /// Errors: kInvalidConfig naming `origin` and the key.
  QAPLAN_API Status validate() const;

  /// The shipped rules without naming a path: locate_config() (qaplan/config_location.hpp —
  /// $QAPLAN_CONFIG, the checkout, the user config dir, the installed default) + load_config().
  /// Errors: kIo (nothing found, naming where it looked), kInvalidConfig.
  static Result<Config> load_default();
};

/// The rules.toml format version this library reads (`schema_version` at the top of the file).
inline constexpr int kConfigSchemaVersion = 1;

/// Parses and validates TOML text. `origin` names the text in errors ("config/rules.toml").
/// The [ranking] table is left to the ranking room's reader (qaplan/ranking/config.hpp).
/// Errors: kInvalidConfig with file = origin, line and field = "[table] key".
QAPLAN_API Result<Config> parse_config(std::string_view toml_text, std::string_view origin);

/// Reads and parses a file. Errors: kIo (unreadable), kInvalidConfig.
QAPLAN_API Result<Config> load_config(const std::filesystem::path& path);

// Inline so that locate_config() sees the host's QAPLAN_PACKAGE_DATADIR.
inline Result<Config> Config::load_default() {
  auto where = locate_config();
  if (!where.ok()) return where.error();
  return load_config(where->path);
}

}  // namespace qaplan
