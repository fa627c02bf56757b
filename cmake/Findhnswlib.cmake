# Findhnswlib: Debian's libhnswlib-dev is header-only and ships no CMake config.
# Defines hnswlib_FOUND, hnswlib_INCLUDE_DIR and the INTERFACE target hnswlib::hnswlib.
# Note: hnswlib 0.6.2's headers define non-inline functions, so include them from one .cpp only.
find_path(hnswlib_INCLUDE_DIR NAMES hnswlib/hnswlib.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(hnswlib REQUIRED_VARS hnswlib_INCLUDE_DIR)
if(hnswlib_FOUND AND NOT TARGET hnswlib::hnswlib)
  add_library(hnswlib::hnswlib INTERFACE IMPORTED)
  set_target_properties(hnswlib::hnswlib PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${hnswlib_INCLUDE_DIR}")
endif()
mark_as_advanced(hnswlib_INCLUDE_DIR)
