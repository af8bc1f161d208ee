# SDL2.def for the Windows release's SDL2.dll (tools/cmake/release.cmake): the public functions of a static
# libSDL2.a, the names whose implementation is <name>_REAL (SDL's dynamic API), and SDL_DYNAPI_entry, so a player
# may swap in another SDL2.dll. Written only when its text changes.
#
#   cmake -DNM=<nm for the target> -DLIB=<libSDL2.a> -DDEF=<out.def> -P sdl2_def.cmake
foreach(v NM LIB DEF)
    if(NOT ${v})
        message(FATAL_ERROR "sdl2_def.cmake: ${v} is not set")
    endif()
endforeach()
execute_process(COMMAND "${NM}" -g "${LIB}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sdl2_def.cmake: ${NM} -g ${LIB} failed (${rc})")
endif()
string(REGEX MATCHALL "[0-9a-fA-F]+ T [A-Za-z0-9_]+_REAL\n" lines "${symbols}")
set(names "")
foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[0-9a-fA-F]+ T ([A-Za-z0-9_]+)_REAL\n$" "\\1" name "${line}")
    list(APPEND names "${name}")
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
if(NOT names)
    message(FATAL_ERROR "sdl2_def.cmake: no SDL function (<name>_REAL) in ${LIB}")
endif()
list(JOIN names "\n    " text)
file(CONFIGURE OUTPUT "${DEF}" CONTENT "EXPORTS\n    ${text}\n    SDL_DYNAPI_entry\n" @ONLY)
