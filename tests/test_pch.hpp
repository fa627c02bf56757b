#pragma once
// The precompiled header of every test executable (tests/CMakeLists.txt): what nearly all of them
// parse — GoogleTest, nlohmann/json, the standard library and qaplan's public headers. Only
// headers that change rarely: an edit here rebuilds every test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "qaplan/qaplan.hpp"
