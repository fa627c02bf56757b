#include "qaplan/ranking/index_dir.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "qaplan/io.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "ranking/internal/jsonl.hpp"
#include "common/input.hpp"
#include "ranking/internal/mapped_file.hpp"

namespace qaplan {
namespace fs = std::filesystem;

namespace {

struct Line {
  std::string_view text;
  int line_no;
};

struct Parsed {
  std::string id;
  std::vector<std::string> tokens;
  std::optional<Error> error;
};

// Parses and tokenizes lines [begin, end) of a batch.
void parse_range(const Tokenizer& tok, const std::vector<Line>& lines, std::size_t begin,
                 std::size_t end, const std::string& source, std::vector<Parsed>& out) {
  for (std::size_t i = begin; i < end; ++i) {
    Parsed& p = out[i];
    p.tokens.clear();
    p.error.reset();
    auto rec = internal::parse_jsonl_record(lines[i].text, "text", source, lines[i].line_no);
    if (!rec.ok()) {
      p.error = std::move(rec).error();
      continue;
    }
    p.id = std::move(rec->id);
    if (Status s = tok.tokenize_into(rec->text, p.tokens); !s.ok()) {
      Error e = std::move(s).error();
      e.file = source;
      e.line = lines[i].line_no;
      e.field = "text";
      p.error = std::move(e);
    }
  }
}

// One parsed line into the builder: its error, or the document (the builder refuses a duplicate
// id; the error gets the line).
Status add_parsed(Parsed& p, const Line& line, Bm25Builder& builder, const std::string& source) {
  if (p.error) return std::move(*p.error);
  if (Status s = builder.add(p.tokens, p.id); !s.ok()) {
    Error e = std::move(s).error();
    e.file = source;
    e.line = line.line_no;
    return e;
  }
  return {};
}

}  // namespace

Result<Bm25Index> build_bm25_from_jsonl(const fs::path& corpus, const IndexBuildOptions& opts) {
  QAPLAN_TRY(opts.bm25.validate());
  QAPLAN_ASSIGN_OR_RETURN(Tokenizer tok, Tokenizer::create());
  // Read once with read(2), not mapped: a corpus truncated under the build is an I/O error
  // naming it, not a SIGBUS (common/input.hpp).
  QAPLAN_ASSIGN_OR_RETURN(internal::Input in, internal::Input::open_file(corpus, "corpus"));
  QAPLAN_ASSIGN_OR_RETURN(Bm25Builder builder, Bm25Builder::create(opts.bm25, kTokenizerVersion));
  const std::string source = corpus.string();
  const unsigned threads = std::max(1u, opts.threads);
  const std::uint64_t total = in.size() > 0 ? static_cast<std::uint64_t>(in.size()) : 0;
  constexpr std::size_t kBatch = 8192;
  constexpr std::size_t kChunk = std::size_t{8} << 20;
  std::vector<Line> lines;
  std::vector<Parsed> parsed(kBatch);
  int line_no = 0;
  std::uint64_t done_bytes = 0;
  std::size_t next_progress = 65536;
  // Indexes whole lines of `content` (every line of it complete) in batches.
  auto index_lines = [&](std::string_view content) -> Status {
    while (!content.empty()) {
      lines.clear();
      while (!content.empty() && lines.size() < kBatch) {
        const std::size_t nl = content.find('\n');
        const std::string_view line = content.substr(0, nl);
        content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
        ++line_no;
        if (!internal::blank_line(line)) lines.push_back({line, line_no});
      }
      const std::size_t n = lines.size();
      if (threads == 1 || n < 256) {
        parse_range(tok, lines, 0, n, source, parsed);
      } else {
        // Contiguous slices; the results are folded in line order below, so the index does not
        // depend on the thread count.
        std::vector<std::thread> pool;
        const std::size_t per = (n + threads - 1) / threads;
        for (unsigned t = 1; t < threads && t * per < n; ++t)
          pool.emplace_back([&, t] {
            parse_range(tok, lines, t * per, std::min(n, (t + 1) * per), source, parsed);
          });
        parse_range(tok, lines, 0, std::min(n, per), source, parsed);
        for (auto& th : pool) th.join();
      }
      for (std::size_t i = 0; i < n; ++i) QAPLAN_TRY(add_parsed(parsed[i], lines[i], builder, source));
    }
    return {};
  };
  try {
    std::string buf;
    bool first = true;
    for (;;) {
      QAPLAN_ASSIGN_OR_RETURN(const std::size_t got, in.read_some(buf, kChunk));
      if (first && buf.size() >= 3) {
        if (buf.starts_with("\xEF\xBB\xBF")) buf.erase(0, 3);
        first = false;
      }
      // Up to the last newline; at the end of the file, everything.
      const std::size_t nl = buf.rfind('\n');
      const std::size_t usable = got == 0 ? buf.size() : nl == std::string::npos ? 0 : nl + 1;
      if (usable == 0 && got != 0 && buf.size() > internal::max_input_bytes())
        return make_file_error(ErrorCode::kInvalidInput, "a line longer than " +
                                   std::to_string(internal::max_input_bytes()) + " bytes",
                               source, line_no + 1);
      QAPLAN_TRY(index_lines(std::string_view(buf).substr(0, usable)));
      done_bytes += usable;
      buf.erase(0, usable);
      if (opts.progress && builder.size() >= next_progress) {
        opts.progress(builder.size(), done_bytes, std::max(total, done_bytes));
        next_progress = builder.size() + 65536;
      }
      if (got == 0) break;
    }
  } catch (const std::bad_alloc&) {
    return make_file_error(ErrorCode::kInternal, "out of memory indexing", source);
  }
  parsed = {};
  if (opts.progress) opts.progress(builder.size(), done_bytes, done_bytes);
  return builder.finish(threads);
}

Result<CollectionIndex> CollectionIndex::open(const fs::path& dir, bool load_vectors,
                                              bool verify_checksum, bool in_memory) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return make_file_error(ErrorCode::kIo, "not an index directory (run `qaplan index build`)",
                           dir.string());
  // The live generation (DIR/CURRENT), or DIR itself for an index written before generations.
  QAPLAN_ASSIGN_OR_RETURN(const fs::path gen, current_generation(dir));
  Bm25OpenOptions o;
  o.verify_checksum = verify_checksum;
  o.expected_tokenizer = std::string(kTokenizerVersion);
  o.in_memory = in_memory;
  const fs::path bm25_path = gen / kBm25IndexFile;
  QAPLAN_ASSIGN_OR_RETURN(Bm25Index bm25, Bm25Index::open(bm25_path, o));
  if (!bm25.has_doc_ids())
    return make_file_error(ErrorCode::kInvalidInput, "index has no document ids",
                           bm25_path.string());
  CollectionIndex c;
  const fs::path hnsw_path = gen / kHnswIndexFile;
  if (load_vectors && fs::exists(hnsw_path, ec)) {
    QAPLAN_ASSIGN_OR_RETURN(VectorIndex v, VectorIndex::open(hnsw_path, bm25.checksum()));
    if (v.size() != bm25.size())
      return make_file_error(ErrorCode::kInvalidInput,
                             "has " + std::to_string(v.size()) + " vectors for " +
                                 std::to_string(bm25.size()) + " documents",
                             hnsw_path.string());
    c.vectors_ = std::make_shared<const VectorIndex>(std::move(v));
  }
  c.bm25_ = std::move(bm25);
  c.generation_ = gen;
  return c;
}

Status save_collection_index(const fs::path& dir, const Bm25Index& bm25, const VectorIndex* vectors,
                             const std::vector<fs::path>& inputs, const std::string* doc_store) {
  if (vectors != nullptr && vectors->size() != bm25.size())
    return make_error(ErrorCode::kInvalidInput,
                      std::to_string(vectors->size()) + " vectors for " +
                          std::to_string(bm25.size()) + " documents",
                      "vectors");
  const auto img = bm25.image();
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back(std::string(kBm25IndexFile),
                     std::string(reinterpret_cast<const char*>(img.data()), img.size()));
  if (vectors != nullptr)
    files.emplace_back(std::string(kHnswIndexFile), vectors->serialize(bm25.checksum()));
  if (doc_store != nullptr) files.emplace_back("docs.jsonl", *doc_store);
  QAPLAN_TRY(publish_generation(dir, files, inputs));
  // Files of the layout before generations are never read again once CURRENT exists.
  for (std::string_view legacy : {kBm25IndexFile, kHnswIndexFile}) {
    const fs::path p = dir / legacy;
    bool input = false;
    for (const fs::path& in : inputs) {
      std::error_code e;
      input = input || fs::equivalent(p, in, e);
    }
    std::error_code ec;
    if (!input) fs::remove(p, ec);
  }
  return {};
}

}  // namespace qaplan
