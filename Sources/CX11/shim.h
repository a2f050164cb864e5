#ifndef QUIRE_CX11_SHIM_H
#define QUIRE_CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/Xresource.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>

/* Function-like macros are not imported into Swift; these wrap the ones Quire needs. */
static inline int quire_DefaultScreen(Display *d) { return DefaultScreen(d); }
static inline Window quire_RootWindow(Display *d, int s) { return RootWindow(d, s); }
static inline Visual *quire_DefaultVisual(Display *d, int s) { return DefaultVisual(d, s); }
static inline int quire_DefaultDepth(Display *d, int s) { return DefaultDepth(d, s); }
static inline unsigned long quire_BlackPixel(Display *d, int s) { return BlackPixel(d, s); }
static inline unsigned long quire_WhitePixel(Display *d, int s) { return WhitePixel(d, s); }
static inline int quire_DisplayWidth(Display *d, int s) { return DisplayWidth(d, s); }
static inline int quire_DisplayHeight(Display *d, int s) { return DisplayHeight(d, s); }
static inline int quire_DisplayWidthMM(Display *d, int s) { return DisplayWidthMM(d, s); }
static inline int quire_XIMaskLen(int event) { return XIMaskLen(event); }
static inline void quire_XISetMask(unsigned char *mask, int event) { XISetMask(mask, event); }
static inline int quire_XIMaskIsSet(const unsigned char *mask, int event) { return XIMaskIsSet(mask, event); }
static inline int quire_XDestroyImage(XImage *image) { return XDestroyImage(image); }
/* XCreateIC is variadic, which Swift cannot call: an input context for one window, committing
   text on key presses (no pre-edit or status area drawn by the client). */
static inline XIC quire_CreateIC(XIM im, Window w) {
    return XCreateIC(im, XNInputStyle, (long)(XIMPreeditNothing | XIMStatusNothing),
                     XNClientWindow, w, XNFocusWindow, w, (char *)NULL);
}
#endif
