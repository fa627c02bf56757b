// Anchor of qaplan_test_pch (tests/CMakeLists.txt): the target that compiles tests/test_pch.hpp
// once for every test executable to reuse.
