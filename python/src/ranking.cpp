// qaplan.tokenize, Bm25Index, VectorIndex, LocalTfidfEmbedder and rrf: thin wrappers over the
// ranking room. Searches release the GIL; NumPy float32 C-contiguous arrays are read in place.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common.hpp"
#include "saved_index.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/embedder.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "qaplan/ranking/vector_index.hpp"

namespace qaplan::py {
namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

const Tokenizer& tokenizer() {
  static const Tokenizer t = unwrap(Tokenizer::create());
  return t;
}

/// One search hit: the document's position in its collection (input order), its score, and its
/// id when the index has ids.
struct Hit {
  std::uint32_t doc = 0;
  double score = 0.0;
  std::optional<std::string> id;
};

struct FusedHitPy {
  std::uint32_t doc = 0;
  double score = 0.0;
  std::vector<std::optional<std::uint32_t>> ranks;
  std::vector<std::optional<double>> list_scores;
  std::optional<std::string> id;
};

using IdLookup = std::function<std::optional<std::string>(std::uint32_t)>;

std::vector<Hit> to_hits(const RankedList& list, const IdLookup& id_of) {
  std::vector<Hit> out;
  out.reserve(list.size());
  for (const ScoredDoc& d : list) out.push_back(Hit{d.doc, d.score, id_of ? id_of(d.doc) : std::nullopt});
  return out;
}

Bm25Options bm25_options(double k1, double b, const std::string& norms) {
  Bm25Options o;
  o.k1 = k1;
  o.b = b;
  // Constructor arguments, not a config file: a bad value is invalid input naming the argument.
  auto as_argument = [](Error e, const char* field) {
    if (e.code == ErrorCode::kInvalidConfig) e.code = ErrorCode::kInvalidInput;
    if (e.field.rfind("bm25.", 0) == 0) e.field.erase(0, 5);  // "bm25.k1" → the argument "k1"
    if (e.field.empty()) e.field = field;
    raise(std::move(e));
  };
  auto parsed = parse_bm25_norms(norms);
  if (!parsed.ok()) as_argument(std::move(parsed).error(), "norms");
  o.norms = *parsed;
  if (Status s = o.validate(); !s.ok()) as_argument(s.error(), "k1");
  return o;
}

// A query is a str (tokenized with the benchmark tokenizer) or a sequence of tokens (as is).
std::vector<std::string> query_tokens(py::handle q, const char* field) {
  if (PyUnicode_Check(q.ptr()) || PyBytes_Check(q.ptr())) {
    const std::string text = utf8(q, field);
    std::vector<std::string> out;
    Status s;
    {
      py::gil_scoped_release nogil;
      s = tokenizer().tokenize_into(text, out);
    }
    if (!s.ok()) {
      Error e = s.error();
      e.field = field;
      raise(e);
    }
    return out;
  }
  return utf8_list(q, field);
}

struct PyBm25 {
  Bm25Index index;
};

PyBm25 build_bm25(const std::vector<std::vector<std::string>>& docs,
                  const std::vector<std::string>& ids, const Bm25Options& opts,
                  std::string_view tokenizer_id) {
  if (!ids.empty() && ids.size() != docs.size())
    raise(make_error(ErrorCode::kInvalidInput,
                     "has " + std::to_string(ids.size()) + " ids for " + std::to_string(docs.size()) +
                         " documents",
                     "ids"));
  for (std::size_t i = 0; i < ids.size(); ++i)
    unwrap(check_document_id(ids[i], "ids[" + std::to_string(i) + "]"));
  Result<Bm25Index> r = make_error(ErrorCode::kInternal, "not built");
  {
    py::gil_scoped_release nogil;
    r = [&]() -> Result<Bm25Index> {
      QAPLAN_ASSIGN_OR_RETURN(Bm25Builder b, Bm25Builder::create(opts, tokenizer_id));
      for (std::size_t i = 0; i < docs.size(); ++i)
        QAPLAN_TRY(b.add(docs[i], ids.empty() ? std::string_view() : std::string_view(ids[i])));
      return b.finish();
    }();
  }
  return PyBm25{unwrap(std::move(r))};
}

IdLookup bm25_ids(const Bm25Index& ix) {
  if (!ix.has_doc_ids()) return {};
  return [&ix](std::uint32_t d) -> std::optional<std::string> { return std::string(ix.doc_id(d)); };
}

// Vectors -----------------------------------------------------------------------------------

struct PyVectorIndex {
  std::shared_ptr<const VectorIndex> index;
  std::vector<std::string> ids;
};

IdLookup vector_ids(const PyVectorIndex& v) {
  if (v.ids.empty()) return {};
  return [&v](std::uint32_t d) -> std::optional<std::string> {
    return d < v.ids.size() ? std::optional<std::string>(v.ids[d]) : std::nullopt;
  };
}

FloatArray as_floats(py::handle obj, const char* field) {
  FloatArray a = FloatArray::ensure(obj);
  if (!a) {
    PyErr_Clear();
    raise(make_error(ErrorCode::kInvalidInput, "must be an array of numbers", field));
  }
  return a;
}

std::vector<std::string> check_ids(py::handle ids, std::size_t n) {
  std::vector<std::string> out = utf8_list(ids, "ids");
  if (!out.empty() && out.size() != n)
    raise(make_error(ErrorCode::kInvalidInput,
                     "has " + std::to_string(out.size()) + " ids for " + std::to_string(n) + " rows", "ids"));
  // The same ids as a BM25 index takes: valid UTF-8 (a lone surrogate arrives as invalid
  // bytes), no control characters.
  for (std::size_t i = 0; i < out.size(); ++i)
    unwrap(check_document_id(out[i], "ids[" + std::to_string(i) + "]"));
  return out;
}

PyVectorIndex build_vectors(py::handle vectors, py::handle ids, const HnswOptions& opts) {
  FloatArray a = as_floats(vectors, "vectors");
  if (a.ndim() != 2)
    raise(make_error(ErrorCode::kInvalidInput,
                     "must be a 2-D array (rows × dimensions), got " + std::to_string(a.ndim()) + "-D",
                     "vectors"));
  const auto n = static_cast<std::size_t>(a.shape(0));
  const auto dims = static_cast<std::size_t>(a.shape(1));
  std::vector<std::string> id_list = check_ids(ids, n);
  const float* data = a.data();
  Result<VectorIndex> r = make_error(ErrorCode::kInternal, "not built");
  {
    py::gil_scoped_release nogil;
    // VectorIndex::create takes rows; the graph keeps its own normalised copy anyway.
    std::vector<std::vector<float>> rows(n);
    for (std::size_t i = 0; i < n; ++i) rows[i].assign(data + i * dims, data + (i + 1) * dims);
    r = VectorIndex::create(dims, rows, opts);
  }
  VectorIndex ix = unwrap(std::move(r));
  return PyVectorIndex{std::make_shared<const VectorIndex>(std::move(ix)), std::move(id_list)};
}

std::vector<Hit> vector_search(const PyVectorIndex& self, py::handle query, std::size_t k, bool exact) {
  FloatArray q = as_floats(query, "query");
  if (q.ndim() != 1)
    raise(make_error(ErrorCode::kInvalidInput, "must be a 1-D array", "query"));
  const std::span<const float> view(q.data(), static_cast<std::size_t>(q.shape(0)));
  Result<RankedList> r = make_error(ErrorCode::kInternal, "not run");
  {
    py::gil_scoped_release nogil;
    r = exact ? self.index->search_exact(view, k) : self.index->search(view, k);
  }
  return to_hits(unwrap(std::move(r)), vector_ids(self));
}

std::vector<std::vector<Hit>> vector_search_many(const PyVectorIndex& self, py::handle queries,
                                                 std::size_t k, bool exact) {
  FloatArray q = as_floats(queries, "queries");
  if (q.ndim() != 2)
    raise(make_error(ErrorCode::kInvalidInput, "must be a 2-D array (queries × dimensions)", "queries"));
  const auto n = static_cast<std::size_t>(q.shape(0));
  const auto dims = static_cast<std::size_t>(q.shape(1));
  std::vector<RankedList> lists(n);
  std::optional<Error> error;
  {
    py::gil_scoped_release nogil;
    for (std::size_t i = 0; i < n && !error; ++i) {
      const std::span<const float> view(q.data() + i * dims, dims);
      auto r = exact ? self.index->search_exact(view, k) : self.index->search(view, k);
      if (!r.ok()) {
        error = r.error();
        error->field = "queries[" + std::to_string(i) + "]";
      } else {
        lists[i] = std::move(*r);
      }
    }
  }
  if (error) raise(*error);
  std::vector<std::vector<Hit>> out;
  out.reserve(n);
  const IdLookup ids = vector_ids(self);
  for (const RankedList& l : lists) out.push_back(to_hits(l, ids));
  return out;
}

py::array_t<float> to_array(std::vector<float> v) {
  auto* heap = new std::vector<float>(std::move(v));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<float>*>(p); });
  return py::array_t<float>({static_cast<py::ssize_t>(heap->size())}, {sizeof(float)}, heap->data(), owner);
}

// RRF ----------------------------------------------------------------------------------------

// One input list item: a Hit, a (doc, score) pair or a bare doc index.
ScoredDoc scored_doc(py::handle item, std::size_t list, std::size_t pos,
                     std::unordered_map<std::uint32_t, std::string>& ids) {
  const std::string field = "lists[" + std::to_string(list) + "][" + std::to_string(pos) + "]";
  auto bad = [&]() {
    raise(make_error(ErrorCode::kInvalidInput,
                     "must be a qaplan.Hit, a (doc, score) pair or a doc index", field));
  };
  auto as_doc = [&](py::handle h) -> std::uint32_t {
    if (!PyLong_Check(h.ptr())) bad();
    const long long v = PyLong_AsLongLong(h.ptr());
    if (PyErr_Occurred() || v < 0 || v > 0xFFFFFFFFLL) {
      PyErr_Clear();
      raise(make_error(ErrorCode::kInvalidInput, "doc index out of range", field));
    }
    return static_cast<std::uint32_t>(v);
  };
  if (py::isinstance<Hit>(item)) {
    const Hit& h = item.cast<const Hit&>();
    if (h.id) ids.emplace(h.doc, *h.id);
    return ScoredDoc{h.doc, h.score};
  }
  if (PyLong_Check(item.ptr())) return ScoredDoc{as_doc(item), 0.0};
  if (py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(item);
    if (s.size() != 2) bad();
    const std::uint32_t doc = as_doc(s[0]);
    PyObject* f = PyNumber_Float(py::object(s[1]).ptr());
    if (f == nullptr) {
      PyErr_Clear();
      bad();
    }
    const double score = PyFloat_AsDouble(f);
    Py_DECREF(f);
    return ScoredDoc{doc, score};
  }
  bad();
  return {};
}

std::vector<FusedHitPy> rrf(py::handle lists, double k, py::handle weights) {
  if (PyUnicode_Check(lists.ptr()) || !PySequence_Check(lists.ptr()))
    raise(make_error(ErrorCode::kInvalidInput, "must be a sequence of ranked lists", "lists"));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(lists);
  std::vector<RankedList> in(seq.size());
  std::unordered_map<std::uint32_t, std::string> ids;
  for (std::size_t i = 0; i < seq.size(); ++i) {
    py::object l = seq[i];
    if (PyUnicode_Check(l.ptr()) || !PySequence_Check(l.ptr()))
      raise(make_error(ErrorCode::kInvalidInput, "must be a sequence of hits", "lists[" + std::to_string(i) + "]"));
    py::sequence ls = py::reinterpret_borrow<py::sequence>(l);
    in[i].reserve(ls.size());
    for (std::size_t j = 0; j < ls.size(); ++j) in[i].push_back(scored_doc(ls[j], i, j, ids));
  }
  RrfOptions opts;
  opts.k = k;
  if (!weights.is_none()) opts.weights = weights.cast<std::vector<double>>();
  Result<std::vector<FusedHit>> r = make_error(ErrorCode::kInternal, "not run");
  {
    py::gil_scoped_release nogil;
    r = fuse_rrf(in, opts);
  }
  std::vector<FusedHit> fused = unwrap(std::move(r));
  std::vector<FusedHitPy> out;
  out.reserve(fused.size());
  for (FusedHit& h : fused) {
    FusedHitPy p{h.doc, h.score, std::move(h.ranks), std::move(h.list_scores), std::nullopt};
    if (auto it = ids.find(h.doc); it != ids.end()) p.id = it->second;
    out.push_back(std::move(p));
  }
  return out;
}

std::string hit_repr(const Hit& h) {
  std::string s = "Hit(doc=" + std::to_string(h.doc) +
                  ", score=" + py::repr(py::float_(h.score)).cast<std::string>();
  if (h.id) s += ", id=" + py::repr(py::str(*h.id)).cast<std::string>();
  return s + ")";
}

}  // namespace

namespace {

void register_saved_index(py::module_& m) {
  py::class_<PySavedIndex>(m, "SavedIndex",
                           "An index directory from `qaplan index build`, opened once (BM25, its "
                           "vectors when it has them, and the document store) for Planner.ask. "
                           "Immutable and thread-safe.")
      .def(
          py::init([](py::handle path, const std::string& load) {
            if (load != "mmap" && load != "memory")
              raise(make_error(ErrorCode::kInvalidInput, "must be \"mmap\" or \"memory\"", "load"));
            const std::string dir = fspath(path, "path");
            // CURRENT is read once: the store comes from the index's own generation.
            CollectionIndex index =
                unwrap(CollectionIndex::open(dir, true, true, load == "memory"));
            DocStore store = unwrap(DocStore::open(index));
            return PySavedIndex{std::move(index), std::move(store), dir};
          }),
          py::arg("path"), py::kw_only(), py::arg("load") = "mmap",
          "Raises IoError naming the file (no index, or one built with --no-store). "
          "load=\"mmap\" maps bm25.qidx (pages shared through the page cache); load=\"memory\" "
          "reads it into the process, immune to any change on disk.")
      .def(
          "unchanged", [](const PySavedIndex& s) { unwrap(s.index.unchanged()); },
          "Raises qaplan.IoError when the mapped bm25.qidx was written over or truncated in "
          "place since it was opened (call before a batch of questions); never for "
          "load=\"memory\". A change between two calls can still be read.")
      .def("__len__", [](const PySavedIndex& s) { return s.index.size(); })
      .def_readonly("path", &PySavedIndex::path);
}

void register_tokens_and_hits(py::module_& m) {
  m.attr("TOKENIZER_VERSION") = std::string(kTokenizerVersion);
  m.def("tokenize", [](py::handle text) {
    const std::string s = utf8(text, "text");
    std::vector<std::string> out;
    Status st;
    {
      py::gil_scoped_release nogil;
      st = tokenizer().tokenize_into(s, out);
    }
    if (!st.ok()) {
      Error e = st.error();
      if (e.field.empty()) e.field = "text";
      raise(e);
    }
    return out;
  }, py::arg("text"),
        "Tokens of `text` by the benchmark tokenizer nfkc-cjk-bigrams-ascii-1 (what Bm25Index "
        "indexes). Raises InvalidInput for text that is not valid UTF-8.");

  py::class_<Hit>(m, "Hit", "One search hit: doc (position in the collection), score, id.")
      .def(py::init([](std::uint32_t doc, double score, std::optional<std::string> id) {
             return Hit{doc, score, std::move(id)};
           }),
           py::arg("doc"), py::arg("score"), py::arg("id") = py::none())
      .def_readonly("doc", &Hit::doc)
      .def_readonly("score", &Hit::score)
      .def_readonly("id", &Hit::id)
      .def("__eq__", [](const Hit& a, const Hit& b) { return a.doc == b.doc && a.score == b.score && a.id == b.id; })
      .def("__hash__", [](const Hit& h) { return py::hash(py::make_tuple(h.doc, h.score, h.id)); })
      .def("__iter__", [](const Hit& h) { return py::iter(py::make_tuple(h.doc, h.score)); },
           "doc, score = hit")
      .def("__repr__", &hit_repr);

  py::class_<FusedHitPy>(m, "FusedHit",
                         "One fused document: RRF score plus each input list's rank and score.")
      .def_readonly("doc", &FusedHitPy::doc)
      .def_readonly("score", &FusedHitPy::score)
      .def_readonly("ranks", &FusedHitPy::ranks, "1-based rank per input list, None when absent")
      .def_readonly("list_scores", &FusedHitPy::list_scores, "each list's own score, or None")
      .def_readonly("id", &FusedHitPy::id)
      .def("__repr__", [](const FusedHitPy& h) {
        return "FusedHit(doc=" + std::to_string(h.doc) +
               ", score=" + py::repr(py::float_(h.score)).cast<std::string>() +
               (h.id ? ", id=" + py::repr(py::str(*h.id)).cast<std::string>() : std::string()) + ")";
      });

  m.def("rrf", &rrf, py::arg("lists"), py::kw_only(), py::arg("k") = 60.0,
        py::arg("weights") = py::none(),
        "Reciprocal Rank Fusion: score(d) = Σ w_i / (k + rank_i(d)). Each list is best first and "
        "holds qaplan.Hit objects, (doc, score) pairs or doc indexes. Nothing is truncated; ties "
        "by lower doc.");
}

// Construction and loading.
void add_bm25_constructors(py::class_<PyBm25>& cls) {
  cls
      .def(py::init([](py::handle texts, py::handle ids, double k1, double b, const std::string& norms) {
             const Bm25Options opts = bm25_options(k1, b, norms);
             std::vector<std::string> t = utf8_list(texts, "texts");
             std::vector<std::string> id_list = utf8_list(ids, "ids");
             std::vector<std::vector<std::string>> docs(t.size());
             std::optional<Error> error;
             {
               py::gil_scoped_release nogil;
               for (std::size_t i = 0; i < t.size() && !error; ++i)
                 if (Status s = tokenizer().tokenize_into(t[i], docs[i]); !s.ok()) {
                   error = s.error();
                   error->field = "texts[" + std::to_string(i) + "]";
                 }
             }
             if (error) raise(*error);
             return build_bm25(docs, id_list, opts, kTokenizerVersion);
           }),
           py::arg("texts"), py::arg("ids") = py::none(), py::kw_only(), py::arg("k1") = 1.2,
           py::arg("b") = 0.75, py::arg("norms") = "exact",
           "Tokenizes `texts` with qaplan.tokenize and indexes text i as document i (the "
           "tie-breaker). `ids` (optional, one per text) are returned in hits.")
      .def_static("from_tokens", [](py::handle docs, py::handle ids, double k1, double b,
                                    const std::string& norms) {
             const Bm25Options opts = bm25_options(k1, b, norms);
             if (PyUnicode_Check(docs.ptr()) || !PySequence_Check(docs.ptr()))
               raise(make_error(ErrorCode::kInvalidInput, "must be a sequence of token lists", "docs"));
             py::sequence seq = py::reinterpret_borrow<py::sequence>(docs);
             std::vector<std::vector<std::string>> d;
             d.reserve(seq.size());
             for (std::size_t i = 0; i < seq.size(); ++i) {
               const std::string f = "docs[" + std::to_string(i) + "]";
               d.push_back(utf8_list(seq[i], f.c_str()));
             }
             return build_bm25(d, utf8_list(ids, "ids"), opts, "");
           },
           py::arg("docs"), py::arg("ids") = py::none(), py::kw_only(), py::arg("k1") = 1.2,
           py::arg("b") = 0.75, py::arg("norms") = "exact",
           "Indexes pre-tokenized documents as they are.")
      .def_static("load", [](py::handle path, bool verify_checksum, std::string expected_tokenizer,
                             const std::string& load) {
             if (load != "mmap" && load != "memory")
               raise(make_error(ErrorCode::kInvalidInput, "must be \"mmap\" or \"memory\"", "load"));
             Bm25OpenOptions o;
             o.verify_checksum = verify_checksum;
             o.expected_tokenizer = std::move(expected_tokenizer);
             o.in_memory = load == "memory";
             const std::string p = fspath(path, "path");
             Result<Bm25Index> r = make_error(ErrorCode::kInternal, "not opened");
             {
               py::gil_scoped_release nogil;
               r = Bm25Index::open(p, o);
             }
             return PyBm25{unwrap(std::move(r))};
           },
           py::arg("path"), py::kw_only(), py::arg("verify_checksum") = true,
           py::arg("expected_tokenizer") = "", py::arg("load") = "mmap",
           "Maps a file written by save() or `qaplan index build` (DIR/gen-N/bm25.qidx) read-only; "
           "load=\"memory\" reads it into memory instead (immune to changes on disk).");
}

// Searching and reading it.
void add_bm25_queries(py::class_<PyBm25>& cls) {
  cls
      .def("unchanged", [](const PyBm25& self) { unwrap(self.index.unchanged()); },
           "Raises qaplan.IoError when the mapped file was written over or truncated in place "
           "since it was opened (call before a batch of searches); never for load=\"memory\".")
      .def("save", [](const PyBm25& self, py::handle path) {
             const std::string p = fspath(path, "path");
             Status s;
             {
               py::gil_scoped_release nogil;
               s = self.index.save(p);
             }
             unwrap(s);
           },
           py::arg("path"), "Writes the index image atomically; load() maps it back.")
      .def("search", [](const PyBm25& self, py::handle query, std::size_t k) {
             const std::vector<std::string> tokens = query_tokens(query, "query");
             RankedList r;
             {
               py::gil_scoped_release nogil;
               r = self.index.search(tokens, k);
             }
             return to_hits(r, bm25_ids(self.index));
           },
           py::arg("query"), py::arg("k") = 10,
           "Top-k hits (score > 0 only; k = 0: every match), score descending, ties by lower "
           "doc. A str query is tokenized with qaplan.tokenize; a list of str is used as tokens.")
      .def("search_many", [](const PyBm25& self, py::handle queries, std::size_t k) {
             if (PyUnicode_Check(queries.ptr()) || !PySequence_Check(queries.ptr()))
               raise(make_error(ErrorCode::kInvalidInput, "must be a sequence of queries", "queries"));
             py::sequence seq = py::reinterpret_borrow<py::sequence>(queries);
             std::vector<std::vector<std::string>> qs;
             qs.reserve(seq.size());
             for (std::size_t i = 0; i < seq.size(); ++i) {
               const std::string f = "queries[" + std::to_string(i) + "]";
               qs.push_back(query_tokens(seq[i], f.c_str()));
             }
             std::vector<RankedList> lists(qs.size());
             {
               py::gil_scoped_release nogil;
               for (std::size_t i = 0; i < qs.size(); ++i) lists[i] = self.index.search(qs[i], k);
             }
             std::vector<std::vector<Hit>> out;
             out.reserve(lists.size());
             const IdLookup ids = bm25_ids(self.index);
             for (const RankedList& l : lists) out.push_back(to_hits(l, ids));
             return out;
           },
           py::arg("queries"), py::arg("k") = 10, "search() for many queries, one GIL release.")
      .def("__len__", [](const PyBm25& s) { return s.index.size(); })
      .def_property_readonly("avgdl", [](const PyBm25& s) { return s.index.avgdl(); })
      .def_property_readonly("num_terms", [](const PyBm25& s) { return s.index.num_terms(); })
      .def("doc_freq", [](const PyBm25& s, const std::string& term) { return s.index.doc_freq(term); },
           py::arg("term"))
      .def("doc_id", [](const PyBm25& s, std::size_t doc) -> std::optional<std::string> {
             if (!s.index.has_doc_ids() || doc >= s.index.size()) return std::nullopt;
             return std::string(s.index.doc_id(doc));
           }, py::arg("doc"))
      .def_property_readonly("k1", [](const PyBm25& s) { return s.index.options().k1; })
      .def_property_readonly("b", [](const PyBm25& s) { return s.index.options().b; })
      .def_property_readonly("norms", [](const PyBm25& s) { return std::string(to_string(s.index.options().norms)); })
      .def_property_readonly("tokenizer", [](const PyBm25& s) { return std::string(s.index.tokenizer()); })
      .def_property_readonly("checksum", [](const PyBm25& s) { return s.index.checksum(); })
      .def("__repr__", [](const PyBm25& s) {
        return "Bm25Index(docs=" + std::to_string(s.index.size()) + ", terms=" +
               std::to_string(s.index.num_terms()) + ", norms='" +
               std::string(to_string(s.index.options().norms)) + "')";
      });
}

void register_bm25(py::module_& m) {
  py::class_<PyBm25> cls(m, "Bm25Index",
                         "Lucene-style BM25 over a collection. Immutable; search() releases the "
                         "GIL and may run in many threads at once.");
  add_bm25_constructors(cls);
  add_bm25_queries(cls);
}

void register_vector_index(py::module_& m) {
  py::class_<PyVectorIndex>(m, "VectorIndex",
                            "Cosine search through an HNSW graph (hnswlib; fixed seed, "
                            "deterministic). Immutable; searches release the GIL.")
      .def(py::init([](py::handle vectors, py::handle ids, std::size_t m_, std::size_t efc,
                       std::size_t efs, std::uint64_t seed) {
             HnswOptions o;
             o.m = m_;
             o.ef_construction = efc;
             o.ef_search = efs;
             o.seed = seed;
             return build_vectors(vectors, ids, o);
           }),
           py::arg("vectors"), py::arg("ids") = py::none(), py::kw_only(), py::arg("m") = 16,
           py::arg("ef_construction") = 200, py::arg("ef_search") = 64, py::arg("seed") = 100,
           "Indexes row i of `vectors` (n × d, float32; other dtypes are converted) as document "
           "i. Rows are L2-normalised; an all-zero or non-finite row raises InvalidInput.")
      .def("search", [](const PyVectorIndex& s, py::handle q, std::size_t k) { return vector_search(s, q, k, false); },
           py::arg("query"), py::arg("k") = 10,
           "Approximate top-k by cosine (k = 0: every row). A float32 C-contiguous query is read "
           "in place, without a copy.")
      .def("search_exact", [](const PyVectorIndex& s, py::handle q, std::size_t k) { return vector_search(s, q, k, true); },
           py::arg("query"), py::arg("k") = 10, "Brute-force top-k: the reference for recall.")
      .def("search_many", [](const PyVectorIndex& s, py::handle q, std::size_t k, bool exact) {
             return vector_search_many(s, q, k, exact);
           },
           py::arg("queries"), py::arg("k") = 10, py::kw_only(), py::arg("exact") = false,
           "search() for each row of a 2-D array, one GIL release.")
      .def("save", [](const PyVectorIndex& s, py::handle path) {
             const std::string p = fspath(path, "path");
             Status st;
             {
               py::gil_scoped_release nogil;
               st = s.index->save(p);
             }
             unwrap(st);
           },
           py::arg("path"), "Writes the graph and vectors atomically (ids are not stored).")
      .def_static("load", [](py::handle path, py::handle ids) {
             const std::string p = fspath(path, "path");
             Result<VectorIndex> r = make_error(ErrorCode::kInternal, "not opened");
             {
               py::gil_scoped_release nogil;
               r = VectorIndex::open(p);
             }
             VectorIndex ix = unwrap(std::move(r));
             std::vector<std::string> id_list = check_ids(ids, ix.size());
             return PyVectorIndex{std::make_shared<const VectorIndex>(std::move(ix)), std::move(id_list)};
           },
           py::arg("path"), py::arg("ids") = py::none(), "Restores an index written by save().")
      .def("__len__", [](const PyVectorIndex& s) { return s.index->size(); })
      .def_property_readonly("dimensions", [](const PyVectorIndex& s) { return s.index->dimensions(); })
      .def_property_readonly("ef_search", [](const PyVectorIndex& s) { return s.index->options().ef_search; })
      .def("__repr__", [](const PyVectorIndex& s) {
        return "VectorIndex(rows=" + std::to_string(s.index->size()) +
               ", dimensions=" + std::to_string(s.index->dimensions()) + ")";
      });
}

void register_embedder(py::module_& m) {
  py::class_<LocalTfidfEmbedder>(m, "LocalTfidfEmbedder",
                                 "The built-in `local-tfidf` vector space (TF-IDF over the "
                                 "benchmark tokens): an offline stand-in for an embedding model, "
                                 "the one `qaplan search --mode vector|hybrid` uses.")
      .def_static("fit", [](py::handle texts) {
             std::vector<std::string> t = utf8_list(texts, "texts");
             Result<LocalTfidfEmbedder> r = make_error(ErrorCode::kInternal, "not fitted");
             {
               py::gil_scoped_release nogil;
               r = LocalTfidfEmbedder::fit(t);
             }
             return unwrap(std::move(r));
           }, py::arg("texts"))
      .def("embed", [](const LocalTfidfEmbedder& e, py::handle text) {
             const std::string s = utf8(text, "text");
             Result<std::vector<float>> r = make_error(ErrorCode::kInternal, "not run");
             {
               py::gil_scoped_release nogil;
               r = e.embed(s);
             }
             return to_array(unwrap(std::move(r)));
           }, py::arg("text"),
           "The float32 vector of `text`; InvalidInput when it has no token of the vocabulary.")
      .def_property_readonly("dimensions", &LocalTfidfEmbedder::dimensions)
      .def_property_readonly("model", [](const LocalTfidfEmbedder& e) { return std::string(e.model()); })
      .def_property_readonly("vocabulary", &LocalTfidfEmbedder::vocabulary);
}

}  // namespace

void register_ranking(py::module_& m) {
  register_saved_index(m);
  register_tokens_and_hits(m);
  register_bm25(m);
  register_vector_index(m);
  register_embedder(m);
}

}  // namespace qaplan::py
