/* stb_impl.c - the implementations of the stb libraries the host, the tools and the tests link: images
   (read and write), rectangle packing, TrueType. Every build compiles this one file (build.sh: the
   stb object; build.bat: :stb_impl), development and release alike, so nothing links a distribution's
   compiled libstb. The headers come from the system (Debian's libstb-dev; STB_DIR with build.bat).
   stb_vorbis is not here: tools/sound_decode.cpp, its only user, compiles it itself. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#define STB_RECT_PACK_IMPLEMENTATION
#include <stb_rect_pack.h>
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
