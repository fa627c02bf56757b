# FindLIBLINEAR: Debian's liblinear-dev ships neither a CMake config nor a pkg-config file.
# Defines LIBLINEAR::LIBLINEAR (imported), LIBLINEAR_FOUND and LIBLINEAR_VERSION (from
# LIBLINEAR_VERSION in linear.h, e.g. 230 → "2.30").
find_path(LIBLINEAR_INCLUDE_DIR linear.h PATH_SUFFIXES liblinear)
find_library(LIBLINEAR_LIBRARY NAMES linear)
if(LIBLINEAR_INCLUDE_DIR AND EXISTS "${LIBLINEAR_INCLUDE_DIR}/linear.h")
  file(STRINGS "${LIBLINEAR_INCLUDE_DIR}/linear.h" _liblinear_version_line
    REGEX "^#define[ \t]+LIBLINEAR_VERSION[ \t]+[0-9]+")
  if(_liblinear_version_line MATCHES "LIBLINEAR_VERSION[ \t]+([0-9]+)")
    math(EXPR _liblinear_major "${CMAKE_MATCH_1} / 100")
    math(EXPR _liblinear_minor "${CMAKE_MATCH_1} % 100")
    set(LIBLINEAR_VERSION "${_liblinear_major}.${_liblinear_minor}")
  endif()
  unset(_liblinear_version_line)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LIBLINEAR REQUIRED_VARS LIBLINEAR_LIBRARY LIBLINEAR_INCLUDE_DIR
  VERSION_VAR LIBLINEAR_VERSION)
if(LIBLINEAR_FOUND AND NOT TARGET LIBLINEAR::LIBLINEAR)
  add_library(LIBLINEAR::LIBLINEAR UNKNOWN IMPORTED)
  set_target_properties(LIBLINEAR::LIBLINEAR PROPERTIES IMPORTED_LOCATION "${LIBLINEAR_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBLINEAR_INCLUDE_DIR}")
endif()
mark_as_advanced(LIBLINEAR_INCLUDE_DIR LIBLINEAR_LIBRARY)
