# FindNettle: Debian's nettle-dev ships a pkg-config file but no CMake config.
# Defines Nettle::Nettle (imported) and Nettle_FOUND. qaplan uses its SHA-256 only.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_NETTLE QUIET nettle)
endif()
find_path(Nettle_INCLUDE_DIR nettle/sha2.h HINTS ${PC_NETTLE_INCLUDE_DIRS})
find_library(Nettle_LIBRARY NAMES nettle HINTS ${PC_NETTLE_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Nettle REQUIRED_VARS Nettle_LIBRARY Nettle_INCLUDE_DIR
  VERSION_VAR PC_NETTLE_VERSION)
if(Nettle_FOUND AND NOT TARGET Nettle::Nettle)
  add_library(Nettle::Nettle UNKNOWN IMPORTED)
  set_target_properties(Nettle::Nettle PROPERTIES IMPORTED_LOCATION "${Nettle_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Nettle_INCLUDE_DIR}")
endif()
mark_as_advanced(Nettle_INCLUDE_DIR Nettle_LIBRARY)
