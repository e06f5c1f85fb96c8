// A pass-through VFS over SQLite's default (unix) one that halves the write syscalls of the
// WAL: SQLite's walWriteOneFrame() writes the 24-byte frame header and then the page at the
// very next offset, two pwrite calls per frame (~6 frames per commit of the daemon). Here the
// header is held back and written together with the page, in one call.
//
// Why this is safe: the held header never outlives the frame's own page write (the next
// call SQLite makes on the file); any other call on the file first writes the header out.
// SQLite updates the WAL index (what readers and checkpoints go by) only after every frame
// of the commit was written, so no reader can look for a header that is not in the file,
// and a commit has returned only after its last page, and so every header, reached the
// kernel (the daemon's fdatasync of the WAL then covers all of it). A crash between the two
// writes leaves a frame without its header, which recovery treats like any torn frame.

#include "CSQLiteVFS.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { FRAME_HEADER_SIZE = 24 };

typedef struct CoalescingFile {
    sqlite3_file base;
    sqlite3_file *real;        // the default VFS's file, in the same allocation, after this struct
    int isWAL;
    int heldLength;            // 0, or FRAME_HEADER_SIZE while a header is held back
    sqlite3_int64 heldOffset;
    unsigned char held[FRAME_HEADER_SIZE];
    unsigned char *joined;     // header + page, grown to the largest page seen
    int joinedCapacity;
} CoalescingFile;

static sqlite3_vfs *defaultVFS;
static sqlite3_vfs coalescingVFS;
static sqlite3_io_methods coalescingMethods;
static int registration = -1;
static pthread_once_t registerOnce = PTHREAD_ONCE_INIT;
static atomic_llong joinedWrites;
static atomic_llong aloneHeaders;

static sqlite3_file *real(sqlite3_file *file) { return ((CoalescingFile *)file)->real; }

/// Writes a held header out on its own (before any other call on the file).
static int releaseHeld(CoalescingFile *file) {
    if (file->heldLength == 0) return SQLITE_OK;
    int length = file->heldLength;
    file->heldLength = 0;
    atomic_fetch_add_explicit(&aloneHeaders, 1, memory_order_relaxed);
    return file->real->pMethods->xWrite(file->real, file->held, length, file->heldOffset);
}

// Every call but the frame's own page write first writes a held header out.
#define RELEASE_HELD_OR_RETURN(file)                \
    do {                                            \
        int releasedCode = releaseHeld(file);       \
        if (releasedCode != SQLITE_OK) return releasedCode; \
    } while (0)

static int coalescingClose(sqlite3_file *base) {
    CoalescingFile *file = (CoalescingFile *)base;
    int released = releaseHeld(file);
    int closed = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->joined);
    file->joined = NULL;
    return released != SQLITE_OK ? released : closed;
}

static int coalescingRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int coalescingWrite(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    CoalescingFile *file = (CoalescingFile *)base;
    if (file->heldLength > 0) {
        if (offset == file->heldOffset + file->heldLength && amount > 0) {
            int total = file->heldLength + amount;
            if (total > file->joinedCapacity) {
                unsigned char *grown = realloc(file->joined, (size_t)total);
                if (grown == NULL) {
                    RELEASE_HELD_OR_RETURN(file);
                    return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
                }
                file->joined = grown;
                file->joinedCapacity = total;
            }
            // The inner file takes one buffer (its descriptor is not ours to pwritev on):
            // copying a page costs ~0.1 µs, a second write call several.
            memcpy(file->joined, file->held, (size_t)file->heldLength);
            memcpy(file->joined + file->heldLength, buffer, (size_t)amount);
            sqlite3_int64 start = file->heldOffset;
            file->heldLength = 0;
            atomic_fetch_add_explicit(&joinedWrites, 1, memory_order_relaxed);
            return file->real->pMethods->xWrite(file->real, file->joined, total, start);
        }
        RELEASE_HELD_OR_RETURN(file);
    }
    if (file->isWAL && amount == FRAME_HEADER_SIZE) {
        memcpy(file->held, buffer, FRAME_HEADER_SIZE);
        file->heldOffset = offset;
        file->heldLength = FRAME_HEADER_SIZE;
        return SQLITE_OK;
    }
    return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
}

static int coalescingTruncate(sqlite3_file *base, sqlite3_int64 size) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xTruncate(file->real, size);
}

static int coalescingSync(sqlite3_file *base, int flags) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xSync(file->real, flags);
}

static int coalescingFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xFileSize(file->real, size);
}

static int coalescingLock(sqlite3_file *base, int level) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xLock(file->real, level);
}

static int coalescingUnlock(sqlite3_file *base, int level) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xUnlock(file->real, level);
}

static int coalescingCheckReservedLock(sqlite3_file *base, int *result) {
    return real(base)->pMethods->xCheckReservedLock(real(base), result);
}

static int coalescingFileControl(sqlite3_file *base, int op, void *argument) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    if (op == SQLITE_FCNTL_VFSNAME) {
        // Name both layers, as SQLite's own shims do.
        int inner = file->real->pMethods->xFileControl(file->real, op, argument);
        if (inner == SQLITE_OK) {
            char **name = (char **)argument;
            char *joined = sqlite3_mprintf("%s/%s", SPLITD_COALESCING_VFS_NAME, *name);
            sqlite3_free(*name);
            *name = joined;
        }
        return inner;
    }
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int coalescingSectorSize(sqlite3_file *base) {
    return real(base)->pMethods->xSectorSize(real(base));
}

static int coalescingDeviceCharacteristics(sqlite3_file *base) {
    return real(base)->pMethods->xDeviceCharacteristics(real(base));
}

// The shared-memory and memory-map calls exist only from versions 2 and 3 of the inner
// file's methods (the default VFS's files have 3); without them SQLite's own fallbacks apply.
static int hasShm(sqlite3_file *base) {
    const sqlite3_io_methods *methods = real(base)->pMethods;
    return methods->iVersion >= 2 && methods->xShmMap != NULL;
}

static int hasFetch(sqlite3_file *base) {
    const sqlite3_io_methods *methods = real(base)->pMethods;
    return methods->iVersion >= 3 && methods->xFetch != NULL;
}

static int coalescingShmMap(sqlite3_file *base, int region, int size, int extend, void volatile **pointer) {
    if (!hasShm(base)) return SQLITE_IOERR_SHMMAP;
    return real(base)->pMethods->xShmMap(real(base), region, size, extend, pointer);
}

static int coalescingShmLock(sqlite3_file *base, int offset, int count, int flags) {
    if (!hasShm(base)) return SQLITE_IOERR_SHMLOCK;
    return real(base)->pMethods->xShmLock(real(base), offset, count, flags);
}

static void coalescingShmBarrier(sqlite3_file *base) {
    if (hasShm(base)) real(base)->pMethods->xShmBarrier(real(base));
}

static int coalescingShmUnmap(sqlite3_file *base, int deleteFlag) {
    if (!hasShm(base)) return SQLITE_OK;
    return real(base)->pMethods->xShmUnmap(real(base), deleteFlag);
}

static int coalescingFetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **pointer) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    if (!hasFetch(base)) {
        *pointer = NULL;  // "no mapping": SQLite reads instead
        return SQLITE_OK;
    }
    return file->real->pMethods->xFetch(file->real, offset, amount, pointer);
}

static int coalescingUnfetch(sqlite3_file *base, sqlite3_int64 offset, void *pointer) {
    if (!hasFetch(base)) return SQLITE_OK;
    return real(base)->pMethods->xUnfetch(real(base), offset, pointer);
}

static int coalescingOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    CoalescingFile *file = (CoalescingFile *)base;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    int rc = defaultVFS->xOpen(defaultVFS, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        // SQLite calls xClose only when pMethods is set; the inner file cleaned up itself.
        base->pMethods = NULL;
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    file->isWAL = (flags & SQLITE_OPEN_WAL) != 0;
    base->pMethods = &coalescingMethods;
    return SQLITE_OK;
}

static void registerVFS(void) {
    defaultVFS = sqlite3_vfs_find(NULL);
    if (defaultVFS == NULL || defaultVFS->iVersion < 1) {
        registration = SQLITE_ERROR;
        return;
    }
    // Everything but opening files is the default VFS's own (it is handed our sqlite3_vfs,
    // a copy of its own, pAppData included).
    coalescingVFS = *defaultVFS;
    coalescingVFS.pNext = NULL;
    coalescingVFS.zName = SPLITD_COALESCING_VFS_NAME;
    coalescingVFS.szOsFile = (int)sizeof(CoalescingFile) + defaultVFS->szOsFile;
    coalescingVFS.xOpen = coalescingOpen;

    coalescingMethods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = coalescingClose,
        .xRead = coalescingRead,
        .xWrite = coalescingWrite,
        .xTruncate = coalescingTruncate,
        .xSync = coalescingSync,
        .xFileSize = coalescingFileSize,
        .xLock = coalescingLock,
        .xUnlock = coalescingUnlock,
        .xCheckReservedLock = coalescingCheckReservedLock,
        .xFileControl = coalescingFileControl,
        .xSectorSize = coalescingSectorSize,
        .xDeviceCharacteristics = coalescingDeviceCharacteristics,
        .xShmMap = coalescingShmMap,
        .xShmLock = coalescingShmLock,
        .xShmBarrier = coalescingShmBarrier,
        .xShmUnmap = coalescingShmUnmap,
        .xFetch = coalescingFetch,
        .xUnfetch = coalescingUnfetch,
    };
    registration = sqlite3_vfs_register(&coalescingVFS, 0);
}

int splitd_register_coalescing_vfs(void) {
    pthread_once(&registerOnce, registerVFS);
    return registration;
}

void splitd_coalescing_vfs_counts(long long *joined, long long *alone) {
    if (joined) *joined = atomic_load_explicit(&joinedWrites, memory_order_relaxed);
    if (alone) *alone = atomic_load_explicit(&aloneHeaders, memory_order_relaxed);
}
