// Where the rules file is found: the library's one lookup order (qaplan/config_location.hpp), so
// Planner.from_default() reads the file `qaplan plan` without --config reads, and says why.
#include <optional>
#include <string>

#include "common.hpp"
#include "qaplan/config_location.hpp"

namespace qaplan::py {

void register_config_lookup(py::module_& m) {
  m.def("_locate_config", [](std::optional<std::string> package_datadir) {
        const ConfigLocation at = unwrap(locate_config_from(
            {}, package_datadir ? package_datadir->c_str() : nullptr));
        return py::make_tuple(at.path.string(), at.describe());
      },
      py::arg("package_datadir") = py::none(),
      "(path, how) of the rules file used when none is named: $QAPLAN_CONFIG, the qaplan "
      "checkout holding the working directory, the user config dir, the build tree's source, "
      "then the installed or packaged default (package_datadir). Raises IoError naming where it "
      "looked.");
}

}  // namespace qaplan::py
