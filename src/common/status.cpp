#include "qaplan/status.hpp"

#include "common/enum_table.hpp"

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
  std::string out = w.empty() ? message : w + ": " + message;
  // Errors are printed as one line; a newline inside a dependency's message would break that.
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

namespace detail {
void throw_no_error() {
  throw BadResultAccess(
      make_error(ErrorCode::kInternal, "error() called on a Result that holds a value"));
}
}  // namespace detail

}  // namespace qaplan
