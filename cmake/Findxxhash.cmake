# Findxxhash: Debian's libxxhash-dev ships xxhash.h and no CMake config. qaplan uses it header-only
# (each .cpp defines XXH_INLINE_ALL before the include), so consumers never link it. Defines xxhash_FOUND, xxhash_INCLUDE_DIR and the
# INTERFACE target xxhash::xxhash.
find_path(xxhash_INCLUDE_DIR NAMES xxhash.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(xxhash REQUIRED_VARS xxhash_INCLUDE_DIR)
if(xxhash_FOUND AND NOT TARGET xxhash::xxhash)
  add_library(xxhash::xxhash INTERFACE IMPORTED)
  set_target_properties(xxhash::xxhash PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${xxhash_INCLUDE_DIR}")
endif()
mark_as_advanced(xxhash_INCLUDE_DIR)
