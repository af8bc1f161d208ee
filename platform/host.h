/* host.h - everything the host declares, for the files of platform/ itself (main.cpp, develop.cpp, release.cpp).
   A module's files include their own module's header (which includes the layers below it). Not seen by the game.

   The host in layers, lowest first (docs/design.md, "The host's layers"); a file calls into its own folder and
   the folders before it, never after:
   os/        the operating system: os.h, the only seam (os_linux.cpp on Linux; os_win32.cpp and
              os_win32_guard.cpp on Windows; os_web.cpp in a browser, web/shell.html its page; os_template.cpp
              where a new port starts); os_common.cpp what they share; os_service_gate.h the watchdog's
              deferred interrupt both fault backends follow. Nothing else includes system headers.
   core/      what every module uses (core.h declares it):
     core.cpp     the command line (options()), the frame loop's counters (frame_loop()), the project root
     log.cpp      log lines, JSON-lines events, the game's log/event/time services
     parse.cpp    reading outside input: flags, input scripts, recording headers, JSON escaping
     stb_impl.c   stb's implementations (images, rectangle packing, TrueType), compiled in every build
   services/  what the game calls through PlatformAPI (services.h):
     services.cpp the table itself (services_api()), filled by each service at start
     profile.cpp  the frame profiler: zones (th_profile.h), the game's zone service, --profile and Shift+F4
                  traces, the flame-chart view
     render.cpp   drawing services (sprite batch, text, camera, screenshots); render_internal.h holds what it
                  shares with assets.cpp and font.cpp
     assets.cpp   what is loaded from disk for drawing: atlas pages, the packer child
     sprite_anim.cpp  the Aseprite files' frame durations and tags, from the packer: sprite_anim_info
     tilemap.cpp  Tiled maps (.tmj under assets/maps) read with th_tiled.h, reloaded on save: map_info, map_draw...
     archive.cpp  where asset bytes come from: the project's files, or (a release) the archive beside the executable
     font.cpp     the text font: checked, baked on a worker, installed
     audio.cpp    the audio device and the mixer behind the game's sound services
     sound_assets.cpp  sound files (WAV, OGG, .sfx) found, decoded in a child process, reloaded on save
     input.cpp    SDL events and --input scripts -> GameInput (the developer's tools first, through InputHooks)
     savedata.cpp the game's save data: named blobs in the user's data folder (or --save-dir)
     window.cpp   the window: the game's title, fullscreen, Quit, focus
     notice.cpp   short messages along the bottom of the screen (a corrupt save, a failed asset)
   session/   the running game kept safe (both builds; session.h):
     running.cpp  the running game: its library and entry points, the block's layout, the last crash
     memory.cpp   the game's memory block and the snapshot taken before new code runs
     guard.cpp    running library code guarded: faults and the watchdog (nothing else)
     migrate.cpp  the state across a layout change: the libraries' descriptions of their state, the rewrite
                  of the block from one layout to the next (th_reflect.h)
     record.cpp   the F7 input loop and --record/--replay files
     timeline.cpp the F8 timeline: the last seconds of play (inputs, hashes, packed states), seeks, the check;
                  its kept states migrated across a layout change; a session file written and opened
     session_file.cpp, session_file.h  the session file's format: its checked reader (every size, offset and count, a
                  checksum) and its writer
     restart.cpp  the hot restart: the session (block, snapshot, the modules' slices and reserved areas) in a
                  memfd, the host re-executed with it when the process cannot go on safely
   live/      save to new code (development only; live.h):
     watch.cpp    debounced batches of changed source/asset files
     build.cpp    the game build: the chunks' compiles and the link in child processes, its output and errors
     plan.cpp     the game build's plan: roots, chunks, entries, the cached parts (-O2 tinyheaders, layout
                  stamp) and the commands (compile.cmd); --build-game, --write-unity
     game_flags.h the flags every compile outside CMake starts with (build.sh reads them too)
     game_folder.cpp which game runs (--game DIR): its folder, its build folder, its name
     library.cpp  one game library: versioned copy, open, resolve the entry point, close, verify unmapped
     reload.cpp   the reload policy: build finished -> copy -> load -> stamp check -> snapshot -> swap ->
                  verify unload; crash rollback; the calls into the running game
     tweak.cpp    live TWEAK() literal values from the game sources
   devtools/  what the developer sees (devtools.h):
     hotkeys.cpp  what the tools take from the input first: F-keys, the profiler's view, the F4 panel, the inspector
     inspector.cpp  the Shift+F1 state inspector: GameState live from its description, tables, edits, watches
     overlay.cpp  the F1 overlay, crash and build-error panels
     timeline_bar.cpp  the F8 timeline's scrub bar: its keys, the drag, P's playback
     control.cpp  the control socket (development): JSON lines to read and write state fields by path, inject
                  input, pause, step, seek, take screenshots, follow events (docs/control.md)
     timeline_files.cpp  session files: E on the bar and --save-session write one, --open-session starts on one
     tweak_panel.cpp  the F4 tweak panel: every TWEAK site read, edited with the mouse, written back into its literal
   platform/ itself:
     main.cpp     the frame loop: poll input, watch/build/reload, fixed steps, render, present
     develop.cpp  the development host's side of HostMode: the project folder, the hot restart's session, watch ->
                  build -> reload polling, F5, TWEAK
     release.cpp  a release (-DHOST_RELEASE): the game linked in, assets from the archive, HostMode's stand-ins
     host.h       this file */
#ifndef HOST_H
#define HOST_H

#include "devtools/devtools.h"

#endif /* HOST_H */
