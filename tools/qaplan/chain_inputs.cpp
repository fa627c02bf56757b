// The inputs of eval-chain and calibrate (chain_inputs.hpp).
#include "chain_inputs.hpp"

#include "cli.hpp"
#include "config_lookup.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;

Result<ChainInputs> load_chain_inputs(const std::string& dataset, const std::string& kb,
                                      const std::string& eval_config, const std::string& config) {
  QAPLAN_ASSIGN_OR_RETURN(const fs::path ds_path,
                          find_data_file(chain_set_for(dataset, kb),
                                         "eval_sets/chain/chain-v1.jsonl", "--dataset"));
  QAPLAN_ASSIGN_OR_RETURN(const fs::path faq_path,
                          find_data_file(kb.empty() ? "" : (fs::path(kb) / "faq.jsonl").string(),
                                         "eval_sets/kb/faq.jsonl", "--kb"));
  ChainInputs in;
  QAPLAN_ASSIGN_OR_RETURN(in.settings_path, find_data_file(eval_config, "eval_sets/chain/eval-config.json",
                                                           "--eval-config"));
  QAPLAN_ASSIGN_OR_RETURN(const fs::path cfg_path, find_config(config));
  QAPLAN_ASSIGN_OR_RETURN(in.set, read_chain_set(ds_path));
  QAPLAN_ASSIGN_OR_RETURN(KnowledgeBase base, read_knowledge_base(faq_path.parent_path()));
  QAPLAN_ASSIGN_OR_RETURN(in.settings, read_chain_eval_config(in.settings_path));
  QAPLAN_ASSIGN_OR_RETURN(in.rules, read_rules_file(cfg_path));
  QAPLAN_ASSIGN_OR_RETURN(KbIndex index, KbIndex::create(std::move(base)));
  in.kb.emplace(std::move(index));
  const fs::path kb_dir = faq_path.parent_path();
  in.files = {ds_path,           ds_path.parent_path() / "fingerprints.json",
              faq_path,          kb_dir / "docs.jsonl",
              kb_dir / "fingerprints.json", in.settings_path,
              cfg_path};
  return in;
}

}  // namespace qaplan::cli
