// ConfigHub-style records and the receipts ledger's canonical JSON. The input replaces one file of
// a complete recipe entry (tests/fixtures/receipts/entry: every record kind, the digest index,
// checksums lists), so the other records stay valid and the cross-record checks (digest index,
// shared digests, checksums, stage table) run against it; then readRecords reports it as text and
// JSON. The first byte picks the file; the last choice feeds the input to the canonical JSON writer
// the ledger hashes.
#include "FuzzUtil.h"

#include "receipts/Canonical.h"
#include "receipts/Records.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <algorithm>
#include <memory>
#include <vector>

namespace {

struct Entry {
    std::unique_ptr<QTemporaryDir> dir;
    std::vector<QString> files; // the files the fuzzer may replace, sorted
    std::vector<QByteArray> originals;
};

bool copyTree(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + QLatin1Char('/') + QDir(from).relativeFilePath(src);
        if (!QDir().mkpath(QFileInfo(dst).absolutePath()) || !QFile::copy(src, dst))
            return false;
    }
    return true;
}

Entry& entry() {
    static Entry e = [] {
        // /dev/shm when there is one: the fuzzer rewrites a file per input.
        const QString base =
            QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath();
        Entry x;
        x.dir = std::make_unique<QTemporaryDir>(base + QStringLiteral("/pb-fuzz-receipts-XXXXXX"));
        if (!x.dir->isValid() ||
            !copyTree(QStringLiteral(PB_SOURCE_DIR "/tests/fixtures/receipts/entry"), x.dir->path()))
            qFatal("fuzz_receipts: cannot copy tests/fixtures/receipts/entry");
        QDirIterator it(x.dir->path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            if (f.endsWith(QLatin1String(".yaml")) || f.endsWith(QLatin1String(".json")) ||
                f.endsWith(QLatin1String("checksums.txt")))
                x.files.push_back(f);
        }
        std::sort(x.files.begin(), x.files.end());
        for (const QString& f : x.files) {
            QFile file(f);
            file.open(QIODevice::ReadOnly);
            x.originals.push_back(file.readAll());
        }
        return x;
    }();
    return e;
}

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(bytes);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    Entry& e = entry();
    const size_t choice = data[0] % (e.files.size() + 1);
    if (choice == e.files.size()) {
        const QJsonDocument doc = QJsonDocument::fromJson(in);
        (void)pb::receipts::canonicalJson(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()));
        return 0;
    }
    write(e.files[choice], in);
    pb::Result<pb::receipts::RecordsReport> r = pb::receipts::readRecords(e.dir->path());
    if (r) {
        (void)r->toText();
        (void)QJsonDocument(r->toJson()).toJson();
    }
    write(e.files[choice], e.originals[choice]);
    return 0;
}
