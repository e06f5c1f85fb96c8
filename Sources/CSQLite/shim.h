#ifndef SPLITD_CSQLITE_SHIM_H
#define SPLITD_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
