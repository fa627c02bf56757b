#pragma once
// A tiny router data folder for the trainer's unit and CLI tests: every label of every head has
// training rows, a few rows sit in dev and test, one file is in a subfolder, and the registry
// (fingerprints.json) matches. Small enough to train in milliseconds.
#include <map>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "qaplan/eval/bench.hpp"

namespace qaplan::test {

struct RouterFixtureRow {
  const char* text;
  const char* act;  // nullptr = null
  const char* intent = nullptr;
  const char* category = nullptr;
  const char* source = nullptr;
  const char* split = "train";
  const char* previous = nullptr;
  bool dependent = false;
};

inline std::string json_str(const char* s) {
  if (s == nullptr) return "null";
  std::string out = "\"";
  for (const char* p = s; *p; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    out += *p;
  }
  return out + "\"";
}

inline std::string router_line(const RouterFixtureRow& r) {
  std::string l = "{\"text\": " + json_str(r.text) + ", \"act\": " + json_str(r.act) +
                  ", \"intent\": " + json_str(r.intent) +
                  ", \"category\": " + json_str(r.category) +
                  ", \"source\": " + json_str(r.source) +
                  ", \"lang\": \"zh-Hans\", \"split\": " + json_str(r.split);
  if (r.previous != nullptr)
    l += std::string(", \"previous\": ") + json_str(r.previous) +
         ", \"dependent\": " + (r.dependent ? "true" : "false");
  return l + "}\n";
}

/// File name → content: "social.jsonl", "questions.jsonl", "more/dependent.jsonl".
inline std::map<std::string, std::string> router_fixture_files() {
  const std::vector<RouterFixtureRow> social = {
      {"你好", "greeting"},
      {"您好呀", "greeting"},
      {"早上好", "greeting"},
      {"hello there", "greeting"},
      {"谢谢", "thanks"},
      {"多谢啦", "thanks"},
      {"谢谢你", "thanks"},
      {"thanks a lot", "thanks"},
      {"再见", "goodbye"},
      {"拜拜", "goodbye"},
      {"下次见", "goodbye"},
      {"bye bye", "goodbye"},
      {"好的", "acknowledgement"},
      {"嗯嗯", "acknowledgement"},
      {"收到", "acknowledgement"},
      {"ok", "acknowledgement"},
      {"你是谁", "chit_chat"},
      {"你喜欢什么电影", "chit_chat"},
      {"你今天心情怎么样", "chit_chat"},
      {"你会唱歌吗", "chit_chat"},
      {"转人工", "handoff"},
      {"我要人工客服", "handoff"},
      {"找真人", "handoff"},
      {"人工服务", "handoff"},
      {"明天天气怎么样", "out_of_scope"},
      {"推荐一只股票", "out_of_scope"},
      {"给我唱首歌", "out_of_scope"},
      {"播放音乐", "out_of_scope"},
      {"？？？", "unclear"},
      {"😂", "unclear"},
      {"。。。", "unclear"},
      {"!!!", "unclear"},
      {"谢谢啦", "thanks", nullptr, nullptr, nullptr, "dev"},
      {"拜拜啦", "goodbye", nullptr, nullptr, nullptr, "test"},
      {"你好啊", "greeting", nullptr, nullptr, nullptr, "test"},
  };
  const std::vector<RouterFixtureRow> questions = {
      {"年假怎么申请", "question", "FAQ_QUERY", "default", "hr"},
      {"病假需要什么材料", "question", "FAQ_QUERY", "default", "hr"},
      {"报销标准是多少", "question", "FAQ_QUERY", "pricing", "finance"},
      {"出差住宿费上限多少钱", "question", "FAQ_QUERY", "pricing", "finance"},
      {"电脑开不了机怎么办", "question", "FAQ_QUERY", "troubleshooting", "it"},
      {"vpn连不上怎么办", "question", "FAQ_QUERY", "troubleshooting", "it"},
      {"介绍一下合同审批流程", "question", "KNOWLEDGE_QUERY", "summary", "legal"},
      {"总结一下保密制度", "question", "KNOWLEDGE_QUERY", "summary", "legal"},
      {"数据出境有什么合规要求", "question", "KNOWLEDGE_QUERY", "compliance", "legal"},
      {"收礼物是否违反规定", "question", "KNOWLEDGE_QUERY", "compliance", "admin"},
      {"会议室怎么预订", "question", "FAQ_QUERY", "default", "admin"},
      {"门禁卡丢了找谁", "question", "FAQ_QUERY", "default", "admin"},
      {"公司文化是什么", "question", "KNOWLEDGE_QUERY", "default", "none"},
      {"公司的发展历史", "question", "KNOWLEDGE_QUERY", "default", "none"},
      {"年假怎么休", "question", "FAQ_QUERY", "default", "hr", "dev"},
      {"报销上限是多少", "question", "FAQ_QUERY", "pricing", "finance", "test"},
      {"打印机坏了怎么办", "question", "FAQ_QUERY", "troubleshooting", "it", "test"},
  };
  const std::vector<RouterFixtureRow> dependent = {
      {"那如果超过了呢", "question", nullptr, nullptr, nullptr, "train", "住宿标准是多少", true},
      {"它支持mac吗", "question", nullptr, nullptr, nullptr, "train", "vpn怎么连", true},
      {"那病假呢", "question", nullptr, nullptr, nullptr, "train", "年假有几天", true},
      {"会议室怎么预订", nullptr, nullptr, nullptr, nullptr, "train", "年假有几天", false},
      {"报销流程是什么", nullptr, nullptr, nullptr, nullptr, "train", "电脑坏了怎么办", false},
      {"门禁卡丢了找谁", nullptr, nullptr, nullptr, nullptr, "train", "合同怎么盖章", false},
      {"那事假呢", "question", nullptr, nullptr, nullptr, "test", "年假有几天", true},
  };
  std::map<std::string, std::string> files;
  for (const auto& r : social) files["social.jsonl"] += router_line(r);
  for (const auto& r : questions) files["questions.jsonl"] += router_line(r);
  for (const auto& r : dependent) files["more/dependent.jsonl"] += router_line(r);
  return files;
}

/// The registry for `files`.
inline std::string router_fixture_fingerprints(const std::map<std::string, std::string>& files) {
  std::string out = "{\"format\": \"qaplan-router-data-1\", \"files\": {";
  bool first = true;
  for (const auto& [name, text] : files) {
    out += (first ? "" : ", ") + json_str(name.c_str()) + ": \"" +
           qaplan::internal::sha256_hex(text) + "\"";
    first = false;
  }
  return out + "}}\n";
}

inline std::vector<NamedText> named(const std::map<std::string, std::string>& files) {
  std::vector<NamedText> out;
  for (const auto& [name, text] : files) out.push_back({name, text});
  return out;
}

}  // namespace qaplan::test
