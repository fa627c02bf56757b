#include "qaplan/status.hpp"

#include "common/enum_table.hpp"
#include "common/printable.hpp"

namespace qaplan {
namespace {

constexpr internal::EnumTable<ErrorCode, 5> kErrorCodes{{{
    {ErrorCode::kInvalidInput, "invalid_input"},
    {ErrorCode::kInvalidConfig, "invalid_config"},
    {ErrorCode::kIo, "io_error"},
    {ErrorCode::kFingerprintMismatch, "fingerprint_mismatch"},
    {ErrorCode::kInternal, "internal_error"},
}}};

}  // namespace

std::string_view to_string(ErrorCode code) noexcept { return kErrorCodes.name(code); }

std::string Error::where() const {
  std::string out = file;
  if (!file.empty() && line > 0) {
    out.append(":").append(std::to_string(line));
    if (column > 0) out.append(":").append(std::to_string(column));
  }
  // "rules.toml:14 [table] key", "corpus.jsonl:3 id", "dataset.json: queries[2].split".
  if (!field.empty()) out.append(out.empty() ? "" : line > 0 ? " " : ": ").append(field);
  return out;
}

std::string Error::to_string() const {
  const std::string w = where();
  const std::string raw = w.empty() ? message : w + ": " + message;
  // Fields and messages may quote untrusted text; escaped here, once, for every error however
  // it was built.
  return internal::one_printable_line(raw);
}

namespace detail {
void throw_no_error() {
  throw BadResultAccess(
      make_error(ErrorCode::kInternal, "error() called on a Result that holds a value"));
}
}  // namespace detail

}  // namespace qaplan
