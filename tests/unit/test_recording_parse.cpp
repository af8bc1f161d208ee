// Unit tests for parse_recording (platform/core/parse.cpp): what --replay checks before the game sees a
// recording - header, layout, size, and every step record as live input could have made it.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "core/parse.cpp"

#include <math.h>

#include <vector>

static const RecordingExpect WANT = { GAME_API_VERSION, 3, 1024, 1 << 20 };

static std::vector<uint8_t> recording(int steps, void (*damage)(GameInput *, int))
{
    std::vector<uint8_t> out(RECORDING_HEADER_BYTES + 64 + (size_t)steps * sizeof(GameInput));
    for (int i = 0; i < 64; i++) out[RECORDING_HEADER_BYTES + i] = (uint8_t)(i * 7);   /* the snapshot */
    RecordingHeader h = { WANT.api, WANT.layout_hash, WANT.state_size, 64, 0, 0, th_hash_bytes64(&out[RECORDING_HEADER_BYTES], 64) };
    parse_recording_header_write(out.data(), &h);
    for (int i = 0; i < steps; i++) {
        GameInput gi;
        memset(&gi, 0, sizeof gi);
        gi.step = (uint64_t)i;
        gi.dt = 1.0f / 60;
        gi.down[KEY_SPACE] = gi.pressed[KEY_SPACE] = i % 2;
        gi.axis[0] = -1.0f;
        gi.mouse_x = 640; gi.mouse_y = 360;
        if (damage) damage(&gi, i);
        memcpy(&out[RECORDING_HEADER_BYTES + 64 + (size_t)i * sizeof gi], &gi, sizeof gi);
    }
    return out;
}

static int parse(const std::vector<uint8_t> &f, const RecordingExpect *want, char *err)
{
    RecordingHeader h;
    return parse_recording(f.data(), f.size(), want, &h, err, 256);
}

static void refused(void (*damage)(GameInput *, int), const char *why)
{
    char err[256] = "";
    int ok = parse(recording(5, damage), &WANT, err);
    TH_CHECK_MSG(!ok && strstr(err, why) && strstr(err, "step 3"), "wanted '%s' at step 3, got ok=%d '%s'", why, ok, err);
}

static void nan_axis(GameInput *gi, int i) { if (i == 3) gi->axis[1] = NAN; }
static void big_axis(GameInput *gi, int i) { if (i == 3) gi->axis[0] = 1.5f; }
static void key_two(GameInput *gi, int i) { if (i == 3) gi->down[KEY_A] = 2; }
static void zero_dt(GameInput *gi, int i) { if (i == 3) gi->dt = 0; }
static void inf_mouse(GameInput *gi, int i) { if (i == 3) gi->mouse_y = INFINITY; }
static void nan_wheel(GameInput *gi, int i) { if (i == 3) gi->wheel = NAN; }
static void pad_three(GameInput *gi, int i) { if (i == 3) gi->gamepad_connected = 3; }

static void test_damaged_snapshot(void)
{
    char err[256] = "";
    std::vector<uint8_t> f = recording(5, nullptr);
    f[RECORDING_HEADER_BYTES + 10] ^= 0x10;
    TH_CHECK_MSG(!parse(f, &WANT, err) && strstr(err, "snapshot is damaged"), "a flipped snapshot bit: '%s'", err);
    f = recording(5, nullptr);
    f[7] = '1';   /* the format before snapshot hashes */
    TH_CHECK_MSG(!parse(f, &WANT, err) && strstr(err, "older recording format"), "THREC001: '%s'", err);
}

static void test_good_recording(void)
{
    char err[256] = "";
    std::vector<uint8_t> f = recording(5, nullptr);
    RecordingHeader h;
    TH_CHECK(parse_recording(f.data(), f.size(), &WANT, &h, err, sizeof err));
    TH_CHECK(h.steps == 5 && h.snapshot_bytes == 64);
}

static void test_every_step_is_checked(void)
{
    refused(nan_axis, "axis 1");
    refused(big_axis, "axis 0");
    refused(key_two, "neither up nor down");
    refused(zero_dt, "step length");
    refused(inf_mouse, "mouse");
    refused(nan_wheel, "wheel");
    refused(pad_three, "gamepad_connected");
}

static void test_layout_and_size(void)
{
    char err[256] = "";
    std::vector<uint8_t> f = recording(2, nullptr);
    RecordingExpect other = WANT;
    other.layout_hash = 4;
    TH_CHECK(!parse(f, &other, err) && strstr(err, "another state layout"));
    other = WANT;
    other.state_size = 2048;
    TH_CHECK(!parse(f, &other, err) && strstr(err, "another state layout"));
    other = WANT;
    other.block_size = 32;
    TH_CHECK(!parse(f, &other, err) && strstr(err, "exceeds --memory"));
    f.pop_back();
    TH_CHECK(!parse(f, &WANT, err) && strstr(err, "truncated"));
}

int main(void)
{
    TH_RUN(test_good_recording);
    TH_RUN(test_damaged_snapshot);
    TH_RUN(test_every_step_is_checked);
    TH_RUN(test_layout_and_size);
    return th_test_finish();
}
