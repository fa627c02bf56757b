include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
install(TARGETS qaplan qaplan_common qaplan_planning qaplan_ranking qaplan_retrieval qaplan_eval
  qaplan_training
  qaplan_engines EXPORT qaplanTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/qaplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/qaplan/export.hpp ${PROJECT_BINARY_DIR}/include/qaplan/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/qaplan)
install(FILES config/rules.toml DESTINATION ${CMAKE_INSTALL_DATADIR}/qaplan)
install(DIRECTORY config/glossary config/models config/domain DESTINATION ${CMAKE_INSTALL_DATADIR}/qaplan)
install(EXPORT qaplanTargets NAMESPACE qaplan:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/qaplan)
configure_package_config_file(cmake/qaplanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/qaplanConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/qaplan)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/qaplanConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/qaplanConfig.cmake ${PROJECT_BINARY_DIR}/qaplanConfigVersion.cmake
  cmake/FindOpenCC.cmake cmake/FindNettle.cmake cmake/FindLIBLINEAR.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/qaplan)
# The frozen benchmark data travels with the CLI: `qaplan bench` finds it in share/qaplan.
install(DIRECTORY eval_sets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/qaplan/eval_sets)
