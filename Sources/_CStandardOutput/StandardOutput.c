#include "_CStandardOutput.h"

#include <stdio.h>

int standard_output_failed(void) {
  int flushFailed = fflush(NULL) != 0;
  return flushFailed || ferror(stdout);
}
