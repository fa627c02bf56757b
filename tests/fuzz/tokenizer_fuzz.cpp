// Fuzz target: the benchmark tokenizer `nfkc-cjk-bigrams-ascii-1` on arbitrary bytes.
//
// Invariants: tokenize() fails exactly when the input is not valid UTF-8 (kInvalidInput, one
// line); otherwise it is deterministic, tokenize_into() appends the same tokens, and every token
// is non-empty valid UTF-8 without whitespace, with no ASCII upper-case letter (the text is
// case-folded) and ASCII tokens only made of [a-z0-9._-] that start and end alphanumeric.
#include "fuzz_support.hpp"
#include "qaplan/ranking/tokenizer.hpp"

using namespace qaplan;

namespace {
Tokenizer* g_tok = nullptr;

bool ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto t = Tokenizer::create();
  if (!t.ok()) std::abort();
  g_tok = new Tokenizer(*t);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_view(data, size);
  auto toks = g_tok->tokenize(text);
  const bool valid = fuzz::valid_utf8(text);
  QAPLAN_FUZZ_CHECK(toks.ok() == valid, toks.ok() ? "accepted invalid UTF-8"
                                                  : toks.error().to_string());
  if (!toks.ok()) {
    fuzz::check_error(toks.error());
    QAPLAN_FUZZ_CHECK(toks.error().code == ErrorCode::kInvalidInput, toks.error().to_string());
    std::vector<std::string> untouched{"keep"};
    QAPLAN_FUZZ_CHECK(!g_tok->tokenize_into(text, untouched).ok() && untouched.size() == 1,
                      "tokenize_into changed its output on error");
    return 0;
  }
  std::vector<std::string> into{"prefix"};
  QAPLAN_FUZZ_CHECK(g_tok->tokenize_into(text, into).ok(), "tokenize_into failed");
  QAPLAN_FUZZ_CHECK(into.size() == toks->size() + 1 &&
                        std::equal(toks->begin(), toks->end(), into.begin() + 1),
                    "tokenize_into differs");
  auto again = g_tok->tokenize(text);
  QAPLAN_FUZZ_CHECK(again.ok() && *again == *toks, "not deterministic");
  for (const std::string& t : *toks) {
    QAPLAN_FUZZ_CHECK(!t.empty(), "empty token");
    QAPLAN_FUZZ_CHECK(fuzz::valid_utf8(t), "token is not valid UTF-8");
    QAPLAN_FUZZ_CHECK(t.find_first_of(" \t\r\n\f\v") == std::string::npos, t);
    QAPLAN_FUZZ_CHECK(t.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos, t);
    const bool ascii = static_cast<unsigned char>(t[0]) < 0x80;
    if (ascii) {
      QAPLAN_FUZZ_CHECK(ascii_alnum(t.front()) && ascii_alnum(t.back()), t);
      for (char c : t) QAPLAN_FUZZ_CHECK(ascii_alnum(c) || c == '.' || c == '_' || c == '-', t);
    }
  }
  return 0;
}
