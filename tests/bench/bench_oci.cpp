// Benchmark (issue #11): pushing and pulling a ~200 MB deployment bundle over loopback with the
// Proofbench registry client, against `skopeo copy` of the same artifact in the same run, both ways,
// to and from a local Debian docker-registry this program starts on 127.0.0.1.
//
//   pb_bench_oci [MB=200] [RUNS=3]
//
// The bundle (files of deterministic, incompressible bytes) is packed once into an OCI layout
// (one tar+gzip layer, as `bundle push` does); each run then pushes that layout to a fresh
// repository (Proofbench, then skopeo, alternating the order) and pulls it into a fresh layout.
// Medians are reported, with the ratio Proofbench / skopeo (goal <= 1.2), and one JSON line.
#include "DockerRegistry.h"
#include "oci/Artifact.h"
#include "oci/Layout.h"
#include "oci/Reference.h"
#include "oci/Registry.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace pb;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

using pbtest::canConnectLoopback;
using pbtest::freeLoopbackPort;

// Deterministic incompressible bytes (xorshift), so gzip cannot shrink the bundle.
void writeNoise(const QString& path, qint64 bytes, quint64 seed) {
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    QByteArray buf(1 << 20, Qt::Uninitialized);
    quint64 s = seed | 1;
    for (qint64 done = 0; done < bytes;) {
        auto* w = reinterpret_cast<quint64*>(buf.data());
        for (qsizetype i = 0; i < buf.size() / 8; ++i) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            w[i] = s;
        }
        const qint64 n = std::min<qint64>(buf.size(), bytes - done);
        f.write(buf.constData(), n);
        done += n;
    }
}

int skopeo(const QStringList& args) {
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(QStringLiteral("skopeo"), args);
    p.waitForFinished(-1);
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    const int mb = a.size() > 1 ? a[1].toInt() : 200;
    const int runs = a.size() > 2 ? a[2].toInt() : 3;
    QTemporaryDir tmp;
    // skopeo needs a policy; ours must not depend on the machine's.
    const QString policy = tmp.filePath(QStringLiteral("policy.json"));
    {
        QFile f(policy);
        f.open(QIODevice::WriteOnly);
        f.write("{\"default\":[{\"type\":\"insecureAcceptAnything\"}]}");
    }
    // A fresh registry per run: skopeo remembers where it has seen a blob (its blob-info cache) and
    // would mount it from an earlier repository instead of uploading; a new registry has nothing to
    // mount from, so both sides really transfer every byte.
    QProcess reg;
    int regCount = 0;
    auto startRegistry = [&]() -> QString {
        if (reg.state() != QProcess::NotRunning) {
            reg.terminate();
            reg.waitForFinished(5000);
        }
        const quint16 port = freeLoopbackPort();
        const QString storage = tmp.filePath(QStringLiteral("storage-%1").arg(regCount));
        QFile cfg(tmp.filePath(QStringLiteral("config-%1.yml").arg(regCount)));
        ++regCount;
        cfg.open(QIODevice::WriteOnly);
        cfg.write("version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  "
                  "filesystem:\n    rootdirectory: " +
                  storage.toUtf8() + "\nhttp:\n  addr: 127.0.0.1:" + QByteArray::number(port) + "\n");
        cfg.close();
        reg.setProcessChannelMode(QProcess::MergedChannels);
        reg.setStandardOutputFile(tmp.filePath(QStringLiteral("registry.log")), QIODevice::Append);
        reg.start(QStringLiteral("docker-registry"), {QStringLiteral("serve"), cfg.fileName()});
        if (!reg.waitForStarted(10000)) {
            std::fprintf(stderr,
                         "bench-oci: cannot start docker-registry (install the docker-registry package)\n");
            std::exit(2);
        }
        QElapsedTimer wait;
        wait.start();
        while (!canConnectLoopback(port) && wait.elapsed() < 20000)
            QThread::msleep(50); // startup only, outside any measurement
        return QStringLiteral("127.0.0.1:%1").arg(port);
    };

    // The bundle: 20 files of deterministic noise, packed once (gzip level 1: packing is not measured).
    const QString bundle = tmp.filePath(QStringLiteral("bundle"));
    QDir().mkpath(bundle);
    const int files = 20;
    for (int i = 0; i < files; ++i) {
        QDir().mkpath(bundle + QStringLiteral("/%1-component").arg(i, 3, 10, QLatin1Char('0')));
        writeNoise(bundle + QStringLiteral("/%1-component/chart.bin").arg(i, 3, 10, QLatin1Char('0')),
                   qint64(mb) * 1024 * 1024 / files, quint64(i) + 1);
    }
    const QString staged = tmp.filePath(QStringLiteral("staged"));
    Result<oci::Layout> layout = oci::Layout::open(staged);
    const QString layerTemp = layout->tempPath();
    QElapsedTimer packTimer;
    packTimer.start();
    Result<oci::Descriptor> layer = oci::packDirectory(bundle, layerTemp, {}, 1);
    if (!layer) {
        std::fprintf(stderr, "bench-oci: %s\n", qPrintable(layer.error().toString()));
        return 1;
    }
    const double packMs = double(packTimer.nsecsElapsed()) / 1e6;
    Result<oci::Descriptor> manifest = oci::stageArtifact(
        *layout, layerTemp, *layer, QLatin1String(oci::kDeploymentBundleArtifact), {}, QStringLiteral("v1"));
    const double layerMb = double(layer->size) / (1024.0 * 1024.0);

    oci::ClientOptions opts;
    opts.plainHttp = true;
    opts.credentials = oci::Credentials{};
    std::vector<double> pbPush, skPush, pbPull, skPull;
    for (int r = 0; r < runs; ++r) {
        const QString host = startRegistry();
        const QString pbRepo = QStringLiteral("%1/pb/bundle-%2").arg(host).arg(r);
        const QString skRepo = QStringLiteral("%1/sk/bundle-%2").arg(host).arg(r);
        auto pushPb = [&] {
            oci::Client client(opts);
            QElapsedTimer t;
            t.start();
            Result<oci::PushResult> res =
                client.push(*layout, *manifest, *oci::parseReference(pbRepo + QStringLiteral(":v1")));
            const double ms = double(t.nsecsElapsed()) / 1e6;
            if (!res) {
                std::fprintf(stderr, "bench-oci: push: %s\n", qPrintable(res.error().toString()));
                std::exit(1);
            }
            pbPush.push_back(ms);
        };
        auto pushSk = [&] {
            QElapsedTimer t;
            t.start();
            const int rc = skopeo({QStringLiteral("--policy"), policy, QStringLiteral("copy"),
                                   QStringLiteral("--dest-tls-verify=false"),
                                   QStringLiteral("oci:") + staged + QStringLiteral(":v1"),
                                   QStringLiteral("docker://") + skRepo + QStringLiteral(":v1")});
            skPush.push_back(double(t.nsecsElapsed()) / 1e6);
            if (rc != 0)
                std::exit(1);
        };
        if (r % 2 == 0) {
            pushPb();
            pushSk();
        } else {
            pushSk();
            pushPb();
        }
        auto pullPb = [&] {
            const QString dir = tmp.filePath(QStringLiteral("pb-pull-%1").arg(r));
            oci::Client client(opts);
            Result<oci::Layout> l = oci::Layout::open(dir);
            QElapsedTimer t;
            t.start();
            Result<oci::PullResult> res =
                client.pull(*oci::parseReference(pbRepo + QStringLiteral(":v1")), *l);
            const double ms = double(t.nsecsElapsed()) / 1e6;
            if (!res) {
                std::fprintf(stderr, "bench-oci: pull: %s\n", qPrintable(res.error().toString()));
                std::exit(1);
            }
            pbPull.push_back(ms);
            QDir(dir).removeRecursively();
        };
        auto pullSk = [&] {
            const QString dir = tmp.filePath(QStringLiteral("sk-pull-%1").arg(r));
            QElapsedTimer t;
            t.start();
            const int rc = skopeo({QStringLiteral("--policy"), policy, QStringLiteral("copy"),
                                   QStringLiteral("--src-tls-verify=false"),
                                   QStringLiteral("docker://") + skRepo + QStringLiteral(":v1"),
                                   QStringLiteral("oci:") + dir + QStringLiteral(":v1")});
            skPull.push_back(double(t.nsecsElapsed()) / 1e6);
            QDir(dir).removeRecursively();
            if (rc != 0)
                std::exit(1);
        };
        if (r % 2 == 0) {
            pullPb();
            pullSk();
        } else {
            pullSk();
            pullPb();
        }
    }
    reg.terminate();
    reg.waitForFinished(5000);

    const double pPush = median(pbPush), sPush = median(skPush), pPull = median(pbPull),
                 sPull = median(skPull);
    std::printf("layer %.1f MB (packed once in %.0f ms at gzip level 1), %d runs, medians:\n", layerMb,
                packMs, runs);
    std::printf("  push  proofbench %8.0f ms (%6.1f MB/s)   skopeo copy %8.0f ms (%6.1f MB/s)   ratio %.2f\n",
                pPush, layerMb / (pPush / 1000), sPush, layerMb / (sPush / 1000), pPush / sPush);
    std::printf("  pull  proofbench %8.0f ms (%6.1f MB/s)   skopeo copy %8.0f ms (%6.1f MB/s)   ratio %.2f\n",
                pPull, layerMb / (pPull / 1000), sPull, layerMb / (sPull / 1000), pPull / sPull);
    const QJsonObject j{{QStringLiteral("layerMB"), layerMb},
                        {QStringLiteral("runs"), runs},
                        {QStringLiteral("pushMs"), pPush},
                        {QStringLiteral("skopeoPushMs"), sPush},
                        {QStringLiteral("pushRatio"), pPush / sPush},
                        {QStringLiteral("pullMs"), pPull},
                        {QStringLiteral("skopeoPullMs"), sPull},
                        {QStringLiteral("pullRatio"), pPull / sPull}};
    std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    return 0;
}
