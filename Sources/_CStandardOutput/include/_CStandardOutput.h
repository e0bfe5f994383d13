#ifndef C_STANDARD_OUTPUT_H
#define C_STANDARD_OUTPUT_H

/// Flushes every output stream and says whether standard output lost a write:
/// the flush failed, or an earlier write did (output larger than the buffer
/// meets a full disk before the exit). Swift 6 cannot read the C library's
/// `stdout` variable safely, so the question is asked here.
int standard_output_failed(void);

#endif
