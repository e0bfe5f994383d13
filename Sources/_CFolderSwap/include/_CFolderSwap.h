#ifndef C_FOLDER_SWAP_H
#define C_FOLDER_SWAP_H

/// Exchanges two existing paths in one atomic step (Linux renameat2 with
/// RENAME_EXCHANGE, macOS renamex_np with RENAME_SWAP): a reader sees the old
/// folder or the new one, never neither. Returns 0, or -1 with errno set.
int folder_swap(const char *first, const char *second);

#endif
