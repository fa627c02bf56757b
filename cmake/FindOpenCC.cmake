# FindOpenCC: Debian's libopencc-dev ships a pkg-config file but no CMake config.
# Defines OpenCC::OpenCC (imported) and OpenCC_FOUND.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_OPENCC QUIET opencc)
endif()
find_path(OpenCC_INCLUDE_DIR opencc.h HINTS ${PC_OPENCC_INCLUDE_DIRS} PATH_SUFFIXES opencc)
find_library(OpenCC_LIBRARY NAMES opencc HINTS ${PC_OPENCC_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OpenCC REQUIRED_VARS OpenCC_LIBRARY OpenCC_INCLUDE_DIR
  VERSION_VAR PC_OPENCC_VERSION)
if(OpenCC_FOUND AND NOT TARGET OpenCC::OpenCC)
  add_library(OpenCC::OpenCC UNKNOWN IMPORTED)
  set_target_properties(OpenCC::OpenCC PROPERTIES IMPORTED_LOCATION "${OpenCC_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${OpenCC_INCLUDE_DIR}")
endif()
mark_as_advanced(OpenCC_INCLUDE_DIR OpenCC_LIBRARY)
