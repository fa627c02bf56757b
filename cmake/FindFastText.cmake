# FindFastText: Debian's libfasttext-dev ships a pkg-config file (fasttext.pc) but no CMake config.
# Defines FastText::FastText (imported) and FastText_FOUND. Used only by the model comparison
# harness (tools/bench/model_compare.cpp); the product does not depend on fastText.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_FASTTEXT QUIET fasttext)
endif()
find_path(FastText_INCLUDE_DIR fasttext/fasttext.h HINTS ${PC_FASTTEXT_INCLUDE_DIRS})
find_library(FastText_LIBRARY NAMES fasttext HINTS ${PC_FASTTEXT_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FastText REQUIRED_VARS FastText_LIBRARY FastText_INCLUDE_DIR)
if(FastText_FOUND AND NOT TARGET FastText::FastText)
  add_library(FastText::FastText UNKNOWN IMPORTED)
  set_target_properties(FastText::FastText PROPERTIES IMPORTED_LOCATION "${FastText_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FastText_INCLUDE_DIR}")
endif()
mark_as_advanced(FastText_INCLUDE_DIR FastText_LIBRARY)
