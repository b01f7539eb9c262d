/* mrtq/common.h: the element-type enum (bits, names, ranges, storage sizes,
 * the s4 packing), the refusal hook and the status strings.
 * Oracles: <stdint.h>'s limits, and the s4 packing spelled out with plain
 * shifts and masks on bytes (TFLite's int4 order: element 2i in the low
 * nibble of byte i, sign-extended). */
#include <stdint.h>

#include "harness.h"
#include "mrtq.h"

static void test_dtype_describe(void) {
  static const struct { mrtq_dtype t; int bits; const char *name; int64_t lo, hi; } tab[] = {
    {MRTQ_S8, 8, "s8", INT8_MIN, INT8_MAX},        {MRTQ_U8, 8, "u8", 0, UINT8_MAX},
    {MRTQ_S16, 16, "s16", INT16_MIN, INT16_MAX},   {MRTQ_S32, 32, "s32", INT32_MIN, INT32_MAX},
    {MRTQ_S4, 4, "s4", -(1 << 3), (1 << 3) - 1},
  };
  size_t i;
  for (i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    int32_t lo = 0, hi = 0;
    CHECK_EQ(mrtq_dtype_bits(tab[i].t), tab[i].bits, "type %d", (int)tab[i].t);
    CHECK(strcmp(mrtq_dtype_str(tab[i].t), tab[i].name) == 0);
    CHECK_EQ(mrtq_dtype_range(tab[i].t, &lo, &hi), MRTQ_OK, "type %d", (int)tab[i].t);
    CHECK_EQ(lo, tab[i].lo, "type %s", tab[i].name);
    CHECK_EQ(hi, tab[i].hi, "type %s", tab[i].name);
    /* the range is exactly 2^bits values */
    CHECK_EQ((int64_t)hi - lo + 1, (int64_t)1 << tab[i].bits, "type %s", tab[i].name);
  }
  CHECK_EQ(mrtq_dtype_bits((mrtq_dtype)0), 0, "no type");
  CHECK_EQ(mrtq_dtype_bits((mrtq_dtype)99), 0, "outside");
  CHECK(strcmp(mrtq_dtype_str((mrtq_dtype)0), "unknown") == 0);
}

static void test_dtype_bytes(void) {
  size_t b = 12345;
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S8, 7, &b), MRTQ_OK, "s8");
  CHECK_EQ(b, 7, "s8 x7");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_U8, 0, &b), MRTQ_OK, "u8");
  CHECK_EQ(b, 0, "u8 x0");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S16, 5, &b), MRTQ_OK, "s16");
  CHECK_EQ(b, 10, "s16 x5");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S32, 3, &b), MRTQ_OK, "s32");
  CHECK_EQ(b, 12, "s32 x3");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S4, 7, &b), MRTQ_OK, "s4");
  CHECK_EQ(b, 4, "s4 x7: the last high nibble unused");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S4, 8, &b), MRTQ_OK, "s4");
  CHECK_EQ(b, 4, "s4 x8");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S4, SIZE_MAX, &b), MRTQ_OK, "s4 max");
  CHECK(b == SIZE_MAX / 2 + 1);
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S32, SIZE_MAX / 4, &b), MRTQ_OK, "s32 at the bound");
  CHECK(b == SIZE_MAX / 4 * 4);
  b = 77;
  CHECK_REFUSED(mrtq_dtype_bytes(MRTQ_S32, SIZE_MAX / 4 + 1, &b), MRTQ_ERANGE, "n:");
  CHECK_REFUSED(mrtq_dtype_bytes(MRTQ_S16, SIZE_MAX / 2 + 1, &b), MRTQ_ERANGE, "overflow");
  CHECK_EQ(b, 77, "a refusal writes nothing");
  CHECK_REFUSED(mrtq_dtype_bytes((mrtq_dtype)0, 1, &b), MRTQ_EINVAL, "t: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_dtype_bytes(MRTQ_S8, 1, NULL), MRTQ_EINVAL, "bytes: NULL");
}

static void test_dtype_range_refusals(void) {
  int32_t lo = 5, hi = 6;
  CHECK_REFUSED(mrtq_dtype_range((mrtq_dtype)0, &lo, &hi), MRTQ_EINVAL, "t: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_dtype_range((mrtq_dtype)6, &lo, &hi), MRTQ_EINVAL, "t:");
  CHECK_REFUSED(mrtq_dtype_range(MRTQ_S8, NULL, &hi), MRTQ_EINVAL, "qmin, qmax: NULL");
  CHECK_REFUSED(mrtq_dtype_range(MRTQ_S8, &lo, NULL), MRTQ_EINVAL, "qmin, qmax: NULL");
  CHECK_EQ(lo, 5, "unchanged");
  CHECK_EQ(hi, 6, "unchanged");
}

/* The s4 packing against bytes assembled by hand, and every element type's
 * load / store / range test against the C types. */
static void test_s4_packing(void) {
  uint8_t buf[8], want[8];
  int v, i, round;
  /* hand-packed: elements 1, -2, 7, -8, 0 -> bytes 0xE1, 0x87, 0x?0 */
  memset(buf, 0, sizeof buf);
  mrtq__store(buf, 0, MRTQ_S4, 1);
  mrtq__store(buf, 1, MRTQ_S4, -2);
  mrtq__store(buf, 2, MRTQ_S4, 7);
  mrtq__store(buf, 3, MRTQ_S4, -8);
  mrtq__store(buf, 4, MRTQ_S4, 0);
  CHECK_EQ(buf[0], 0xE1, "low nibble first: 1 then -2 (0xE)");
  CHECK_EQ(buf[1], 0x87, "7 then -8 (0x8)");
  CHECK_EQ(buf[2], 0x00, "0, high nibble untouched");
  /* a store changes its own nibble only */
  memset(buf, 0xA5, sizeof buf);
  mrtq__store(buf, 5, MRTQ_S4, 3);
  CHECK_EQ(buf[2], 0x35, "element 5 is the high nibble of byte 2");
  CHECK_EQ(buf[1], 0xA5, "neighbour untouched");
  CHECK_EQ(buf[3], 0xA5, "neighbour untouched");
  /* random bytes: the load equals the nibble sign-extended by hand */
  for (round = 0; round < 200; round++) {
    for (i = 0; i < 8; i++) buf[i] = (uint8_t)th_rand32();
    for (i = 0; i < 16; i++) {
      int nib = (buf[i / 2] >> (4 * (i % 2))) & 15;
      CHECK_EQ(mrtq__load(buf, (size_t)i, MRTQ_S4), nib >= 8 ? nib - 16 : nib, "round %d element %d", round, i);
    }
    /* store every element back into a fresh buffer: the same bytes */
    memset(want, 0, sizeof want);
    for (i = 0; i < 16; i++) mrtq__store(want, (size_t)i, MRTQ_S4, mrtq__load(buf, (size_t)i, MRTQ_S4));
    CHECK(memcmp(want, buf, sizeof buf) == 0);
  }
  for (v = -20; v <= 20; v++) CHECK_EQ(mrtq__in_type(v, MRTQ_S4), v >= -8 && v <= 7, "v %d", v);
}

static void test_other_types(void) {
  int8_t s8[3] = {INT8_MIN, -1, INT8_MAX};
  uint8_t u8[3] = {0, 128, UINT8_MAX};
  int16_t s16[3] = {INT16_MIN, -1, INT16_MAX}, o16[3];
  int32_t s32[3] = {INT32_MIN, -1, INT32_MAX}, o32[3];
  int i;
  for (i = 0; i < 3; i++) {
    CHECK_EQ(mrtq__load(s8, (size_t)i, MRTQ_S8), s8[i], "s8 %d", i);
    CHECK_EQ(mrtq__load(u8, (size_t)i, MRTQ_U8), u8[i], "u8 %d", i);
    CHECK_EQ(mrtq__load(s16, (size_t)i, MRTQ_S16), s16[i], "s16 %d", i);
    CHECK_EQ(mrtq__load(s32, (size_t)i, MRTQ_S32), s32[i], "s32 %d", i);
    mrtq__store(o16, (size_t)i, MRTQ_S16, s16[i]);
    mrtq__store(o32, (size_t)i, MRTQ_S32, s32[i]);
    CHECK_EQ(o16[i], s16[i], "s16 store %d", i);
    CHECK_EQ(o32[i], s32[i], "s32 store %d", i);
  }
  { /* wider elements at any byte address (the buffers are void *): byte-exact little- or big-endian alike */
    unsigned char raw[16];
    int off;
    for (off = 1; off < 4; off++) {
      int16_t h = -12345, h2;
      int32_t w = INT32_MIN + 7, w2;
      memset(raw, 0, sizeof raw);
      mrtq__store(raw + off, 1, MRTQ_S16, h);
      memcpy(&h2, raw + off + 2, 2);
      CHECK_EQ(h2, h, "s16 store at offset %d", off);
      CHECK_EQ(mrtq__load(raw + off, 1, MRTQ_S16), h, "s16 load at offset %d", off);
      mrtq__store(raw + off, 2, MRTQ_S32, w);
      memcpy(&w2, raw + off + 8, 4);
      CHECK_EQ(w2, w, "s32 store at offset %d", off);
      CHECK_EQ(mrtq__load(raw + off, 2, MRTQ_S32), w, "s32 load at offset %d", off);
    }
  }
  CHECK(mrtq__in_type(INT16_MAX, MRTQ_S16) && !mrtq__in_type(INT16_MAX + 1, MRTQ_S16));
  CHECK(mrtq__in_type(INT16_MIN, MRTQ_S16) && !mrtq__in_type(INT16_MIN - 1, MRTQ_S16));
  CHECK(mrtq__in_type(INT32_MIN, MRTQ_S32) && !mrtq__in_type((int64_t)INT32_MIN - 1, MRTQ_S32));
  CHECK(mrtq__in_type(255, MRTQ_U8) && !mrtq__in_type(256, MRTQ_U8) && !mrtq__in_type(-1, MRTQ_U8));
  CHECK(!mrtq__in_type(0, (mrtq_dtype)0));
}

static void test_status_str(void) {
  int s;
  CHECK(strcmp(mrtq_status_str(MRTQ_OK), "ok") == 0);
  for (s = 1; s <= 5; s++) {
    const char *t = mrtq_status_str((mrtq_status)s);
    CHECK(t && strcmp(t, "unknown status") != 0 && strcmp(t, "ok") != 0);
  }
  CHECK(strcmp(mrtq_status_str((mrtq_status)6), "unknown status") == 0);
  CHECK_EQ(MRTQ_VERSION, MRTQ_VERSION_MAJOR * 10000 + MRTQ_VERSION_MINOR * 100 + MRTQ_VERSION_PATCH, "version");
}

int main(void) {
  TH_RUN(test_dtype_describe);
  TH_RUN(test_dtype_bytes);
  TH_RUN(test_dtype_range_refusals);
  TH_RUN(test_s4_packing);
  TH_RUN(test_other_types);
  TH_RUN(test_status_str);
  return th_finish("test_common");
}
