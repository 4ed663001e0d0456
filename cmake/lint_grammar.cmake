# `dlenv lint`'s Python parser: the tree-sitter runtime and the tree-sitter-python grammar,
# compiled in. Nothing third-party is committed: the grammar's generated parser.c and
# scanner.c come from its published sdist on PyPI (tree_sitter_python 0.23.6), and the
# runtime's C core (lib/src/lib.c, one file that includes the rest, and lib/include) from
# the tree-sitter 0.23.2 sdist, both fetched at configure time by exact version and
# checked against their sha256. The grammar's sdist lacks the headers its generated code
# includes (tree_sitter/parser.h, array.h, alloc.h): they come from the same tree-sitter
# sdist, the generation that wrote 0.23.6's parser.c (LANGUAGE_VERSION 14).
#
# The runtime (DLENV_LINT_RUNTIME):
#   SOURCE  compiled from the pinned tree-sitter sdist with this build's compiler, so
#           every target gets it: cross builds (MinGW, zig for manylinux, macOS, Windows
#           arm64) and the portable build, which must not need a libtree-sitter.so.
#   SYSTEM  the system's (Debian 12: libtree-sitter-dev 0.20.7, which reads grammars of
#           ABI 13 and 14), its static archive when there is one.
#   AUTO    (default) SYSTEM in a native build where pkg-config finds tree-sitter,
#           SOURCE otherwise (cross builds, machines without libtree-sitter-dev).
#
# DLENV_LINT: AUTO (default) builds lint in when it can and leaves it out with a warning
# when it cannot (no network and no archives); ON makes that an error (the release builds
# ask for it); OFF leaves it out. Left out, `dlenv lint` says so (exit 6,
# cli/exit_codes.h).
# DLENV_LINT_DOWNLOADS: a folder holding the two archives already (offline builds), or
# where they are downloaded once; the default is a folder in the build tree. The release
# scripts share one folder between their builds (scripts/build-dist.sh).
#
# Sets DLENV_LINT_ENABLED and, when on, the target dlenv_lint_parser.

set(DLENV_TSPY_VERSION 0.23.6)
set(DLENV_TSPY_FILE tree_sitter_python-${DLENV_TSPY_VERSION}.tar.gz)
set(DLENV_TSPY_URL "https://files.pythonhosted.org/packages/1c/30/6766433b31be476fda6569a3a374c2220e45ffee0bff75460038a57bf23b/${DLENV_TSPY_FILE}")
set(DLENV_TSPY_SHA256 354bfa0a2f9217431764a631516f85173e9711af2c13dbd796a8815acfe505d9)
set(DLENV_TS_VERSION 0.23.2)
set(DLENV_TS_FILE tree-sitter-${DLENV_TS_VERSION}.tar.gz)
set(DLENV_TS_URL "https://files.pythonhosted.org/packages/0f/50/fd5fafa42b884f741b28d9e6fd366c3f34e15d2ed3aa9633b34e388379e2/${DLENV_TS_FILE}")
set(DLENV_TS_SHA256 66bae8dd47f1fed7bdef816115146d3a41c39b5c482d7bad36d9ba1def088450)

set(DLENV_LINT AUTO CACHE STRING "Build `dlenv lint` in: AUTO, ON or OFF")
set_property(CACHE DLENV_LINT PROPERTY STRINGS AUTO ON OFF)
set(DLENV_LINT_RUNTIME AUTO CACHE STRING
    "tree-sitter runtime for lint: AUTO, SOURCE (from the pinned sdist) or SYSTEM")
set_property(CACHE DLENV_LINT_RUNTIME PROPERTY STRINGS AUTO SOURCE SYSTEM)
set(DLENV_LINT_DOWNLOADS "${CMAKE_BINARY_DIR}/lint-downloads" CACHE PATH
    "Folder with (or for) the tree-sitter-python and tree-sitter sdists")
set(DLENV_LINT_ENABLED OFF)

# dlenv_lint_skip WHY: leaves lint out, or stops when DLENV_LINT=ON asked for it.
macro(dlenv_lint_skip why)
  if(DLENV_LINT STREQUAL "ON")
    message(FATAL_ERROR "DLENV_LINT=ON but lint cannot be built: ${why}")
  endif()
  message(WARNING "dlenv lint is left out of this build: ${why}")
  return()
endmacro()

# dlenv_lint_fetch FILE URL SHA256 OUTVAR: the archive's path once it is there with that
# hash; empty when it is not and cannot be downloaded. A file with another hash is never
# used (nor kept).
function(dlenv_lint_fetch file url sha out)
  set(path "${DLENV_LINT_DOWNLOADS}/${file}")
  set(${out} "" PARENT_SCOPE)
  if(EXISTS "${path}")
    file(SHA256 "${path}" have)
    if(have STREQUAL sha)
      set(${out} "${path}" PARENT_SCOPE)
      return()
    endif()
    file(REMOVE "${path}")
  endif()
  file(MAKE_DIRECTORY "${DLENV_LINT_DOWNLOADS}")
  file(DOWNLOAD "${url}" "${path}.part" STATUS st TIMEOUT 120 INACTIVITY_TIMEOUT 30
       TLS_VERIFY ON)
  list(GET st 0 code)
  if(NOT code EQUAL 0)
    file(REMOVE "${path}.part")
    message(STATUS "lint: cannot download ${url}: ${st}")
    return()
  endif()
  file(SHA256 "${path}.part" have)
  if(NOT have STREQUAL sha)
    file(REMOVE "${path}.part")
    message(WARNING "lint: ${url} has sha256 ${have}, not the pinned ${sha}; not used")
    return()
  endif()
  file(RENAME "${path}.part" "${path}")
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

# dlenv_lint_system_runtime OUTVAR: the system's tree-sitter library (its static archive
# when there is one: the binary then needs no libtree-sitter.so), or empty. Sets
# TREE_SITTER_INCLUDE_DIRS through pkg-config.
function(dlenv_lint_system_runtime out)
  set(${out} "" PARENT_SCOPE)
  if(CMAKE_CROSSCOMPILING)
    return()  # the host's library is not the target's
  endif()
  find_package(PkgConfig QUIET)
  if(NOT PKG_CONFIG_FOUND)
    return()
  endif()
  pkg_check_modules(TREE_SITTER QUIET tree-sitter)
  if(NOT TREE_SITTER_FOUND)
    return()
  endif()
  find_library(DLENV_TREE_SITTER_LIB NAMES libtree-sitter.a tree-sitter
               HINTS ${TREE_SITTER_LIBRARY_DIRS})
  if(DLENV_TREE_SITTER_LIB)
    set(${out} "${DLENV_TREE_SITTER_LIB}" PARENT_SCOPE)
    set(TREE_SITTER_INCLUDE_DIRS "${TREE_SITTER_INCLUDE_DIRS}" PARENT_SCOPE)
  endif()
endfunction()

# dlenv_lint_third_party TARGET: third-party code is built optimised in every configuration
# (a Debug -O0 parser is several times slower) and without our warnings (nor -Werror).
function(dlenv_lint_third_party target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /w /O2)
  else()
    target_compile_options(${target} PRIVATE -w -O2)
  endif()
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

function(dlenv_lint_setup)
  if(DLENV_LINT STREQUAL "OFF")
    message(STATUS "dlenv lint: left out (DLENV_LINT=OFF)")
    return()
  endif()
  if(NOT DLENV_LINT_RUNTIME MATCHES "^(AUTO|SOURCE|SYSTEM)$")
    message(FATAL_ERROR "DLENV_LINT_RUNTIME is AUTO, SOURCE or SYSTEM, not '${DLENV_LINT_RUNTIME}'")
  endif()
  set(runtime "${DLENV_LINT_RUNTIME}")
  set(system_lib "")
  if(NOT runtime STREQUAL "SOURCE")
    dlenv_lint_system_runtime(system_lib)
    if(system_lib)
      set(runtime SYSTEM)
    elseif(runtime STREQUAL "SYSTEM")
      dlenv_lint_skip("DLENV_LINT_RUNTIME=SYSTEM but no tree-sitter runtime for this target "
                      "(apt-get install libtree-sitter-dev)")
    else()
      set(runtime SOURCE)
    endif()
  endif()
  dlenv_lint_fetch(${DLENV_TSPY_FILE} ${DLENV_TSPY_URL} ${DLENV_TSPY_SHA256} grammar)
  dlenv_lint_fetch(${DLENV_TS_FILE} ${DLENV_TS_URL} ${DLENV_TS_SHA256} core)
  if(NOT grammar OR NOT core)
    dlenv_lint_skip("the pinned sdists (${DLENV_TSPY_FILE}, ${DLENV_TS_FILE}) are not in "
                    "${DLENV_LINT_DOWNLOADS} and cannot be downloaded")
  endif()
  set(dir "${CMAKE_BINARY_DIR}/lint-grammar")
  set(src "${dir}/tree_sitter_python-${DLENV_TSPY_VERSION}/src")
  set(lib "${dir}/tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib")
  if(NOT EXISTS "${src}/scanner.c" OR NOT EXISTS "${lib}/src/lib.c")
    file(MAKE_DIRECTORY "${dir}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${grammar}"
                    WORKING_DIRECTORY "${dir}" RESULT_VARIABLE r1)
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${core}"
                    "tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib"
                    WORKING_DIRECTORY "${dir}" RESULT_VARIABLE r2)
    if(NOT r1 EQUAL 0 OR NOT r2 EQUAL 0)
      dlenv_lint_skip("cannot unpack ${grammar} or ${core}")
    endif()
  endif()
  file(STRINGS "${src}/parser.c" abi REGEX "^#define LANGUAGE_VERSION [0-9]+")
  if(NOT abi MATCHES "LANGUAGE_VERSION 1[34]$")
    dlenv_lint_skip("the grammar's ABI (${abi}) is not one both runtimes read (13-14)")
  endif()
  # The generated code includes "tree_sitter/parser.h": the generator's copies, laid out
  # under that name, come before the system's older parser.h.
  file(MAKE_DIRECTORY "${dir}/include/tree_sitter")
  foreach(h parser.h array.h alloc.h ts_assert.h)
    configure_file("${lib}/src/${h}" "${dir}/include/tree_sitter/${h}" COPYONLY)
  endforeach()
  add_library(dlenv_lint_parser STATIC "${src}/parser.c" "${src}/scanner.c")
  target_include_directories(dlenv_lint_parser PRIVATE "${dir}/include")
  dlenv_lint_third_party(dlenv_lint_parser)
  if(runtime STREQUAL "SYSTEM")
    target_include_directories(dlenv_lint_parser INTERFACE ${TREE_SITTER_INCLUDE_DIRS})
    target_link_libraries(dlenv_lint_parser INTERFACE "${system_lib}")
    set(what "${system_lib}")
  else()
    # lib.c includes every other source of the runtime: one translation unit. The
    # feature macros are the ones tree-sitter's own Makefile builds it with.
    add_library(dlenv_tree_sitter STATIC "${lib}/src/lib.c")
    target_include_directories(dlenv_tree_sitter PRIVATE "${lib}/src"
                               PUBLIC "${lib}/include")
    target_compile_definitions(dlenv_tree_sitter PRIVATE _POSIX_C_SOURCE=200112L
                               _DEFAULT_SOURCE $<$<PLATFORM_ID:Darwin>:_DARWIN_C_SOURCE>)
    dlenv_lint_third_party(dlenv_tree_sitter)
    target_link_libraries(dlenv_lint_parser PUBLIC dlenv_tree_sitter)
    set(what "tree-sitter ${DLENV_TS_VERSION} compiled from its sdist")
  endif()
  message(STATUS "dlenv lint: tree-sitter-python ${DLENV_TSPY_VERSION} (ABI 14) with ${what}")
  set(DLENV_LINT_ENABLED ON PARENT_SCOPE)
endfunction()

dlenv_lint_setup()
