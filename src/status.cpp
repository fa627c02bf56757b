#include "qaplan/status.hpp"

namespace qaplan {

std::string_view to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kInvalidInput: return "invalid_input";
    case ErrorCode::kInvalidConfig: return "invalid_config";
    case ErrorCode::kIo: return "io_error";
    case ErrorCode::kFingerprintMismatch: return "fingerprint_mismatch";
    case ErrorCode::kInternal: return "internal_error";
  }
  return "internal_error";
}

std::string Error::to_string() const {
  std::string out = context.empty() ? message : context + ": " + message;
  // Errors are printed as one line; a newline inside a dependency's message would break that.
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace qaplan
