import CSQLite

// sqlite3.h defines extended codes as shift expressions, which Swift does not import.
// Values as in sqlite3.h: primary | (n << 8).
let SQLITE_IOERR_WRITE = SQLITE_IOERR | (3 << 8)
let SQLITE_IOERR_FSYNC = SQLITE_IOERR | (4 << 8)
let SQLITE_IOERR_TRUNCATE = SQLITE_IOERR | (6 << 8)
let SQLITE_BUSY_SNAPSHOT = SQLITE_BUSY | (2 << 8)
let SQLITE_CORRUPT_INDEX = SQLITE_CORRUPT | (3 << 8)
let SQLITE_READONLY_DBMOVED = SQLITE_READONLY | (4 << 8)
let SQLITE_CONSTRAINT_FOREIGNKEY = SQLITE_CONSTRAINT | (3 << 8)
let SQLITE_CONSTRAINT_PRIMARYKEY = SQLITE_CONSTRAINT | (6 << 8)
