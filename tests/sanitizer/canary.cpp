// Proof that the sanitizer build really catches what it is there to catch: each mode commits one
// error on purpose, and CTest passes only when the sanitizer's report appears. If the flags fell
// out of the build (or LeakSanitizer were switched off), these tests would fail, not the suite
// silently pass. Built with PB_SANITIZE (all three) or PB_LEAK_CHECK (the leak).
#include <climits>
#include <cstdio>
#include <cstring>

namespace {

volatile int g_sink;

// Each allocation's only pointer goes through a volatile global that is then cleared: an optimising
// build can neither drop the allocations (GCC removes a `new` whose result never escapes) nor keep
// every pointer in a register; LeakSanitizer reports them at exit.
void* volatile g_leaked;

__attribute__((noinline)) void leakSome() {
    for (int i = 0; i < 64; ++i) {
        g_leaked = new char[64 + i];
        g_leaked = nullptr;
    }
}

int leak() {
    leakSome();
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
