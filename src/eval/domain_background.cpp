// The background of the domain lexicon build (domain_build.hpp): document frequencies of candidate
// terms in general chat — the router data's rows whose act is not `question` — written as
// config/domain/background.tsv with the licences of the data it comes from.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "eval/domain_terms.hpp"
#include "eval/router_data.hpp"
#include "qaplan/eval/domain_build.hpp"
#include "qaplan/io.hpp"

namespace qaplan {
namespace {

// The router data files whose licence allows shipping derived counts, with what their licence
// asks us to say (eval_sets/router/external/NOTICE.md). A file not listed is left out.
struct FileLicence {
  std::string_view file;
  std::string_view notice;
};
constexpr FileLicence kLicences[] = {
    {"own_social.jsonl", "written for qaplan; the qaplan repository's licence"},
    {"own_questions.jsonl", "written for qaplan; the qaplan repository's licence"},
    {"social_wrapped.jsonl", "derived from qaplan's own rows; the qaplan repository's licence"},
    {"topic_switches.jsonl", "derived from qaplan's own rows; the qaplan repository's licence"},
    {"followups_dev.jsonl", "derived from qaplan's own rows; the qaplan repository's licence"},
    {"external/nlpcc2023_chitchat.jsonl",
     "CC BY 4.0: \"NLPCC-2023 Shared Task 9: User Feedback Prediction and Response Generation\", "
     "XiaoMi AI Lab + Renmin University (github.com/XiaoMi/nlpcc-2023-shared-task-9)"},
    {"external/tencent_chitchat.jsonl",
     "CC BY 3.0: (c) Tencent AI Lab, Jing Li, Yan Song, Haisong Zhang, Shuming Shi, \"A Manually "
     "Annotated Chinese Corpus for Non-task-oriented Dialogue Systems\" (2018); extraction "
     "github.com/502ping/RetrievalBased_Chatbot, Apache-2.0"},
    {"external/chatterbot_zh.jsonl",
     "BSD-3-Clause: ChatterBot Language Training Corpus, (c) 2017 Gunther Cox and contributors"},
    {"external/multiwoz_zh_val.jsonl",
     "CC BY 4.0: MultiWOZ 2.1 (Budzianowski et al. 2018; Eric et al. 2019), Chinese as in "
     "ConvLab-2 (thu-coai, Apache-2.0)"},
    {"external/paddle_docs_faq.jsonl", "Apache-2.0: (c) 2016 PaddlePaddle Authors"},
    {"external/intune_it.jsonl", "CC BY 4.0: Microsoft Intune documentation, (c) Microsoft"},
    {"external/chase_c_train.jsonl", "MIT: (c) 2021 xjtu-intsoft (CHASE, Guo et al. 2021)"},
};

const FileLicence* licence_of(std::string_view file) {
  for (const FileLicence& l : kLicences)
    if (l.file == file) return &l;
  return nullptr;
}

// Every file the registry lists, read from the directory (the loader verifies each one).
Result<std::vector<NamedText>> read_router_files(const std::filesystem::path& dir,
                                                 NamedText& registry) {
  const std::filesystem::path reg = dir / "fingerprints.json";
  QAPLAN_ASSIGN_OR_RETURN(registry.text, read_file(reg, "router data registry"));
  registry.name = "fingerprints.json";
  namespace js = internal::json;
  QAPLAN_ASSIGN_OR_RETURN(
      auto names, js::read_json(reg.string(), 0, [&] {
        const js::Json root = js::parse_strict(registry.text);
        if (!root.is_object() || !root.contains("files") || !root.at("files").is_object())
          js::fail("files", "must be an object of file names");
        std::vector<std::string> out;
        for (const auto& [n, v] : root.at("files").items()) out.push_back(n);
        return out;
      }));
  std::vector<NamedText> files;
  for (const std::string& n : names) {
    QAPLAN_ASSIGN_OR_RETURN(std::string t, read_file(dir / n, "router data file"));
    files.push_back({n, std::move(t)});
  }
  return files;
}

struct BgCount {
  std::uint32_t df = 0;
  std::size_t last_row = static_cast<std::size_t>(-1);
  bool word = false;
};

}  // namespace

Result<std::string> build_domain_background(const std::filesystem::path& router_dir) {
  NamedText registry;
  QAPLAN_ASSIGN_OR_RETURN(const std::vector<NamedText> files,
                          read_router_files(router_dir, registry));
  QAPLAN_ASSIGN_OR_RETURN(const internal::RouterData data,
                          internal::load_router_data(files, registry));
  const auto& acts = internal::router_label_sets()[static_cast<std::size_t>(internal::Head::kAct)];
  const auto question =
      static_cast<std::int8_t>(std::find(acts.begin(), acts.end(), "question") - acts.begin());
  std::map<std::string, BgCount> counts;  // ordered: the file lists terms in byte order
  std::map<std::string, std::size_t> rows_per_file;
  std::set<std::string> skipped;
  std::vector<internal::Candidate> cands;
  std::size_t rows = 0;
  for (const internal::RouterRow& r : data.rows) {
    const std::int8_t act = r.label[static_cast<std::size_t>(internal::Head::kAct)];
    if (act < 0 || act == question) continue;
    if (licence_of(r.file) == nullptr) {
      skipped.insert(r.file);
      continue;
    }
    ++rows_per_file[r.file];
    const std::size_t row = rows++;
    cands.clear();
    // Rows are normalized by the loader; folded here like the KB's texts (domain_terms.hpp).
    const std::string folded = internal::fold_long(r.text);
    internal::candidates(folded, cands);
    for (const internal::Candidate& c : cands) {
      BgCount& k = counts[std::string(c.text)];
      k.word = k.word || c.kind != internal::CandidateKind::kPair;
      if (k.last_row != row) {
        k.last_row = row;
        ++k.df;
      }
    }
  }
  std::string out =
      "# qaplan domain background: in how many rows of general chat each candidate term occurs.\n"
      "# Built by `qaplan domain background --data eval_sets/router` from the router data's rows\n"
      "# whose act is not \"question\" (greetings, thanks, goodbyes, acknowledgements, chit-chat,\n"
      "# handoff, out-of-scope, unclear), normalized like a question and folded. Words of any length; pairs\n"
      "# of adjacent Han words only when they occur in >= 2 rows. Counts only, no text.\n"
      "# Rows per file, and the licence and attribution of the data each comes from:\n";
  for (const auto& [file, n] : rows_per_file)
    out += "#   " + file + " (" + std::to_string(n) +
           " rows): " + std::string(licence_of(file)->notice) + "\n";
  for (const std::string& file : skipped)
    out += "#   " + file + ": not used (licence not known to be permissive)\n";
  out += "qaplan-domain-background\t1\n";
  out += "data\t" + data.fingerprint + "\n";
  out += "docs\t" + std::to_string(rows) + "\n";
  out += "word\tdf\n";
  for (const auto& [text, k] : counts)
    if (k.word || k.df >= 2) out += text + "\t" + std::to_string(k.df) + "\n";
  return out;
}

Result<DomainBackground> parse_domain_background(std::string_view text, std::string_view name) {
  DomainBackground bg;
  bg.sha256 = internal::sha256_hex(text);
  int line_no = 0;
  int header = 0;  // lines of the fixed header read so far
  auto fail = [&](const std::string& message) {
    return make_file_error(ErrorCode::kInvalidInput, message, std::string(name), line_no);
  };
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) {
      ++line_no;
      return fail("truncated: the last line has no line break");
    }
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    ++line_no;
    if (line.starts_with("#")) continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos || line.find('\t', tab + 1) != std::string_view::npos)
      return fail("expected two tab-separated fields");
    const std::string_view key = line.substr(0, tab), value = line.substr(tab + 1);
    std::uint64_t n = 0;
    auto parse_count = [&]() {
      const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
      return r.ec == std::errc() && r.ptr == value.data() + value.size() && n <= 0xFFFFFFFFu;
    };
    switch (header) {
      case 0:
        if (line != "qaplan-domain-background\t1")
          return fail("not a qaplan domain background file (version 1)");
        break;
      case 1:
        if (key != "data") return fail("expected the data line");
        break;
      case 2:
        if (key != "docs" || !parse_count() || n == 0) return fail("docs must be a count > 0");
        bg.docs = static_cast<std::size_t>(n);
        break;
      case 3:
        if (line != "word\tdf") return fail("expected the column line word<TAB>df");
        break;
      default:
        if (key.empty()) return fail("empty word");
        if (!parse_count() || n == 0 || n > bg.docs) return fail("df must be a count in 1..docs");
        if (!bg.df.emplace(std::string(key), static_cast<std::uint32_t>(n)).second)
          return fail("duplicate word");
    }
    ++header;
  }
  if (header < 4) return fail("truncated: the header is incomplete");
  return bg;
}

}  // namespace qaplan
