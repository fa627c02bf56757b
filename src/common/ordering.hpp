#pragma once
// The one ranking order of the library (docs/guide.md, ranking): score descending, ties by lower
// document index — a document's position in its collection, as Lucene breaks ties.
namespace qaplan::internal {

/// True when `a` ranks before `b`. Works for any hit type with `score` and `doc` members.
template <class Hit>
constexpr bool ranks_before(const Hit& a, const Hit& b) noexcept {
  return a.score > b.score || (a.score == b.score && a.doc < b.doc);
}

}  // namespace qaplan::internal
