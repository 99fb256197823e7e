// bundle import on AICR's own golden bundles: every case of all five deployers (helm, argocd,
// argocd-helm, flux, helmfile) is read and imported, and its components, order, sync-waves and
// versions are checked against what the golden files themselves say, found by a second, naive
// reading of the same files here (line patterns, not the reader under test). Hostile trees are
// refused by name; an import is all or nothing with its receipt; the CLI runs the same op. The
// imports run on both engines (DbFixture.h); the readings, which store nothing, on SQLite's half only.
#include "DbFixture.h"
#include "bundle/Read.h"
#include "db/Database.h"
#include "ops/BundleImport.h"
#include "ops/PrepareDatabase.h"
#include "receipts/Ledger.h"
#include "store/BundleStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <algorithm>
#include <climits>

using namespace pb;
namespace model = pb::bundle::model;

namespace {

QString goldens() {
    return QStringLiteral(PB_SHARED_DATA "/aicr/bundler-goldens");
}

QByteArray slurp(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString firstMatch(const QByteArray& text, const char* pattern) {
    const auto m = QRegularExpression(QString::fromLatin1(pattern), QRegularExpression::MultilineOption)
                       .match(QString::fromUtf8(text));
    return m.hasMatch() ? m.captured(1) : QString();
}

// What a golden case says, read naively: (name, version, wave) per component in order.
struct Expected {
    QString name, version;
    QString wave; // "" when none
};

QStringList numberedFolders(const QString& dir) {
    QStringList out = QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    out = out.filter(QRegularExpression(QStringLiteral("^\\d{3}-")));
    return out;
}

std::vector<Expected> expectedHelm(const QString& dir) {
    std::vector<Expected> out;
    for (const QString& f : numberedFolders(dir)) {
        const QByteArray install = slurp(dir + QLatin1Char('/') + f + QStringLiteral("/install.sh"));
        Expected e;
        e.name = firstMatch(install, "--install \\$\\{FORCE_CONFLICTS_FLAG\\} (\\S+) ");
        const QByteArray env = slurp(dir + QLatin1Char('/') + f + QStringLiteral("/upstream.env"));
        e.version = env.isEmpty()
                        ? firstMatch(slurp(dir + QLatin1Char('/') + f + QStringLiteral("/Chart.yaml")),
                                     "^version: (\\S+)$")
                        : firstMatch(env, "^VERSION='([^']*)'$");
        out.push_back(e);
    }
    return out;
}

std::vector<Expected> expectedArgo(const QString& dir) {
    std::vector<Expected> out;
    for (const QString& f : numberedFolders(dir)) {
        const QByteArray app = slurp(dir + QLatin1Char('/') + f + QStringLiteral("/application.yaml"));
        Expected e;
        e.name = firstMatch(app, "^  name: \"([^\"]+)\"$");
        e.wave = firstMatch(app, "sync-wave: \"(\\d+)\"");
        e.version = app.contains("\n      chart: ") || app.contains("\n    chart: ")
                        ? firstMatch(app, "^\\s+targetRevision: (?!main)(\\S+)$")
                        : firstMatch(slurp(dir + QLatin1Char('/') + f + QStringLiteral("/Chart.yaml")),
                                     "^version: (\\S+)$");
        out.push_back(e);
    }
    return out;
}

std::vector<Expected> expectedArgoHelm(const QString& dir) {
    std::vector<std::tuple<int, int, Expected>> found;
    const QStringList folders = numberedFolders(dir);
    for (const QString& t : QDir(dir + QStringLiteral("/templates"))
                                .entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
        const QByteArray text = slurp(dir + QStringLiteral("/templates/") + t);
        if (!text.contains("argocd.argoproj.io/sync-wave"))
            continue; // the parent Application carries none
        Expected e;
        e.name = t.chopped(5);
        e.wave = firstMatch(text, "sync-wave: \"(\\d+)\"");
        const QString rev = firstMatch(text, "^\\s+targetRevision: (.+)$");
        e.version = rev.contains(QLatin1String("{{")) ? QString() : rev;
        int folder = INT_MAX;
        for (const QString& f : folders)
            if (f.mid(4) == e.name)
                folder = f.left(3).toInt();
        const QString path = firstMatch(text, "^\\s+path: (\\S+)$");
        if (!path.isEmpty()) // a path source: the wrapper chart's version
            e.version = firstMatch(slurp(dir + QLatin1Char('/') + path + QStringLiteral("/Chart.yaml")),
                                   "^version: (\\S+)$");
        found.emplace_back(e.wave.toInt(), folder, e);
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return std::tuple(std::get<0>(a), std::get<1>(a), std::get<2>(a).name) <
               std::tuple(std::get<0>(b), std::get<1>(b), std::get<2>(b).name);
    });
    std::vector<Expected> out;
    for (auto& [w, f, e] : found)
        out.push_back(e);
    return out;
}

std::vector<Expected> expectedFlux(const QString& dir) {
    std::vector<Expected> out;
    const QByteArray kust = slurp(dir + QStringLiteral("/kustomization.yaml"));
    for (const QString& line : QString::fromUtf8(kust).split(QLatin1Char('\n'))) {
        const auto m = QRegularExpression(QStringLiteral("^  - (.+/helmrelease\\.yaml)$")).match(line);
        if (!m.hasMatch())
            continue;
        const QByteArray hr = slurp(dir + QLatin1Char('/') + m.captured(1));
        out.push_back({firstMatch(hr, "^  name: (\\S+)$"), firstMatch(hr, "^      version: (\\S+)$"), {}});
    }
    return out;
}

std::vector<Expected> expectedHelmfile(const QString& dir) {
    std::vector<Expected> out;
    QStringList files{QStringLiteral("helmfile.yaml")};
    const QByteArray root = slurp(dir + QStringLiteral("/helmfile.yaml"));
    for (const QString& line : QString::fromUtf8(root).split(QLatin1Char('\n'))) {
        const auto m = QRegularExpression(QStringLiteral("^  - path: (\\S+)$")).match(line);
        if (m.hasMatch())
            files << m.captured(1);
    }
    int level = -1;
    for (const QString& file : files) {
        const QByteArray text = slurp(dir + QLatin1Char('/') + file);
        Expected* cur = nullptr;
        for (const QString& line : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
            auto m = QRegularExpression(QStringLiteral("^  - name: (\\S+)$")).match(line);
            if (m.hasMatch() && text.indexOf("releases:") >= 0 &&
                text.indexOf(line.toUtf8()) > text.indexOf("releases:")) {
                out.push_back({m.captured(1), {}, level >= 0 ? QString::number(level) : QString()});
                cur = &out.back();
                continue;
            }
            m = QRegularExpression(QStringLiteral("^    version: (\\S+)$")).match(line);
            if (m.hasMatch() && cur)
                cur->version = m.captured(1);
        }
        ++level;
    }
    return out;
}

std::unique_ptr<db::Database> openDb(const QString& spec) {
    auto db = db::Database::open(spec);
    if (!db)
        qFatal("%s", qPrintable(db.error().toString()));
    return std::move(*db);
}

int rows(db::Database& db, const QString& sql) {
    QSqlQuery q(db.sql());
    if (!q.exec(sql) || !q.next())
        return -1;
    return q.value(0).toInt();
}

} // namespace

class TstBundleImport : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (!QDir(goldens()).exists())
            QSKIP("AICR's bundler goldens are not at " PB_SHARED_DATA
                  "/aicr/bundler-goldens (shared data absent)");
    }

    void everyGoldenCase_data() {

        PB_NO_DATABASE_ON_POSTGRES();
        QTest::addColumn<QString>("deployer");
        QTest::addColumn<QString>("dir");
        for (const QString& dep : QDir(goldens()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            for (const QString& c : QDir(goldens() + QLatin1Char('/') + dep)
                                        .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                if (dep == QLatin1String("argocd") && c == QLatin1String("kustomize_input"))
                    continue; // the kustomize INPUT of argocd's kustomize cases, not a bundle: notABundle
                              // checks it
                QTest::newRow(qPrintable(dep + QLatin1Char('/') + c))
                    << dep << goldens() + QLatin1Char('/') + dep + QLatin1Char('/') + c;
            }
    }
    void everyGoldenCase() {
        QFETCH(QString, deployer);
        QFETCH(QString, dir);
        auto read = model::readBundle(dir);
        QVERIFY2(read, qPrintable(read ? QString() : read.error().toString()));
        const model::DeployBundle& b = read->bundle;
        const QString expectedDeployer =
            deployer == QLatin1String("argocdhelm") ? QStringLiteral("argocd-helm") : deployer;
        QCOMPARE(model::deployerName(b.deployer), expectedDeployer);

        std::vector<Expected> expected = deployer == QLatin1String("helm")         ? expectedHelm(dir)
                                         : deployer == QLatin1String("argocd")     ? expectedArgo(dir)
                                         : deployer == QLatin1String("argocdhelm") ? expectedArgoHelm(dir)
                                         : deployer == QLatin1String("flux")       ? expectedFlux(dir)
                                                                                   : expectedHelmfile(dir);
        QVERIFY2(!expected.empty(), "the naive reading found no component: the golden layout changed");
        QStringList got, want;
        for (const model::Component& c : b.components)
            got << QStringLiteral("%1 %2 wave=%3")
                       .arg(c.name, c.version.templated ? QString() : c.version.text,
                            c.syncWave ? QString::number(*c.syncWave) : QString());
        for (const Expected& e : expected)
            want << QStringLiteral("%1 %2 wave=%3").arg(e.name, e.version, e.wave);
        QCOMPARE(got, want);

        // Every file is accounted for: each has a role, unknown ones are listed (never dropped).
        int files = 0;
        for (QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();
             it.next())
            ++files;
        QCOMPARE(static_cast<int>(b.files.size()), files);
        QStringList unknown;
        for (const model::BundleFile& f : b.files) {
            QVERIFY2(!f.role.isEmpty(), qPrintable(f.path));
            if (f.role == QLatin1String("unknown"))
                unknown << f.path;
        }
        QCOMPARE(unknown, b.unknownFiles);

        // Namespaces are read for every component whose object names one.
        for (const model::Component& c : b.components)
            QVERIFY2(!c.namespace_.isEmpty() || b.deployer == model::Deployer::Flux, qPrintable(c.name));
    }

    void argoHelmTemplatedFieldsAreShownNotRendered() {

        PB_NO_DATABASE_ON_POSTGRES();
        auto read = model::readBundle(goldens() + QStringLiteral("/argocdhelm/helm_and_manifest_only"));
        QVERIFY2(read, qPrintable(read ? QString() : read.error().toString()));
        const model::Component* cm = read->bundle.component(QStringLiteral("cert-manager"));
        const model::Component* nw = read->bundle.component(QStringLiteral("nodewright-customizations"));
        QVERIFY(cm && nw);
        // Literal fields as written.
        QCOMPARE(cm->chart.text, QStringLiteral("cert-manager"));
        QCOMPARE(cm->repository.text, QStringLiteral("https://charts.jetstack.io"));
        QCOMPARE(cm->version.text, QStringLiteral("1.20.2"));
        QVERIFY(!cm->version.templated);
        QCOMPARE(cm->namespace_.text, QStringLiteral("cert-manager"));
        // Templated ones kept as written and marked.
        QVERIFY(cm->release.templated);
        QVERIFY(cm->release.text.contains(QLatin1String(".Values.deployer")));
        QVERIFY(cm->templatedFields.contains(QStringLiteral("spec.destination.server")));
        QVERIFY(nw->repository.templated);
        QCOMPARE(nw->version.text, QStringLiteral("0.1.0")); // the wrapper chart's Chart.yaml
        QVERIFY(nw->templatedFields.contains(QStringLiteral("spec.source.targetRevision")));
        QCOMPARE(nw->source, QStringLiteral("path"));
        QCOMPARE(nw->folder, QStringLiteral("002-nodewright-customizations"));
        QCOMPARE(nw->manifests,
                 QStringList{QStringLiteral("002-nodewright-customizations/templates/tuning.yaml")});
        // Values: the template's literal inputs (static/cert-manager.yaml, then values.yaml key certmanager).
        QVERIFY(cm->valuesTemplated);
        QCOMPARE(cm->values.value(QStringLiteral("prometheus"))
                     .toObject()
                     .value(QStringLiteral("enabled"))
                     .toBool(),
                 true);
        QCOMPARE(cm->values.value(QStringLiteral("replicaCount")).toInt(), 1);
        // The parent Application template is the app-of-apps, not a component.
        QCOMPARE(read->bundle.file(QStringLiteral("templates/aicr-stack.yaml"))->role,
                 QStringLiteral("app-of-apps"));
        QCOMPARE(read->bundle.file(QStringLiteral("values.schema.json"))->role,
                 QStringLiteral("values-schema"));
    }

    void helmValuesAndCoordinates() {

        PB_NO_DATABASE_ON_POSTGRES();
        auto read = model::readBundle(goldens() + QStringLiteral("/helm/kai_scheduler_present"));
        QVERIFY(read);
        const model::Component& c = read->bundle.components.at(0);
        // OCI chart: upstream.env carries the full URI in CHART, REPO empty.
        const auto env = QString::fromUtf8(
            slurp(goldens() + QStringLiteral("/helm/kai_scheduler_present/001-kai-scheduler/upstream.env")));
        const QString chartUri = firstMatch(env.toUtf8(), "^CHART='([^']*)'$");
        QCOMPARE(c.repository.text + QLatin1Char('/') + c.chart.text, chartUri);
        QCOMPARE(c.valueFiles, (QStringList{QStringLiteral("001-kai-scheduler/values.yaml"),
                                            QStringLiteral("001-kai-scheduler/cluster-values.yaml")}));
        QCOMPARE(c.source, QStringLiteral("upstream-chart"));
        auto mixed = model::readBundle(goldens() + QStringLiteral("/helm/mixed_gpu_operator"));
        QVERIFY(mixed);
        QCOMPARE(mixed->bundle.components.at(0).source, QStringLiteral("local-chart"));
        QCOMPARE(mixed->bundle.components.at(0)
                     .values.value(QStringLiteral("driver"))
                     .toObject()
                     .value(QStringLiteral("enabled"))
                     .toBool(),
                 true);
        QCOMPARE(mixed->bundle.components.at(2).manifests,
                 QStringList{QStringLiteral("003-gpu-operator-post/templates/dcgm-exporter.yaml")});
    }

    void helmfileMissingValuesAreNotedNotDropped() {

        PB_NO_DATABASE_ON_POSTGRES();
        auto read = model::readBundle(goldens() + QStringLiteral("/helmfile/with_dynamic_values"));
        QVERIFY(read);
        const model::Component& c = read->bundle.components.at(0);
        QCOMPARE(c.repository.text, QStringLiteral("https://charts.jetstack.io"));
        QCOMPARE(c.notes.size(), 2); // values.yaml and cluster-values.yaml are referenced, not in the golden
        QVERIFY(c.notes.at(0).contains(QLatin1String("001-cert-manager/values.yaml")));
        auto oci = model::readBundle(goldens() + QStringLiteral("/helmfile/kai_scheduler_async"));
        QVERIFY(oci);
        QVERIFY(oci->bundle.components.at(0).repository.text.startsWith(QLatin1String("oci://")));
        auto leveled = model::readBundle(goldens() + QStringLiteral("/helmfile/upstream_helm_only"));
        QVERIFY(leveled);
        QCOMPARE(leveled->bundle.distinctSyncWaves(), 2);
    }

    void fluxDependsOnAndMissingSources() {

        PB_NO_DATABASE_ON_POSTGRES();
        auto read = model::readBundle(goldens() + QStringLiteral("/flux/helm_components"));
        QVERIFY(read);
        const model::Component* gpu = read->bundle.component(QStringLiteral("gpu-operator"));
        QVERIFY(gpu);
        QCOMPARE(gpu->dependsOn, QStringList{QStringLiteral("cert-manager")});
        QCOMPARE(gpu->namespace_.text, QStringLiteral("gpu-operator"));
        QCOMPARE(gpu->repository.text, QStringLiteral("HelmRepository/helm-ngc-nvidia-com-nvidia"));
        QVERIFY(!gpu->notes.isEmpty());
        QCOMPARE(read->bundle.warnings.size(),
                 3); // kustomization.yaml lists three sources/ files the golden leaves out
    }

    void notABundle() {

        PB_NO_DATABASE_ON_POSTGRES();
        const QString dir = goldens() + QStringLiteral("/argocd/kustomize_input");
        auto read = model::readBundle(dir);
        QVERIFY(!read);
        QVERIFY2(read.error().message.contains(QLatin1String("not a deployment bundle")),
                 qPrintable(read.error().toString()));
        QCOMPARE(read.error().file, dir);
        // Read as argocd on purpose: no component, and every file listed as unknown.
        model::ReadOptions o;
        o.deployer = model::Deployer::ArgoCD;
        auto forced = model::readBundle(dir, o);
        QVERIFY(forced);
        QCOMPARE(forced->bundle.components.size(), size_t(0));
        QCOMPARE(forced->bundle.unknownFiles,
                 (QStringList{QStringLiteral("cm.yaml"), QStringLiteral("kustomization.yaml")}));
    }

    void unknownFilesAreListed() {

        PB_NO_DATABASE_ON_POSTGRES();
        QTemporaryDir tmp;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"),
                                   goldens() + QStringLiteral("/argocd/mixed_with_pre/."), tmp.path()}) == 0);
        QProcess::execute(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("u+w"), tmp.path()});
        QFile extra(tmp.filePath(QStringLiteral("002-gpu-operator/NOTES.txt")));
        QVERIFY(extra.open(QIODevice::WriteOnly));
        extra.write("hand-added\n");
        extra.close();
        auto read = model::readBundle(tmp.path());
        QVERIFY(read);
        QCOMPARE(read->bundle.unknownFiles, QStringList{QStringLiteral("002-gpu-operator/NOTES.txt")});
        QCOMPARE(read->bundle.components.size(), size_t(3));
    }

    void hostileTrees() {

        PB_NO_DATABASE_ON_POSTGRES();
        QTemporaryDir tmp;
        auto fresh = [&](const QString& name) {
            const QString d = tmp.filePath(name);
            QDir().mkpath(d + QStringLiteral("/001-x"));
            QFile f(d + QStringLiteral("/001-x/upstream.env"));
            (void)f.open(QIODevice::WriteOnly);
            f.write("CHART='x'\nREPO='https://example.com'\nVERSION='1'\n");
            return d;
        };
        // A symbolic link out of the tree.
        const QString out = fresh(QStringLiteral("out"));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), out + QStringLiteral("/001-x/values.yaml")));
        auto r = model::readBundle(out);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("pointing outside the bundle")),
                 qPrintable(r.error().toString()));
        QVERIFY(r.error().file.endsWith(QLatin1String("001-x/values.yaml")));
        // A symbolic link inside is refused too (regular files only).
        const QString in = fresh(QStringLiteral("in"));
        QVERIFY(QFile::link(in + QStringLiteral("/001-x/upstream.env"),
                            in + QStringLiteral("/001-x/values.yaml")));
        r = model::readBundle(in);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("symbolic link")),
                 qPrintable(r.error().toString()));
        // A named pipe.
        const QString fifo = fresh(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo + QStringLiteral("/001-x/values.yaml")).constData(), 0600),
                 0);
        r = model::readBundle(fifo);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("named pipe")), qPrintable(r.error().toString()));
        // An oversize file (sparse: the limit is checked before reading).
        const QString big = fresh(QStringLiteral("big"));
        QFile bf(big + QStringLiteral("/001-x/values.yaml"));
        QVERIFY(bf.open(QIODevice::WriteOnly));
        QVERIFY(bf.resize(model::ReadLimits().maxFileBytes + 1));
        bf.close();
        r = model::readBundle(big);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("over the limit")),
                 qPrintable(r.error().toString()));
        QVERIFY(r.error().file.endsWith(QLatin1String("001-x/values.yaml")));
        // Too many files (the real limit).
        const QString many = fresh(QStringLiteral("many"));
        QDir().mkpath(many + QStringLiteral("/001-x/templates"));
        for (int i = 0; i < model::ReadLimits().maxFiles; ++i) {
            QFile f(many + QStringLiteral("/001-x/templates/m%1.yaml").arg(i));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        r = model::readBundle(many);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(
                     QStringLiteral("more than %1 files").arg(model::ReadLimits().maxFiles)),
                 qPrintable(r.error().toString()));
        // Too deep.
        const QString deep = fresh(QStringLiteral("deep"));
        QString p = deep;
        for (int i = 0; i < model::ReadLimits().maxDepth + 1; ++i)
            p += QStringLiteral("/d");
        QVERIFY(QDir().mkpath(p));
        r = model::readBundle(deep);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("folders deep")), qPrintable(r.error().toString()));
        // Malformed YAML in a file the layout depends on: file and line named.
        const QString bad = fresh(QStringLiteral("bad"));
        QFile vf(bad + QStringLiteral("/001-x/values.yaml"));
        QVERIFY(vf.open(QIODevice::WriteOnly));
        vf.write("a: 1\nb: [unclosed\n");
        vf.close();
        r = model::readBundle(bad);
        QVERIFY(!r);
        QVERIFY2(r.error().file.endsWith(QLatin1String("001-x/values.yaml")),
                 qPrintable(r.error().toString()));
        QVERIFY(r.error().line > 0);
    }

    void importIsTransactionalWithReceipt() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(testDb, tmp.path(), QStringLiteral("pb.db"));
        auto db = openDb(testDb.spec());
        ops::Context ctx(*db);
        const QString dir = goldens() + QStringLiteral("/argocd/mixed_with_pre");
        auto done = ops::importBundle(ctx, {dir, {}, {}, false, {}});
        QVERIFY2(done, qPrintable(done ? QString() : done.error().toString()));
        QCOMPARE(done->name, QStringLiteral("mixed_with_pre"));
        QCOMPARE(store::outcomeName(done->stored.outcome), QStringLiteral("imported"));
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM deploy_bundle_components")), 3);
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM deploy_bundle_files")),
                 static_cast<int>(done->bundle.files.size()));
        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts);
        QCOMPARE(receipts->back().kind, QStringLiteral("bundle.import"));
        QCOMPARE(receipts->back().inputs.at(0).sha256, done->bundle.treeDigest);
        // Loaded back from the database: the same bundle.
        auto loaded = store::BundleStore(*db).load(QStringLiteral("mixed_with_pre"));
        QVERIFY(loaded);
        QCOMPARE(loaded->bundle.treeDigest, done->bundle.treeDigest);
        QJsonArray a, b;
        for (const auto& c : loaded->bundle.components)
            a.append(model::toJson(c));
        for (const auto& c : done->bundle.components)
            b.append(model::toJson(c));
        QCOMPARE(a, b);
        // Same name, same content: unchanged (a receipt, no new rows).
        auto again = ops::importBundle(ctx, {dir, {}, {}, false, {}});
        QVERIFY(again);
        QCOMPARE(store::outcomeName(again->stored.outcome), QStringLiteral("unchanged"));
        // Same name, other content: refused, and nothing changes.
        const int before = rows(*db, QStringLiteral("SELECT COUNT(*) FROM receipts"));
        auto clash = ops::importBundle(ctx, {goldens() + QStringLiteral("/argocd/mixed_component"),
                                             QStringLiteral("mixed_with_pre"),
                                             {},
                                             false,
                                             {}});
        QVERIFY(!clash);
        QVERIFY2(clash.error().message.contains(QLatin1String("--replace")),
                 qPrintable(clash.error().toString()));
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM receipts")), before);
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM deploy_bundle_components")), 3);
        // --replace replaces.
        auto replaced = ops::importBundle(ctx, {goldens() + QStringLiteral("/argocd/mixed_component"),
                                                QStringLiteral("mixed_with_pre"),
                                                {},
                                                true,
                                                {}});
        QVERIFY(replaced);
        QCOMPARE(store::outcomeName(replaced->stored.outcome), QStringLiteral("replaced"));
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM deploy_bundle_components")), 2);
        // A hostile tree writes nothing.
        QTemporaryDir bad;
        QDir().mkpath(bad.filePath(QStringLiteral("001-x")));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), bad.filePath(QStringLiteral("001-x/install.sh"))));
        auto refused = ops::importBundle(ctx, {bad.path(), {}, {}, false, {}});
        QVERIFY(!refused);
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM deploy_bundles")), 1);
    }

    void importEveryCaseThroughTheCli() {
        QTemporaryDir tmp;
        PB_TEST_DATABASE(cliDb, tmp.path(), QStringLiteral("cli.db"));
        const QString dbPath = cliDb.spec();
        int imported = 0;
        for (const QString& dep : QDir(goldens()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            for (const QString& c : QDir(goldens() + QLatin1Char('/') + dep)
                                        .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                if (c == QLatin1String("kustomize_input"))
                    continue;
                QProcess p;
                p.start(QStringLiteral(PB_CLI_BINARY),
                        {QStringLiteral("--db"), dbPath, QStringLiteral("bundle"), QStringLiteral("import"),
                         QStringLiteral("--name"), dep + QLatin1Char('/') + c, QStringLiteral("--format"),
                         QStringLiteral("json"), goldens() + QLatin1Char('/') + dep + QLatin1Char('/') + c});
                QVERIFY(p.waitForFinished(60000));
                QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
                const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
                auto read = model::readBundle(goldens() + QLatin1Char('/') + dep + QLatin1Char('/') + c);
                QVERIFY(read);
                QCOMPARE(o.value(QStringLiteral("components")).toArray().size(),
                         static_cast<qsizetype>(read->bundle.components.size()));
                ++imported;
            }
        QVERIFY(imported >= 21);
        auto db = openDb(dbPath);
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM deploy_bundles")), imported);
        QCOMPARE(rows(*db, QStringLiteral("SELECT COUNT(*) FROM receipts WHERE kind = 'bundle.import'")),
                 imported);
    }
};

QTEST_GUILESS_MAIN(TstBundleImport)
#include "tst_bundleimport.moc"
