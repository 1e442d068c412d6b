# Install layout and the Debian package.
#
#   cmake --install BUILD --prefix /usr   binary in bin/ (with kubectl-trainctl and
#                                          kubectl_complete-trainctl beside it: the kubectl
#                                          plugin and its completion, docs/kubectl-plugin.md),
#                                          trainctl(1) in share/man/man1, and the bash, zsh
#                                          and fish completions where those shells look for
#                                          vendor completions
#   cd BUILD && cpack -G DEB               trainctl_VERSION_ARCH.deb
#
# The package holds the "trainctl" component only: kubesim, the API simulator for demos and
# tests, is installed by a plain `cmake --install` but is not shipped in the package.
# Runtime dependencies are computed by dpkg-shlibdeps (package dpkg-dev) from the binary.
#
# The man page and completion scripts are committed files generated from the command tree
# (tests fail when they are stale); `cmake --build BUILD --target update-generated` rewrites
# them, with docs/commands/*.md.
include(GNUInstallDirs)

# `make install` and cpack install what was built instead of building every target first
# (the tests and benchmarks are not part of any install); build `trainctl` before.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS trainctl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT trainctl)
# kubectl runs a plugin found on PATH as kubectl-NAME, and asks kubectl_complete-NAME for its
# completions (k8s.io/kubectl pkg/cmd/plugin): both are trainctl, which reads its own name.
foreach(link kubectl-trainctl kubectl_complete-trainctl)
  install(CODE "file(CREATE_LINK trainctl \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${link}\" SYMBOLIC)"
          COMPONENT trainctl)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/trainctl.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT trainctl)
install(FILES ${PROJECT_SOURCE_DIR}/completions/trainctl.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME trainctl COMPONENT trainctl)
install(FILES ${PROJECT_SOURCE_DIR}/completions/_trainctl
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT trainctl)
install(FILES ${PROJECT_SOURCE_DIR}/completions/trainctl.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT trainctl)
# Debian's machine-readable copyright file; Apache-2.0 is in /usr/share/common-licenses.
file(WRITE ${PROJECT_BINARY_DIR}/copyright
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: trainctl\n\n"
  "Files: *\nCopyright: the trainctl authors\nLicense: Apache-2.0\n"
  " On Debian systems the full text of the Apache License 2.0 is in\n"
  " /usr/share/common-licenses/Apache-2.0.\n")
install(FILES ${PROJECT_BINARY_DIR}/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/trainctl COMPONENT trainctl)

add_custom_target(update-generated
  COMMAND $<TARGET_FILE:trainctl> completion bash > ${PROJECT_SOURCE_DIR}/completions/trainctl.bash
  COMMAND $<TARGET_FILE:trainctl> completion zsh > ${PROJECT_SOURCE_DIR}/completions/_trainctl
  COMMAND $<TARGET_FILE:trainctl> completion fish > ${PROJECT_SOURCE_DIR}/completions/trainctl.fish
  COMMAND $<TARGET_FILE:trainctl> __gendocs ${PROJECT_SOURCE_DIR}/docs
  DEPENDS trainctl
  COMMENT "Regenerating completions/, docs/commands/ and docs/man/ from the command tree"
  VERBATIM)

set(CPACK_PACKAGE_NAME trainctl)
set(CPACK_PACKAGE_VENDOR "trainctl")
set(CPACK_PACKAGE_CONTACT "trainctl maintainers <trainctl@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Submit and inspect distributed training jobs on Kubernetes")
set(CPACK_PACKAGE_DESCRIPTION
    "trainctl submits PyTorchJob, MPIJob and Volcano Job training jobs to Kubernetes and inspects them (list, get, logs, top, delete) with Arena's command lines, as one native binary.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)

set(CPACK_COMPONENTS_ALL trainctl)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_PACKAGE_NAME trainctl)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# trainctl loads libcurl (OpenSSL flavour) with dlopen on first use, so dpkg-shlibdeps does
# not see it: name it here.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 (>= 7.85), libssl3")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_GENERATOR DEB)
include(CPack)
