// Without libFuzzer: replays every file under the directories given (seed corpora and the crashes
// fuzzing found, kept as regressions) through the target once. Registered with CTest, so each past
// crash stays fixed in every build, the sanitizer build included.
#include "FuzzUtil.h"

#include <QDirIterator>
#include <QFile>

#include <cstdio>

int main(int argc, char** argv) {
    int files = 0;
    for (int i = 1; i < argc; ++i) {
        QDirIterator it(QString::fromLocal8Bit(argv[i]), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray b = f.read(8 * 1024 * 1024);
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(b.constData()),
                                   static_cast<size_t>(b.size()));
            ++files;
        }
    }
    std::printf("replayed %d inputs\n", files);
    return files > 0 ? 0 : 1;
}
