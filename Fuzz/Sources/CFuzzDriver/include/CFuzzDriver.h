#ifndef KEYFRAME_CFUZZDRIVER_H
#define KEYFRAME_CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): parses the command line and runs `callback` on
/// every input. Called from each fuzzer's `<Target>_main`, the symbol SwiftPM links as `main`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
