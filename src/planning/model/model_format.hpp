#pragma once
// The router model file (`.qpm`), format version 1: writer here, reader in router_model.cpp, so
// the layout is known in one place. All integers and floats little-endian.
//
//   offset  size        field
//   0       8           magic "QPRouter"
//   8       4  u32      format version (1)
//   12      4  u32      meta_len
//   16      meta_len    metadata, UTF-8 JSON object (keys sorted):
//                         name, feature_spec, hash_bits, heads [{name, labels[]}], training {…}
//           0–3         zero padding to a multiple of 4
//   A       4  u32      hash_bits (must equal the metadata's)
//           4  u32      head count (5: act, intent, category, source, dependent, in that order)
//           per head:   u32 label count L (2 ≤ L ≤ kMaxLabels, equal to the metadata's labels),
//                       f32 weight scale (> 0, finite), f32 bias[L] (finite)
//           4  u32      row count R
//           4  u32      row width W (= sum of the label counts)
//           4R u32      feature ids, strictly increasing, each < 2^hash_bits
//           R·W i8      weights, row-major; row r holds every head's label weights for feature
//                       id r, heads in order (weight = int8 × the head's scale)
//           0–3         zero padding to a multiple of 4
//           32          SHA-256 of every byte before it (catches corruption that keeps the size)
//
// A feature id absent from the table has weight 0 for every label. Rows whose weights all
// quantize to 0 are not stored.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "planning/model/router_model.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

inline constexpr char kRouterMagic[8] = {'Q', 'P', 'R', 'o', 'u', 't', 'e', 'r'};
inline constexpr std::uint32_t kRouterFormatVersion = 1;
inline constexpr std::array<const char*, kHeads> kHeadNames = {"act", "intent", "category",
                                                               "source", "dependent"};

/// One head of a model being written: labels in score order, a bias per label.
struct RouterHeadData {
  std::vector<std::string> labels;
  std::vector<float> bias;
};

/// A trained model in floating point, before quantization.
struct RouterModelData {
  std::string name;                          ///< e.g. "router-v1"
  unsigned hash_bits = 20;                   ///< feature id bits (features.hpp)
  std::array<RouterHeadData, kHeads> heads;  ///< in Head order
  std::vector<std::uint32_t> feature_ids;    ///< strictly increasing
  std::vector<float> weights;                ///< feature_ids.size() × row width, row-major
  std::string training_json = "{}";          ///< a JSON object: how the model was trained
};

/// Quantizes every head's weights to int8 with a per-head scale (max |w| / 127) and writes the
/// file bytes. Deterministic: the same data gives the same bytes. Errors (kInvalidInput): shapes
/// that do not add up, label counts out of range, unsorted ids, non-finite numbers, a training
/// block that is not a JSON object.
QAPLAN_API Result<std::string> serialize_router_model(const RouterModelData& data);

}  // namespace qaplan::internal
