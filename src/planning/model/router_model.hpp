#pragma once
// The built-in router classifier: the gateway's model candidate (docs/model.md). A supervised
// linear model over hashed character n-grams (word n-grams for ASCII) of the NORMALIZED question
// (internal::normalize_question: NFKC casefold, whitespace rules, Traditional → Simplified),
// trained offline by `qaplan model train` (LIBLINEAR) and shipped as a fingerprinted file under
// config/models/. It scores five heads at once:
//   act       greeting, thanks, goodbye, acknowledgement, chit_chat, handoff, out_of_scope,
//             unclear, question
//   intent    FAQ_QUERY, KNOWLEDGE_QUERY                       (meaningful when act = question)
//   category  default, pricing, compliance, troubleshooting, summary
//   source    hr, finance, it, admin, legal, none
//   dependent independent, dependent   (needs its context; only when there is history)
// Label names and their order come from the model file; the planner maps them by name.
//
// Immutable after load; predict() is const, thread-safe and allocation-free.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

class FileImage;  // common/file_image.hpp

/// The heads, in the fixed order of ModelOutput.
enum class Head : std::uint8_t { kAct = 0, kIntent, kCategory, kSource, kDependent };
inline constexpr std::size_t kHeads = 5;
inline constexpr std::size_t kMaxLabels = 16;

/// One head's scores: a probability per label (softmax, label order), and the argmax.
struct HeadOutput {
  std::uint8_t best = 0;
  float score = 0.0f;  ///< probs[best]
  std::array<float, kMaxLabels> probs{};
};
using ModelOutput = std::array<HeadOutput, kHeads>;

class RouterModel {
 public:
  /// Parses and strictly validates a model file's bytes; `origin` names it in errors. Truncated,
  /// corrupted, foreign or wrong-version files are kInvalidInput naming `origin` and what is
  /// wrong; nothing is read out of bounds.
  QAPLAN_API static Result<RouterModel> parse(std::string_view bytes, std::string_view origin);
  /// Reads and parses a file. Errors: kIo, kInvalidInput.
  QAPLAN_API static Result<RouterModel> load(const std::filesystem::path& path);

  /// Scores `normalized` (a normalize_question() text). `previous` is the normalized last
  /// history turn, empty when there is none (only the dependent head looks at it).
  QAPLAN_API void predict(std::string_view normalized, std::string_view previous,
                          ModelOutput& out) const noexcept;

  /// Label names of a head, in score order.
  QAPLAN_API const std::vector<std::string>& labels(Head head) const noexcept;
  /// The model's name (e.g. "router-v1") and the lower-case hex SHA-256 of the file's bytes.
  QAPLAN_API const std::string& name() const noexcept;
  QAPLAN_API const std::string& sha256() const noexcept;
  /// The file's metadata block verbatim (a JSON object: name, feature_spec, hash_bits, heads,
  /// training — how and from which data the model was trained).
  QAPLAN_API const std::string& metadata() const noexcept;

 private:
  struct Impl;
  static Result<RouterModel> parse_image(FileImage file, std::string_view origin);
  explicit RouterModel(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan::internal
