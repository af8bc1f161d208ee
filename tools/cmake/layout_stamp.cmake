# engine_layout_stamp(<out dir> <game folder> <compiler> [DEPFILE] [TARGET <triple>])
#
# The layout stamp of <game folder>/state.h (tools/layout_stamp.py, with the compiler's preprocessor): writes
# <out dir>/layout_stamp.h (`#define GAME_LAYOUT_HASH <stamp>u`, which the game's compile includes first) and
# <out dir>/state_types.inc (the description of the state's types). Made again when state.h or a header it reads
# changes: from the preprocessor's dependency file with DEPFILE (cl.exe writes none), else when a header of the game
# folder or a tinyheader changes. Run in the project's folder; without DEPFILE the game folder is named relative to it
# when below it, as the development build's plan names it (platform/live/plan.cpp): state_types.inc names state.h in
# its first lines, so the Windows game library and the Linux one write the same file into the game's build folder.
# The Windows game library (CMakeLists.txt, ENGINE_GAME_DIR) and the releases (release.cmake) both use it.
function(engine_layout_stamp dir game cxx)
    cmake_parse_arguments(PARSE_ARGV 3 STAMP "DEPFILE" "TARGET" "")
    file(RELATIVE_PATH rel "${ENGINE_DIR}" "${game}")
    if(IS_ABSOLUTE "${rel}" OR rel MATCHES "^\\.\\./" OR rel STREQUAL "..")
        set(rel "${game}")
    endif()
    if(MSVC)
        set(flags /std:c++17 /DTH_MATH_NO_MATH_H)
        set(I /I)
    else()
        set(flags -std=c++17 -DTH_MATH_NO_MATH_H)
        if(STAMP_TARGET)
            list(APPEND flags "--target=${STAMP_TARGET}")
        endif()
        set(I -I)
    endif()
    set(depends "")
    set(depfile "")
    if(STAMP_DEPFILE AND NOT MSVC)   # absolute paths: Ninja reads a dependency file's from the build tree
        set(rel "${game}")
        set(dirs "${ENGINE_DIR}/tinyheaders" "${ENGINE_DIR}/platform/include" "${game}")
        list(APPEND flags -MD -MF "${dir}/layout_stamp.d" -MT "${dir}/layout_stamp.h")
        set(depfile DEPFILE "${dir}/layout_stamp.d")
    else()
        set(dirs tinyheaders platform/include "${rel}")
        file(GLOB depends CONFIGURE_DEPENDS "${ENGINE_DIR}/tinyheaders/*.h" "${game}/*.h")
    endif()
    foreach(d IN LISTS dirs)
        list(APPEND flags "${I}${d}")
    endforeach()
    add_custom_command(OUTPUT "${dir}/layout_stamp.h" "${dir}/state_types.inc"
        COMMAND "${Python3_EXECUTABLE}" tools/layout_stamp.py "--types=${dir}/state_types.inc"
            "--header=${dir}/layout_stamp.h" "${cxx}" "${rel}/state.h" ${flags}
        DEPENDS "${game}/state.h" "${ENGINE_DIR}/tools/layout_stamp.py" ${depends}
        ${depfile}
        WORKING_DIRECTORY "${ENGINE_DIR}" COMMENT "the layout stamp of ${game}/state.h" VERBATIM)
endfunction()
