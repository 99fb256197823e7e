// pb-fake-cluster: stand-ins for kubectl, helm and sleep, for tests that run deployment scripts
// (tst_bundlescripts). Installed as links named kubectl, helm and sleep first on PATH, it answers from
// the scripted cluster in $PB_FAKE_STATE (Cluster.h), applies the changes a command makes there, and
// appends every call to $PB_FAKE_LOG, one JSON array per line: [tool, working directory, args...].
// sleep returns at once. `pb-fake-cluster TOOL ARGS...` runs a tool without a link.
#include "Cluster.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace fakecluster {

bool Cluster::load(const QString& file, QString* error) {
    path = file;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the cluster state %1: %2").arg(file, f.errorString());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        *error = QStringLiteral("the cluster state %1 is not a JSON object: %2").arg(file, pe.errorString());
        return false;
    }
    state = doc.object();
    return true;
}

bool Cluster::save(QString* error) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(state).toJson()) < 0 || !f.commit()) {
        *error = QStringLiteral("cannot write the cluster state %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace fakecluster

namespace {

// One line per call, written with a single append so that calls running side by side (a pipeline,
// a process substitution) do not interleave.
bool logCall(const QString& tool, const QStringList& args) {
    const QByteArray logPath = qgetenv("PB_FAKE_LOG");
    if (logPath.isEmpty())
        return true;
    QJsonArray entry{tool, QDir::currentPath()};
    for (const QString& a : args)
        entry.append(a);
    const QByteArray line = QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n';
    const int fd = ::open(logPath.constData(), O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, line.constData(), static_cast<size_t>(line.size())) == line.size();
    ::close(fd);
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    QString tool = QFileInfo(QString::fromLocal8Bit(argv[0])).fileName();
    if (tool == QLatin1String("pb-fake-cluster")) {
        if (args.isEmpty()) {
            std::fputs("usage: pb-fake-cluster kubectl|helm|sleep ARGS...\n", stderr);
            return 2;
        }
        tool = args.takeFirst();
    }
    if (!logCall(tool, args)) {
        std::fputs("pb-fake-cluster: cannot append to $PB_FAKE_LOG\n", stderr);
        return 2;
    }
    if (tool == QLatin1String("sleep")) {
        bool ok = false;
        args.value(0).toDouble(&ok);
        if (!ok) {
            std::fputs("sleep: invalid time interval\n", stderr);
            return 1;
        }
        return 0;
    }
    if (tool != QLatin1String("kubectl") && tool != QLatin1String("helm")) {
        std::fprintf(stderr, "pb-fake-cluster: no stand-in for '%s'\n", qPrintable(tool));
        return 2;
    }
    fakecluster::Cluster cluster;
    QString error;
    if (!cluster.load(QString::fromLocal8Bit(qgetenv("PB_FAKE_STATE")), &error)) {
        std::fprintf(stderr, "pb-fake-cluster: %s\n", qPrintable(error));
        return 2;
    }
    std::fflush(stdout);
    const int rc = tool == QLatin1String("kubectl") ? fakecluster::kubectl(cluster, args)
                                                    : fakecluster::helm(cluster, args);
    std::fflush(stdout);
    if (cluster.changed && !cluster.save(&error)) {
        std::fprintf(stderr, "pb-fake-cluster: %s\n", qPrintable(error));
        return 2;
    }
    return rc;
}
