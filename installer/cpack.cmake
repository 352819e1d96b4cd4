# The Debian package of the workbench: `cpack -G DEB` in a build folder (installer/README.md).
# It holds what the install() rules of app/ name — noisescope, noisescope-cli, the desktop entry,
# the icon and the AppStream metadata — under /usr. The runtime dependencies are derived from the
# binaries by dpkg-shlibdeps (package dpkg-dev), not listed by hand.
# Package (and install) what has been built: without this, cpack's preinstall step would first
# build every target, the test suites and benchmarks included. Build with installer/build.sh or
# `cmake --build BUILD --target noisescope noisescope-cli` first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "noisescope")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "NoiseScope")
set(CPACK_PACKAGE_CONTACT "NoiseScope maintainers <noisescope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "A workbench for people who train diffusion models: look at a dataset across noise levels,\n"
    "measure where it resolves its uncertainty, and build, compare and export training noise\n"
    "schedules (InfoNoise, square-root entropy, atomic designs); train with them and follow the\n"
    "schedule live. Includes the command-line tool noisescope-cli.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # noisescope_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Training runs the CLI as a child process; Gloo's TCP store needs nothing more at run time.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch, dataset-fashion-mnist")
include(CPack)
