# Warning and sanitizer helpers, applied per target (never through global CMAKE_CXX_FLAGS, so the
# frozen benchmark's floating point stays identical on any x86-64 machine).
function(qaplan_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion)
endfunction()

function(qaplan_sanitize target)
  if(QAPLAN_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
      -fno-sanitize-recover=all)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
  if(QAPLAN_FUZZ)  # clang: coverage for libFuzzer everywhere; tests/fuzz links the driver
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
      -fno-omit-frame-pointer -fno-sanitize-recover=all -g)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
  if(QAPLAN_TSAN)
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer -g)
    target_link_options(${target} PUBLIC -fsanitize=thread)
  endif()
endfunction()
