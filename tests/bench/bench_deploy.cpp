// Benchmark (issue #7): sealing and verifying a 5,000-file deployment bundle, against sha256sum over
// the same files in the same run (hashing is the bound). Prints one JSON line per measurement.
//
//   pb_bench_deploy [FILES=5000] [RUNS=5]
//
// The tree mixes the file sizes of real bundles (scripts and values of a few KiB, rendered
// manifests of tens of KiB, every 100th file a 1 MiB vendored chart). All runs are warm (page cache),
// alternating sides; the median is reported. Our hashing runs on Qt's thread pool: it is measured
// with all cores and with one thread, since sha256sum uses one.
#include "bundle/DeploymentBundle.h"
#include "sigstore/Keys.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace pb;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void writeTree(const QString& root, int files, qint64* bytes) {
    static const int sizes[] = {2048, 6144, 16384, 65536};
    QByteArray block(1 << 20, 'x');
    for (int i = 0; i < files; ++i) {
        const QString dir =
            root + QStringLiteral("/%1-component-%2").arg(i / 50, 3, 10, QLatin1Char('0')).arg(i / 50);
        QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/file-%1.yaml").arg(i));
        f.open(QIODevice::WriteOnly);
        const int size = i % 100 == 99 ? (1 << 20) : sizes[i % 4];
        block[0] = char('a' + i % 26); // distinct content
        f.write(block.constData(), size);
        *bytes += size;
    }
}

double sha256sumSeconds(const QString& dir) {
    QElapsedTimer t;
    t.start();
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral("sh"),
            {QStringLiteral("-c"),
             QStringLiteral("find . -type f ! -name checksums.txt ! -path './attestation/*' -print0 "
                            "| sort -z | xargs -0 sha256sum > /dev/null")});
    p.waitForFinished(-1);
    return t.nsecsElapsed() / 1e9;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int files = argc > 1 ? atoi(argv[1]) : 5000;
    const int runs = argc > 2 ? atoi(argv[2]) : 5;
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("bundle"));
    qint64 bytes = 0;
    writeTree(dir, files, &bytes);
    sigstore::crypto::Pkey key = sigstore::generateSigningKey();
    deploy::VerifyOptions opts;
    opts.policy.publicKeyPem = sigstore::publicKeyPem(key.get());
    opts.policy.ignoreTlog = true;
    const int cores = QThreadPool::globalInstance()->maxThreadCount();

    std::vector<double> sum, sign, verify, sign1, verify1;
    sha256sumSeconds(dir); // warm the page cache
    for (int r = 0; r < runs; ++r) {
        sum.push_back(sha256sumSeconds(dir));
        for (const int threads : {cores, 1}) {
            QThreadPool::globalInstance()->setMaxThreadCount(threads);
            QElapsedTimer t;
            t.start();
            auto report = deploy::signDeploymentBundle(dir, key.get());
            const double s = t.nsecsElapsed() / 1e9;
            if (!report || report->files != files) {
                fprintf(stderr, "sign failed\n");
                return 1;
            }
            t.restart();
            const auto v = deploy::verifyDeploymentBundle(dir, opts);
            const double vs = t.nsecsElapsed() / 1e9;
            if (v.level != deploy::TrustLevel::Attested) {
                fprintf(stderr, "verify failed: %s\n", qPrintable(v.toText()));
                return 1;
            }
            (threads == 1 ? sign1 : sign).push_back(s);
            (threads == 1 ? verify1 : verify).push_back(vs);
        }
    }
    const double base = median(sum);
    auto line = [&](const char* name, const std::vector<double>& v, int threads) {
        printf("{\"name\": \"%s\", \"files\": %d, \"mib\": %.1f, \"threads\": %d, \"seconds\": %.3f, "
               "\"vsSha256sum\": %.2f}\n",
               name, files, bytes / 1048576.0, threads, median(v), median(v) / base);
    };
    printf("{\"name\": \"sha256sum\", \"files\": %d, \"mib\": %.1f, \"threads\": 1, \"seconds\": %.3f}\n",
           files, bytes / 1048576.0, base);
    line("bundle sign", sign, cores);
    line("bundle verify", verify, cores);
    line("bundle sign", sign1, 1);
    line("bundle verify", verify1, 1);
    return 0;
}
