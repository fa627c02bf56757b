// The rooms' dependency order (docs/architecture.md), checked over every quoted #include of the
// sources and public headers: common ← planning, ranking ← retrieval ← eval ← training, and
// engines beside retrieval. A room may include itself and the rooms it is allowed to; anything
// else (retrieval reaching into eval, planning into ranking) fails here by file and line before
// it becomes a link dependency.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

// The training room's sources live in src/eval/ (and its headers in include/qaplan/eval/).
bool is_training(const std::string& stem) {
  return stem == "train_model" || stem.starts_with("domain_");
}

// The room of a file or of an include path ("qaplan/retrieval/kb.hpp", "eval/report_util.hpp").
std::string room_of(std::string path) {
  if (path.starts_with("qaplan/")) path = path.substr(7);
  const std::size_t slash = path.find('/');
  if (slash == std::string::npos) return "common";  // qaplan/io.hpp, status.hpp, export.hpp…
  const std::string room = path.substr(0, slash);
  const std::string stem = fs::path(path).stem().string();
  if (room == "eval" && is_training(stem)) return "training";
  return room;
}

const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> a = {
      {"common", {"common"}},
      {"planning", {"common", "planning"}},
      {"ranking", {"common", "ranking"}},
      {"retrieval", {"common", "planning", "ranking", "retrieval"}},
      {"engines", {"common", "planning", "ranking", "engines"}},
      {"eval", {"common", "planning", "ranking", "retrieval", "eval"}},
      {"training", {"common", "planning", "ranking", "retrieval", "eval", "training"}},
  };
  return a;
}

// Every quoted include of one file that leaves the rooms it may use.
void check_file(const fs::path& file, const std::string& room, int& checked) {
  std::ifstream in(file);
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (!line.starts_with("#include \"")) continue;
    const std::size_t end = line.find('"', 10);
    const std::string target = line.substr(10, end - 10);
    if (target == "tw2s_table.hpp") continue;  // generated at build time for planning
    ++checked;
    EXPECT_TRUE(allowed().at(room).contains(room_of(target)))
        << file.string() << ":" << no << ": room " << room << " includes " << target
        << " (room " << room_of(target) << ")";
  }
}

TEST(Rooms, EveryIncludeFollowsTheRoomOrder) {
  const fs::path src = qaplan::test::source_dir();
  int checked = 0;
  std::set<std::string> seen;
  for (const fs::path base : {src / "src", src / "include" / "qaplan"}) {
    for (const auto& e : fs::recursive_directory_iterator(base)) {
      if (!e.is_regular_file() || e.path().filename() == "qaplan.hpp") continue;  // the umbrella
      const fs::path rel = fs::relative(e.path(), base);
      const std::string room = rel.has_parent_path()
                                   ? room_of(rel.generic_string())
                                   : std::string("common");  // include/qaplan/*.hpp
      ASSERT_TRUE(allowed().contains(room)) << e.path() << " is in no known room";
      seen.insert(room);
      check_file(e.path(), room, checked);
    }
  }
  EXPECT_EQ(seen.size(), allowed().size()) << "a room has no files";
  EXPECT_GT(checked, 300);
}

TEST(Rooms, TheOrderCatchesAnIncludeAcrossIt) {
  EXPECT_EQ(room_of("qaplan/retrieval/kb.hpp"), "retrieval");
  EXPECT_EQ(room_of("eval/report_util.hpp"), "eval");
  EXPECT_EQ(room_of("qaplan/eval/train_model.hpp"), "training");
  EXPECT_EQ(room_of("qaplan/io.hpp"), "common");
  EXPECT_FALSE(allowed().at("retrieval").contains(room_of("qaplan/eval/dataset.hpp")));
  EXPECT_FALSE(allowed().at("planning").contains(room_of("qaplan/ranking/bm25.hpp")));
  EXPECT_FALSE(allowed().at("eval").contains(room_of("qaplan/eval/train_model.hpp")));
}

}  // namespace
