// The one system call Swift's Glibc module does not expose: renameat2 is
// declared only under _GNU_SOURCE.
#define _GNU_SOURCE
#include "_CFolderSwap.h"

#include <fcntl.h>
#include <stdio.h>

int folder_swap(const char *first, const char *second) {
#if defined(__APPLE__)
  return renamex_np(first, second, RENAME_SWAP);
#else
  return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#endif
}
