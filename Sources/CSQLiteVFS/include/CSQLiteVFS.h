#ifndef SPLITD_CSQLITEVFS_H
#define SPLITD_CSQLITEVFS_H

/// The name of the VFS registered by `splitd_register_coalescing_vfs`.
#define SPLITD_COALESCING_VFS_NAME "splitd-unix"

/// Registers (once; later calls return the first result) a VFS named "splitd-unix" that wraps
/// the default one and writes a commit's WAL frames with one write: SQLite writes each frame's
/// 24-byte header and its page as two separate writes at adjacent offsets; the frames are held
/// back until the page of the frame that commits and written with it. Everything else is
/// passed through unchanged. Returns SQLITE_OK or an SQLite error code.
int splitd_register_coalescing_vfs(void);

typedef struct sqlite3 sqlite3;

/// What the coalescing VFS wrote to the WAL of `db`'s main database since the connection
/// opened it: frames whose header went out joined with their page, headers written alone
/// (another call came between), and the write calls of held frames (one per commit that fits
/// the limit), and the bytes held back now. SQLITE_NOTFOUND when the WAL is not open or not
/// this VFS's. Call it on the connection's own thread.
int splitd_coalescing_wal_counts(sqlite3 *db, long long *joined, long long *alone, long long *writes, long long *held);

#endif
