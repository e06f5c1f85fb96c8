// A pass-through VFS over SQLite's default (unix) one that writes a commit's WAL frames with
// one write call: SQLite's walWriteOneFrame() writes each frame's 24-byte header and then its
// page at the very next offset, two pwrite calls per frame, ~6 frames per commit of the
// daemon. Here frames appended to the WAL are held back, contiguous, until the page of the
// frame that commits (its header says so), and go out together in that page's write call.
//
// Why this is safe:
// - A commit's frames are all written by the time its last page's write returns. SQLite
//   publishes a commit in the WAL index (what readers and checkpoints go by) only after that,
//   so no reader can look for a frame that is not in the file, and the daemon's fdatasync of
//   the WAL, after the commit returned, covers all of it.
// - Only frames appended where the latest write ended are held. SQLite also writes headers
//   elsewhere: over a frame a cache spill wrote and the transaction changed again, and, when
//   that happened, over every header from there on to rewrite the checksums after the commit
//   frame's page (walRewriteChecksums, the commit frame's header last). Those go out at once:
//   held, that last header would have stayed in memory after the commit returned.
// - Any other call on this file (a read, a sync, a size, a truncate, a write elsewhere)
//   first writes what is held: frames a transaction spills before it commits are read back
//   through it. Shared memory and locks are the database file's, not this file's.
// - A held write that fails stays held, and every later call fails with it until it is
//   written: SQLite counts those frames as written, so they are never dropped, and the
//   transaction that meets the error fails instead of committing without them.
// - Frames of a transaction that rolls back after a spill are written at this connection's
//   next call on the WAL, past the committed end, where the next transaction writes over
//   them (checksums chain, so recovery never takes them). Safe while this connection is the
//   WAL's only writer, which the daemon's writer lock makes it among splitd's; a program
//   writing to the database while the daemon runs is not supported anyway.
// - Without powersafe overwrite SQLite pads a commit to a sector boundary and may split a
//   frame's write around a sync; such files are passed through (the unix VFS claims it by
//   default; SQLite asks the database file, this checks the WAL file, which agree unless a
//   URI says otherwise, and a split write is followed by a sync, which writes what is held).
// A crash before the joined write leaves none of the commit's frames, which recovery treats
// like any commit that did not finish.

#include "CSQLiteVFS.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum {
    FRAME_HEADER_SIZE = 24,
    // Past this, what is held is written out and holding starts over (a large transaction).
    // The unix VFS writes at most 128 KiB - 1 per call (it masks the length to 17 bits and
    // takes the short write for a full disk); 120 KiB holds a commit of 29 frames of 4 KiB.
    HELD_LIMIT = 120 * 1024,
};

typedef struct CoalescingFile {
    sqlite3_file base;
    sqlite3_file *real;        // the default VFS's file, in the same allocation, after this struct
    int isWAL;
    int heldLength;            // bytes held back in `held`, from heldOffset on; 0: none
    int heldCommits;           // the last frame header held is a commit frame's
    sqlite3_int64 heldOffset;
    sqlite3_int64 writeEnd;    // where the latest write (held or not) ended; -1: none yet
    unsigned char *held;       // HELD_LIMIT bytes, allocated at the first frame held
    long long joinedFrames;    // frames whose header went out with their page
    long long aloneHeaders;    // headers written alone (another call came between)
    long long heldWrites;      // write calls of held frames
} CoalescingFile;

static sqlite3_vfs *defaultVFS;
static sqlite3_vfs coalescingVFS;
static sqlite3_io_methods coalescingMethods;
static int registration = -1;
static pthread_once_t registerOnce = PTHREAD_ONCE_INIT;

static sqlite3_file *real(sqlite3_file *file) { return ((CoalescingFile *)file)->real; }

/// Writes what is held out (before any other call on the file). When that fails, what is held
/// stays held and every later call fails with the same write until it succeeds: SQLite
/// counts the frames as written, so they must not be dropped, and whatever transaction
/// meets the error fails rather than commits without them.
static int releaseHeld(CoalescingFile *file) {
    if (file->heldLength == 0) return SQLITE_OK;
    int rc = file->real->pMethods->xWrite(file->real, file->held, file->heldLength, file->heldOffset);
    if (rc != SQLITE_OK) return rc;
    if (file->heldLength == FRAME_HEADER_SIZE) file->aloneHeaders += 1;
    file->heldWrites += 1;
    file->heldLength = 0;
    file->heldCommits = 0;
    return SQLITE_OK;
}

static int writeThrough(CoalescingFile *file, const void *buffer, int amount, sqlite3_int64 offset) {
    file->writeEnd = offset + amount;
    return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
}

// Every call but a held run's next write first writes what is held out.
#define RELEASE_HELD_OR_RETURN(file)                \
    do {                                            \
        int releasedCode = releaseHeld(file);       \
        if (releasedCode != SQLITE_OK) return releasedCode; \
    } while (0)

static int coalescingClose(sqlite3_file *base) {
    CoalescingFile *file = (CoalescingFile *)base;
    int released = releaseHeld(file);
    file->heldLength = 0;
    int closed = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->held);
    file->held = NULL;
    return released != SQLITE_OK ? released : closed;
}

static int coalescingRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    CoalescingFile *file = (CoalescingFile *)base;
    RELEASE_HELD_OR_RETURN(file);
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

/// Appends to what is held; 0 when it does not fit (then nothing changed).
static int hold(CoalescingFile *file, const void *buffer, int amount) {
    int total = file->heldLength + amount;
    if (total > HELD_LIMIT) return 0;
    if (file->held == NULL) {
        file->held = malloc(HELD_LIMIT);
        if (file->held == NULL) return 0;
    }
    memcpy(file->held + file->heldLength, buffer, (size_t)amount);
    file->heldLength = total;
    return 1;
}

/// A frame header's bytes 4-7: the database's size in pages after the commit for the frame
/// that commits a transaction, 0 for every other frame.
static int isCommitHeader(const unsigned char *header) {
    return (header[4] | header[5] | header[6] | header[7]) != 0;
}

static int coalescingWrite(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    CoalescingFile *file = (CoalescingFile *)base;
    if (!file->isWAL || amount <= 0) {
        RELEASE_HELD_OR_RETURN(file);
        return writeThrough(file, buffer, amount, offset);
    }
    int header = amount == FRAME_HEADER_SIZE;
    int continues = file->heldLength > 0 && offset == file->heldOffset + file->heldLength;
    if (!continues || !hold(file, buffer, amount)) {
        // Not the held run's next write, or too much held: out with it first.
        RELEASE_HELD_OR_RETURN(file);
        // A run starts only with a frame header appended where the latest write ended. A
        // header anywhere else rewrites a frame: one a cache spill wrote and the transaction
        // changed again, or a checksum rewrite after such a change (walRewriteChecksums, the
        // commit frame's header last), after which no write comes that would release it.
        if (!header || offset != file->writeEnd) return writeThrough(file, buffer, amount, offset);
        file->heldOffset = offset;
        if (!hold(file, buffer, amount)) return writeThrough(file, buffer, amount, offset);
    }
    file->writeEnd = offset + amount;
    if (header) {
        file->heldCommits = isCommitHeader(buffer);
        return SQLITE_OK;
    }
    file->joinedFrames += 1;
    // The commit's last page: everything goes out now, in this call.
    return file->heldCommits ? releaseHeld(file) : SQLITE_OK;
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
    file->writeEnd = -1;
    int rc = defaultVFS->xOpen(defaultVFS, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        // SQLite calls xClose only when pMethods is set; the inner file cleaned up itself.
        base->pMethods = NULL;
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    // Without powersafe overwrite SQLite pads a commit to a sector boundary and may split a
    // frame's write around a sync there: then the writes are not the header-and-page pairs
    // this file holds back, and it passes them through (the unix VFS claims it by default).
    int powersafe = (file->real->pMethods->xDeviceCharacteristics(file->real) & SQLITE_IOCAP_POWERSAFE_OVERWRITE) != 0;
    file->isWAL = (flags & SQLITE_OPEN_WAL) != 0 && powersafe;
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

int splitd_coalescing_wal_counts(sqlite3 *db, long long *joined, long long *alone, long long *writes, long long *held) {
    sqlite3_file *wal = NULL;
    int rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &wal);
    if (rc != SQLITE_OK) return rc;
    if (wal == NULL || wal->pMethods != &coalescingMethods || !((CoalescingFile *)wal)->isWAL) return SQLITE_NOTFOUND;
    CoalescingFile *file = (CoalescingFile *)wal;
    *joined = file->joinedFrames;
    *alone = file->aloneHeaders;
    *writes = file->heldWrites;
    *held = file->heldLength;
    return SQLITE_OK;
}
