#ifndef SPLITD_CSQLITEVFS_H
#define SPLITD_CSQLITEVFS_H

/// The name of the VFS registered by `splitd_register_coalescing_vfs`.
#define SPLITD_COALESCING_VFS_NAME "splitd-unix"

/// Registers (once; later calls return the first result) a VFS named "splitd-unix" that wraps
/// the default one and writes each WAL frame with one write instead of two: SQLite writes a
/// frame's 24-byte header and its page as two separate writes at adjacent offsets; the header
/// is held back and written with the page. Everything else is passed through unchanged.
/// Returns SQLITE_OK or an SQLite error code.
int splitd_register_coalescing_vfs(void);

/// Writes issued to the files below since the process started: WAL frame headers that went
/// out joined with their page, and those written alone (another call came between).
void splitd_coalescing_vfs_counts(long long *joined, long long *alone);

#endif
