// Writes the binary seeds of tests/fuzz/corpus/ that cannot be cut from tests/data: a small
// router model (the shipped one is 880 KB), with the labels of router-v1 and a few hundred rows
// whose ids come from real questions, so predict() exercises the weight table. Built with the
// fuzz targets; scripts/fuzz.sh --seeds reruns it. Usage: fuzz_make_seeds OUT_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "planning/model/features.hpp"
#include "planning/model/model_format.hpp"

using namespace qaplan::internal;

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::filesystem::path out = argv[1];
  RouterModelData d;
  d.name = "fuzz-seed";
  d.hash_bits = 12;
  d.heads[0].labels = {"greeting", "thanks",       "goodbye", "acknowledgement", "chit_chat",
                       "handoff",  "out_of_scope", "unclear", "question"};
  d.heads[1].labels = {"FAQ_QUERY", "KNOWLEDGE_QUERY"};
  d.heads[2].labels = {"default", "pricing", "compliance", "troubleshooting", "summary"};
  d.heads[3].labels = {"hr", "finance", "it", "admin", "legal", "none"};
  d.heads[4].labels = {"independent", "dependent"};
  std::size_t width = 0;
  for (auto& h : d.heads) {
    h.bias.assign(h.labels.size(), 0.0f);
    h.bias[0] = 0.25f;
    width += h.labels.size();
  }
  std::set<std::uint32_t> ids;
  FeatureBuffer buf;
  for (const char* q : {"年假怎么申请", "你好", "谢谢", "报销费用超过5000需要谁审批", "vpn连不上",
                        "转人工", "今天天气怎么样", "合同审批流程"}) {
    extract_router_features(q, "上一个问题", d.hash_bits, buf);
    for (std::uint32_t i = 0; i < buf.size; ++i) ids.insert(buf.ids[i]);
  }
  d.feature_ids.assign(ids.begin(), ids.end());
  for (std::size_t r = 0; r < d.feature_ids.size(); ++r)
    for (std::size_t c = 0; c < width; ++c)
      d.weights.push_back(static_cast<float>(static_cast<int>((r * 7 + c * 13) % 19) - 9) / 9.0f);
  auto bytes = serialize_router_model(d);
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s\n", bytes.error().to_string().c_str());
    return 1;
  }
  std::filesystem::create_directories(out / "model");
  // Byte 0 is model_fuzz's mode: 0 = parse as is, 1 = fix the checksum first.
  for (char mode : {'\0', '\1'}) {
    std::ofstream f(out / "model" / (mode ? "seed-fixsum.qpm" : "seed.qpm"), std::ios::binary);
    f.put(mode);
    f.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  }
  std::printf("model seed: %zu bytes, %zu rows\n", bytes->size(), d.feature_ids.size());
  return 0;
}
