#ifndef QUIRE_ZLIB_SHIM_H
#define QUIRE_ZLIB_SHIM_H
#include <zlib.h>
/* inflateInit2 is a macro: wrap it so Swift can call it. */
static inline int quire_inflateInit2(z_streamp strm, int windowBits) { return inflateInit2(strm, windowBits); }
#endif
