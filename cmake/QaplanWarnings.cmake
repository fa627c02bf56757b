# Warning and sanitizer helpers, applied per target (never through global CMAKE_CXX_FLAGS, so the
# frozen benchmark's floating point stays identical on any x86-64 machine).
function(qaplan_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion)
  # In a unity batch g++ sees every .cpp but the first as an included header, and warns when a
  # class there holds a type from the (batch-wide) anonymous namespace; each .cpp is still
  # included exactly once, so nothing is shared across translation units.
  if(QAPLAN_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# qaplan_sanitize(target [COVERAGE]): QAPLAN_SANITIZE = ASan + UBSan; QAPLAN_FUZZ (clang) also
# instruments COVERAGE targets (the library rooms) for libFuzzer, so one build serves the unit tests
# under ASan and the fuzz targets (scripts/test.sh); a binary without libFuzzer's driver still links,
# the ASan runtime supplies the coverage callbacks.
function(qaplan_sanitize target)
  cmake_parse_arguments(S "COVERAGE" "" "" ${ARGN})
  if(QAPLAN_SANITIZE OR QAPLAN_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
      -fno-sanitize-recover=all)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
  if(QAPLAN_FUZZ AND S_COVERAGE)
    # The compiler does not list the ignore list as a dependency: its hash goes on the command line
    # so that editing it recompiles the rooms (and reconfigures).
    set(ignore ${PROJECT_SOURCE_DIR}/cmake/fuzz_coverage_ignore.txt)
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ignore})
    file(SHA256 ${ignore} ignore_hash)
    string(SUBSTRING "${ignore_hash}" 0 12 ignore_hash)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link
      -fsanitize-coverage-ignorelist=${ignore})
    target_compile_definitions(${target} PRIVATE QAPLAN_COVERAGE_IGNORE_LIST=0x${ignore_hash})
  endif()
  if(QAPLAN_TSAN)
    # -g1: line tables are all a report needs, at a fraction of full debug info's compile time
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer -g1)
    target_link_options(${target} PUBLIC -fsanitize=thread)
  endif()
endfunction()
