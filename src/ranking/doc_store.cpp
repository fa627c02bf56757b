// docs.jsonl of a saved index (include/qaplan/ranking/doc_store.hpp). Written as plain JSONL, not
// a binary image: it is read only for the few hits a question returns, and a host can use it
// without qaplan.
#include "qaplan/ranking/doc_store.hpp"

#include <nlohmann/json.hpp>

#include "qaplan/io.hpp"
#include "ranking/internal/jsonl.hpp"

namespace qaplan {
namespace {

// The "id" of a corpus line ("" when it has none).
std::string line_id(std::string_view line) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string()) return {};
  return j["id"].get<std::string>();
}

}  // namespace

Result<std::string> make_doc_store(const std::filesystem::path& corpus, const Bm25Index& index) {
  QAPLAN_ASSIGN_OR_RETURN(LineInput in, LineInput::open(corpus.string(), "corpus"));
  std::string out, line;
  std::size_t doc = 0;
  for (;;) {
    QAPLAN_ASSIGN_OR_RETURN(const bool more, in.next(line));
    if (!more) break;
    if (internal::blank_line(line)) continue;  // as the builder skips them
    // The builder read the same lines: a different id means the file changed in between.
    if (doc >= index.size() || line_id(line) != index.doc_id(doc))
      return make_file_error(ErrorCode::kInvalidInput,
                             "the corpus changed while it was indexed (document " +
                                 std::to_string(doc) + "); build again",
                             corpus.string());
    out.append(line).push_back('\n');
    ++doc;
  }
  if (doc != index.size())
    return make_file_error(ErrorCode::kInvalidInput,
                           "the corpus changed while it was indexed (" + std::to_string(doc) +
                               " lines for " + std::to_string(index.size()) + " documents)",
                           corpus.string());
  return out;
}

Result<DocStore> DocStore::open(const CollectionIndex& index) {
  const std::size_t documents = index.size();
  const std::filesystem::path file = index.generation() / kDocStoreFile;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    return make_file_error(ErrorCode::kIo,
                           "the index has no document store (built before passages were kept, or "
                           "with --no-store): run qaplan index build again",
                           file.string());
  DocStore s;
  QAPLAN_ASSIGN_OR_RETURN(s.bytes_, read_file(file, "document store"));
  s.offsets_.push_back(0);
  for (std::size_t at = s.bytes_.find('\n'); at != std::string::npos;
       at = s.bytes_.find('\n', at + 1))
    s.offsets_.push_back(at + 1);
  if (s.offsets_.back() != s.bytes_.size() || s.size() != documents)
    return make_file_error(ErrorCode::kInvalidInput,
                           "holds " + std::to_string(s.size()) + " documents, the index " +
                               std::to_string(documents) + " (not the index's store)",
                           file.string());
  return s;
}

std::string_view DocStore::line(std::size_t doc) const noexcept {
  if (doc + 1 >= offsets_.size()) return {};
  return std::string_view(bytes_).substr(offsets_[doc], offsets_[doc + 1] - offsets_[doc] - 1);
}

std::string DocStore::text(std::size_t doc) const {
  const auto j = nlohmann::json::parse(line(doc), nullptr, false);
  if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) return {};
  return j["text"].get<std::string>();
}

}  // namespace qaplan
