// Proof that the sanitizer build really catches what it is there to catch: each mode commits one
// error on purpose, and CTest passes only when the sanitizer's report appears. If the flags fell
// out of the build (or LeakSanitizer were switched off), these tests would fail, not the suite
// silently pass. Built only with PB_SANITIZE.
#include <climits>
#include <cstdio>
#include <cstring>

namespace {

volatile int g_sink;

int leak() {
    int* p = new int[16];
    p[0] = 1;
    g_sink = p[0];
    p = nullptr; // the only pointer is gone: LeakSanitizer reports it at exit
    return 0;
}

int heapOverflow() {
    int* p = new int[4];
    volatile int i = 4;
    g_sink = p[i]; // one past the end
    delete[] p;
    return 0;
}

int signedOverflow() {
    volatile int big = INT_MAX;
    g_sink = big + 1;
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "leak") == 0)
        return leak();
    if (std::strcmp(mode, "heap-overflow") == 0)
        return heapOverflow();
    if (std::strcmp(mode, "signed-overflow") == 0)
        return signedOverflow();
    std::fprintf(stderr, "usage: pb_sanitizer_canary leak|heap-overflow|signed-overflow\n");
    return 2;
}
