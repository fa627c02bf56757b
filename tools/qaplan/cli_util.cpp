#include <iostream>

#include "cli.hpp"

namespace qaplan::cli {

int exit_code_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
    case ErrorCode::kInvalidConfig:
    case ErrorCode::kIo:
    case ErrorCode::kFingerprintMismatch:
      return kInvalid;
    case ErrorCode::kInternal:
      return kInternal;
  }
  return kInternal;
}

int report(const Error& e) {
  std::cerr << "qaplan: " << e.to_string() << '\n';
  return exit_code_for(e.code);
}

}  // namespace qaplan::cli
