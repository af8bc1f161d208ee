# link_game.cmake - the link step of the Windows game library (CMakeLists.txt's game_dll target runs its link
# through this script, its linker launcher):
#
#   cmake -DGAME_DLL=<out>/game.dll -P link_game.cmake -- <the link command CMake wrote>
#
# The host may be running the previous game.dll and a debugger may hold its PDB open, so the link command is
# changed in two places: the library is written to game.tmp.dll and renamed to game.dll only once the link
# succeeded (the host never copies a half-written file), and the PDB gets a new name every build,
# game_<microseconds>.pdb (clang/lld: -Wl,--pdb= added; MSVC: link.exe's /pdb: replaced). The previous builds'
# PDBs are deleted first, those a debugger holds open stay.
get_filename_component(dir "${GAME_DLL}" DIRECTORY)
set(tmp "${dir}/game.tmp.dll")
string(TIMESTAMP stamp "%s%f" UTC)
set(pdb "${dir}/game_${stamp}.pdb")
file(GLOB old_pdbs "${dir}/game_*.pdb")
if(old_pdbs)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E rm -f ${old_pdbs} ERROR_QUIET)
endif()

set(cmd "")
set(prev "")
set(in_cmd 0)
set(msvc 0)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
    set(arg "${CMAKE_ARGV${i}}")
    if(NOT in_cmd)
        if(arg STREQUAL "--")
            set(in_cmd 1)
        endif()
        continue()
    endif()
    if(arg MATCHES "^[-/][Oo][Uu][Tt]:")         # link.exe /out:
        set(arg "/out:${tmp}")
        set(msvc 1)
    elseif(arg MATCHES "^[-/][Pp][Dd][Bb]:")     # link.exe /pdb:
        set(arg "/pdb:${pdb}")
    elseif(prev STREQUAL "-o")                   # clang/gcc: -o <the library>
        set(arg "${tmp}")
    endif()
    list(APPEND cmd "${arg}")
    set(prev "${arg}")
endforeach()
if(NOT msvc)
    list(APPEND cmd "-Wl,--pdb=${pdb}")
endif()
file(REMOVE "${tmp}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT EXISTS "${tmp}")
    message(FATAL_ERROR "game library: the link failed (${rc})")
endif()
file(RENAME "${tmp}" "${GAME_DLL}")
