# CMake toolchain file: cross-compile for 64-bit Windows with MinGW-w64 (Debian's
# gcc-mingw-w64-x86-64).
#
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DDLENV_WIN_DEPS=/path/to/prefix
#
# DLENV_WIN_DEPS (cache variable, or environment variable of the same name) is the prefix
# holding the Windows builds of cJSON and cmocka, as made by scripts/windows-deps.sh.
# pkg-config is pointed at that prefix (and the MinGW sysroot) only, so the host's .pc
# files are never used. Programs (pkg-config, wine, ...) are always the host's.

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(DLENV_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${DLENV_MINGW_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${DLENV_MINGW_TRIPLET}-g++)
set(CMAKE_RC_COMPILER ${DLENV_MINGW_TRIPLET}-windres)

set(DLENV_MINGW_SYSROOT /usr/${DLENV_MINGW_TRIPLET})

# The dependency prefix: -D wins over the environment. It is also put back into the
# environment so that the try_compile projects, which re-read this file, see it too.
if(NOT DEFINED DLENV_WIN_DEPS AND DEFINED ENV{DLENV_WIN_DEPS})
  set(DLENV_WIN_DEPS "$ENV{DLENV_WIN_DEPS}")
endif()
if(DEFINED DLENV_WIN_DEPS AND NOT DLENV_WIN_DEPS STREQUAL "")
  get_filename_component(DLENV_WIN_DEPS "${DLENV_WIN_DEPS}" ABSOLUTE)
  set(DLENV_WIN_DEPS "${DLENV_WIN_DEPS}" CACHE PATH
      "Prefix with the Windows (MinGW-w64) builds of the dependencies")
  set(ENV{DLENV_WIN_DEPS} "${DLENV_WIN_DEPS}")
else()
  set(DLENV_WIN_DEPS "")
endif()

set(CMAKE_FIND_ROOT_PATH ${DLENV_MINGW_SYSROOT})
if(DLENV_WIN_DEPS)
  list(APPEND CMAKE_FIND_ROOT_PATH ${DLENV_WIN_DEPS})
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config: only the Windows .pc files. PKG_CONFIG_LIBDIR replaces the host's default
# search path; PKG_CONFIG_PATH (which would be searched first) is cleared, and there is
# no sysroot to prepend because the .pc files hold absolute paths into DLENV_WIN_DEPS.
set(_dlenv_pc_dirs "")
if(DLENV_WIN_DEPS)
  list(APPEND _dlenv_pc_dirs ${DLENV_WIN_DEPS}/lib/pkgconfig)
endif()
list(APPEND _dlenv_pc_dirs ${DLENV_MINGW_SYSROOT}/lib/pkgconfig)
string(REPLACE ";" ":" _dlenv_pc_dirs "${_dlenv_pc_dirs}")
set(ENV{PKG_CONFIG_LIBDIR} "${_dlenv_pc_dirs}")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
unset(_dlenv_pc_dirs)

# Self-contained executables: libgcc linked in, so the only DLLs imported are Windows'.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libgcc")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static-libgcc")

# Run the Windows programs (tests, try_run) under wine when it is there.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(DLENV_WINE NAMES wine wine64)
  if(DLENV_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${DLENV_WINE})
  endif()
endif()
