#ifndef QUIRE_CCAIRO_SHIM_H
#define QUIRE_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-xlib.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#endif
