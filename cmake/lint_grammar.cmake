# `dlenv lint`'s Python parser: tree-sitter's runtime from the system (Debian 12:
# libtree-sitter-dev 0.20.7, which reads grammars of ABI 13 and 14) and the
# tree-sitter-python grammar compiled in. The grammar is not committed: its generated
# parser.c and scanner.c come from the grammar's published sdist on PyPI, fetched at
# configure time by exact version and checked against its sha256. That sdist lacks the
# headers its generated code includes (tree_sitter/parser.h, array.h, alloc.h: the
# generator's, newer than Debian's parser.h), so they come from the tree-sitter sdist of
# the matching generation, also pinned. LANGUAGE_VERSION in 0.23.6's parser.c is 14.
#
# DLENV_LINT: AUTO (default) builds lint in when it can and leaves it out with a warning
# when it cannot (no runtime found, a cross build, no network); ON makes that an error;
# OFF leaves it out. Left out, `dlenv lint` says so (exit 6, cli/exit_codes.h).
# DLENV_LINT_DOWNLOADS: a folder holding the two archives already (offline builds); the
# default is a folder in the build tree, where they are downloaded once.
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

function(dlenv_lint_setup)
  if(DLENV_LINT STREQUAL "OFF")
    message(STATUS "dlenv lint: left out (DLENV_LINT=OFF)")
    return()
  endif()
  if(CMAKE_CROSSCOMPILING AND NOT DLENV_LINT STREQUAL "ON")
    dlenv_lint_skip("a cross build (no tree-sitter runtime for the target)")
  endif()
  pkg_check_modules(TREE_SITTER tree-sitter)
  if(NOT TREE_SITTER_FOUND)
    dlenv_lint_skip("no tree-sitter runtime (apt-get install libtree-sitter-dev)")
  endif()
  # The static archive when there is one: the binary then needs no libtree-sitter.so.
  find_library(DLENV_TREE_SITTER_LIB NAMES libtree-sitter.a tree-sitter
               HINTS ${TREE_SITTER_LIBRARY_DIRS})
  if(NOT DLENV_TREE_SITTER_LIB)
    dlenv_lint_skip("pkg-config names tree-sitter but its library is not found")
  endif()
  dlenv_lint_fetch(${DLENV_TSPY_FILE} ${DLENV_TSPY_URL} ${DLENV_TSPY_SHA256} grammar)
  dlenv_lint_fetch(${DLENV_TS_FILE} ${DLENV_TS_URL} ${DLENV_TS_SHA256} headers)
  if(NOT grammar OR NOT headers)
    dlenv_lint_skip("the pinned sdists (${DLENV_TSPY_FILE}, ${DLENV_TS_FILE}) are not in "
                    "${DLENV_LINT_DOWNLOADS} and cannot be downloaded")
  endif()
  set(dir "${CMAKE_BINARY_DIR}/lint-grammar")
  set(src "${dir}/tree_sitter_python-${DLENV_TSPY_VERSION}/src")
  set(hdr "${dir}/tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib/src")
  if(NOT EXISTS "${src}/scanner.c" OR NOT EXISTS "${hdr}/ts_assert.h")
    file(MAKE_DIRECTORY "${dir}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${grammar}"
                    WORKING_DIRECTORY "${dir}" RESULT_VARIABLE r1)
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${headers}"
                    "tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib/src/parser.h"
                    "tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib/src/array.h"
                    "tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib/src/alloc.h"
                    "tree-sitter-${DLENV_TS_VERSION}/tree_sitter/core/lib/src/ts_assert.h"
                    WORKING_DIRECTORY "${dir}" RESULT_VARIABLE r2)
    if(NOT r1 EQUAL 0 OR NOT r2 EQUAL 0)
      dlenv_lint_skip("cannot unpack ${grammar} or ${headers}")
    endif()
  endif()
  file(STRINGS "${src}/parser.c" abi REGEX "^#define LANGUAGE_VERSION [0-9]+")
  if(NOT abi MATCHES "LANGUAGE_VERSION 1[34]$")
    dlenv_lint_skip("the grammar's ABI (${abi}) is not one tree-sitter 0.20 reads (13-14)")
  endif()
  # The generated code includes "tree_sitter/parser.h": the generator's copies, laid out
  # under that name, come before the system's older parser.h.
  file(MAKE_DIRECTORY "${dir}/include/tree_sitter")
  foreach(h parser.h array.h alloc.h ts_assert.h)
    configure_file("${hdr}/${h}" "${dir}/include/tree_sitter/${h}" COPYONLY)
  endforeach()
  add_library(dlenv_lint_parser STATIC "${src}/parser.c" "${src}/scanner.c")
  target_include_directories(dlenv_lint_parser PRIVATE "${dir}/include")
  # Third-party generated code: our warning flags (and -Werror) are not its standard.
  if(MSVC)
    target_compile_options(dlenv_lint_parser PRIVATE /w)
  else()
    # optimised in every configuration: a Debug -O0 parser is several times slower
    target_compile_options(dlenv_lint_parser PRIVATE -w -O2)
  endif()
  target_include_directories(dlenv_lint_parser INTERFACE ${TREE_SITTER_INCLUDE_DIRS})
  target_link_libraries(dlenv_lint_parser INTERFACE ${DLENV_TREE_SITTER_LIB})
  message(STATUS "dlenv lint: tree-sitter-python ${DLENV_TSPY_VERSION} "
                 "(ABI 14) with ${DLENV_TREE_SITTER_LIB}")
  set(DLENV_LINT_ENABLED ON PARENT_SCOPE)
endfunction()

dlenv_lint_setup()
