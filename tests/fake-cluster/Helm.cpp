// The fake helm: version, upgrade --install, uninstall, list and status against the scripted
// cluster. An install attempt fails as many times as the state says, optionally leaving behind the
// failed hook Job (and its pod) that a real failed post-install hook leaves.
#include "Cluster.h"

#include <QSet>

#include <cstdio>

namespace fakecluster {

namespace {

void out(const QString& s) {
    std::fputs(s.toUtf8().constData(), stdout);
}
void err(const QString& s) {
    std::fputs(s.toUtf8().constData(), stderr);
}

struct HelmArgs {
    QStringList words;
    QMap<QString, QStringList> flags;
    QSet<QString> switches;
    QString flag(const char* n) const { return flags.value(QLatin1String(n)).value(0); }
};

HelmArgs parse(const QStringList& argv) {
    static const QMap<QString, QString> shortNames{
        {"n", "namespace"}, {"f", "values"}, {"i", "install"}, {"o", "output"}, {"A", "all-namespaces"}};
    static const QSet<QString> valued{
        "namespace", "values",     "version",      "repo",     "timeout", "set",           "set-string",
        "set-file",  "kubeconfig", "kube-context", "template", "output",  "post-renderer", "description"};
    HelmArgs a;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString w = argv[i];
        if (w.size() < 2 || !w.startsWith(QLatin1Char('-'))) {
            a.words << w;
            continue;
        }
        QString name = w.startsWith(QLatin1String("--")) ? w.mid(2) : shortNames.value(w.mid(1), w.mid(1));
        QString value;
        bool inlineValue = false;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
            inlineValue = true;
        }
        if (valued.contains(name)) {
            if (!inlineValue && i + 1 < argv.size())
                value = argv[++i];
            a.flags[name] << value;
        } else {
            a.switches.insert(name);
        }
    }
    return a;
}

bool hasObject(const QJsonArray& objects, const QString& kind, const QString& ns, const QString& name) {
    for (const QJsonValue& v : objects) {
        const QJsonObject o = v.toObject(), m = o.value(QStringLiteral("metadata")).toObject();
        if (o.value(QStringLiteral("kind")).toString() == kind &&
            m.value(QStringLiteral("namespace")).toString() == ns &&
            m.value(QStringLiteral("name")).toString() == name)
            return true;
    }
    return false;
}

// What a failed post-install hook leaves: the Job (annotated as a hook, not succeeded) and its pod.
void leaveFailedHookJob(Cluster& c, const QString& release, const QString& ns) {
    QJsonArray objects = c.objects();
    const QString job = release + QStringLiteral("-hook");
    if (hasObject(objects, QStringLiteral("Job"), ns, job))
        return;
    objects.append(QJsonObject{
        {"apiVersion", "batch/v1"},
        {"kind", "Job"},
        {"metadata", QJsonObject{{"name", job},
                                 {"namespace", ns},
                                 {"annotations", QJsonObject{{"helm.sh/hook", "post-install,post-upgrade"},
                                                             {"helm.sh/hook-weight", "0"}}}}},
        {"status", QJsonObject{{"failed", 1}}}});
    objects.append(QJsonObject{{"apiVersion", "v1"},
                               {"kind", "Pod"},
                               {"metadata", QJsonObject{{"name", job + QStringLiteral("-x7k2p")},
                                                        {"namespace", ns},
                                                        {"labels", QJsonObject{{"job-name", job}}}}},
                               {"status", QJsonObject{{"phase", "Failed"}}}});
    c.setObjects(objects);
}

// True when this attempt at `release` is scripted to fail (and counts it).
bool attemptFails(Cluster& c, const QString& release) {
    QJsonObject helm = c.helm();
    QJsonObject failures = helm.value(QStringLiteral("failures")).toObject();
    const QString key = failures.contains(release) ? release : QStringLiteral("*");
    if (!failures.contains(key))
        return false;
    const int left = failures.value(key).toInt();
    if (left == 0)
        return false;
    if (left > 0 && key == release) {
        failures[key] = left - 1;
    } else if (left > 0) {
        // "*" counts per release: the first time a release is seen it takes the wildcard's count.
        failures[release] = left - 1;
    }
    helm[QStringLiteral("failures")] = failures;
    c.setHelm(helm);
    return true;
}

int upgrade(Cluster& c, const HelmArgs& a) {
    const QString release = a.words.value(1), chart = a.words.value(2);
    if (release.isEmpty() || chart.isEmpty()) {
        err(QStringLiteral("Error: \"helm upgrade\" requires 2 arguments\n"));
        return 1;
    }
    const QString ns =
        a.flags.contains(QStringLiteral("namespace")) ? a.flag("namespace") : QStringLiteral("default");
    QJsonObject helm = c.helm();
    QJsonObject releases = helm.value(QStringLiteral("releases")).toObject();
    if (!a.switches.contains(QStringLiteral("install")) && !releases.contains(release)) {
        err(QStringLiteral("Error: UPGRADE FAILED: \"%1\" has no deployed releases\n").arg(release));
        return 1;
    }
    if (a.switches.contains(QStringLiteral("dry-run")) || a.flags.contains(QStringLiteral("dry-run"))) {
        out(QStringLiteral("Release \"%1\" (dry run)\n").arg(release));
        return 0;
    }
    if (attemptFails(c, release)) {
        if (c.helm().value(QStringLiteral("hookJobOnFailure")).toBool())
            leaveFailedHookJob(c, release, ns);
        err(QStringLiteral(
                "Error: UPGRADE FAILED: failed post-install: job %1-hook failed: BackoffLimitExceeded\n")
                .arg(release));
        return 1;
    }
    helm = c.helm();
    releases[release] = ns;
    helm[QStringLiteral("releases")] = releases;
    c.setHelm(helm);
    if (a.switches.contains(QStringLiteral("create-namespace"))) {
        QJsonArray objects = c.objects();
        bool exists = false;
        for (const QJsonValue& v : objects)
            exists = exists ||
                     (v.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("Namespace") &&
                      v.toObject()
                              .value(QStringLiteral("metadata"))
                              .toObject()
                              .value(QStringLiteral("name"))
                              .toString() == ns);
        if (!exists) {
            objects.append(QJsonObject{{"apiVersion", "v1"},
                                       {"kind", "Namespace"},
                                       {"metadata", QJsonObject{{"name", ns}}},
                                       {"status", QJsonObject{{"phase", "Active"}}}});
            c.setObjects(objects);
        }
    }
    out(QStringLiteral("Release \"%1\" has been upgraded. Happy Helming!\n").arg(release));
    return 0;
}

int uninstall(Cluster& c, const HelmArgs& a) {
    QJsonObject helm = c.helm();
    QJsonObject releases = helm.value(QStringLiteral("releases")).toObject();
    int rc = 0;
    for (const QString& r : a.words.mid(1)) {
        if (!releases.contains(r)) {
            if (!a.switches.contains(QStringLiteral("ignore-not-found"))) {
                err(QStringLiteral("Error: uninstall: Release not loaded: %1: release: not found\n").arg(r));
                rc = 1;
            }
            continue;
        }
        releases.remove(r);
        out(QStringLiteral("release \"%1\" uninstalled\n").arg(r));
    }
    helm[QStringLiteral("releases")] = releases;
    c.setHelm(helm);
    return rc;
}

} // namespace

int helm(Cluster& c, const QStringList& argv) {
    const HelmArgs a = parse(argv);
    const QString verb = a.words.value(0);
    const QString version = c.helm().value(QStringLiteral("version")).toString(QStringLiteral("v3.17.0"));
    if (a.switches.contains(QStringLiteral("force-conflicts")) && !version.startsWith(QLatin1String("v4"))) {
        err(QStringLiteral("Error: unknown flag: --force-conflicts\n"));
        return 1;
    }
    if (verb == QLatin1String("version")) {
        if (a.flag("template") == QLatin1String("{{.Version}}"))
            out(version);
        else
            out(QStringLiteral("version.BuildInfo{Version:\"%1\", GoVersion:\"go1.24\"}\n").arg(version));
        return 0;
    }
    if (verb == QLatin1String("upgrade"))
        return upgrade(c, a);
    if (verb == QLatin1String("uninstall") || verb == QLatin1String("delete") || verb == QLatin1String("un"))
        return uninstall(c, a);
    if (verb == QLatin1String("list") || verb == QLatin1String("ls")) {
        const QJsonObject releases = c.helm().value(QStringLiteral("releases")).toObject();
        out(QStringLiteral("NAME\tNAMESPACE\n"));
        for (auto it = releases.begin(); it != releases.end(); ++it)
            out(it.key() + QLatin1Char('\t') + it.value().toString() + QLatin1Char('\n'));
        return 0;
    }
    if (verb == QLatin1String("status")) {
        if (!c.helm().value(QStringLiteral("releases")).toObject().contains(a.words.value(1))) {
            err(QStringLiteral("Error: release: not found\n"));
            return 1;
        }
        out(QStringLiteral("NAME: %1\nSTATUS: deployed\n").arg(a.words.value(1)));
        return 0;
    }
    static const QSet<QString> readOnly{"get", "history", "show", "template", "search", "env", "lint"};
    if (readOnly.contains(verb))
        return 0;
    err(QStringLiteral("fake helm: '%1' is not modelled\n").arg(argv.join(QLatin1Char(' '))));
    return 2;
}

} // namespace fakecluster
