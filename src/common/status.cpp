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
  const std::string raw = w.empty() ? message : w + ": " + message;
  // Errors are printed as one printable line, and fields and messages may quote untrusted text
  // (a JSON key may hold any escaped control character: issue 11's batch-line fuzzer found
  // "\f" echoed from an unknown field). Line breaks and tabs become spaces, other control bytes
  // \u00XX — here, once, for every error however it was built.
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(raw.size());
  for (const char c : raw) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else if (b < 0x20 || b == 0x7F) {
      out += "\\u00";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

namespace detail {
void throw_no_error() {
  throw BadResultAccess(
      make_error(ErrorCode::kInternal, "error() called on a Result that holds a value"));
}
}  // namespace detail

}  // namespace qaplan
