#ifndef SPLITD_CLIBUV_SHIM_H
#define SPLITD_CLIBUV_SHIM_H
#include <uv.h>
#endif
