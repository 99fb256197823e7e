// The layering rules of docs/ARCHITECTURE.md, checked on the source tree itself: every #include of
// a project header is resolved to the layer (app, widgets, models, engine) and, inside engine/, the
// domain it belongs to. Includes point down only: no engine file reaches models, widgets or app; no
// model reaches widgets; widgets include no store/ header and open no database; store/ and
// receipts/ do not include each other; and the graph of engine domains has no cycle (a cycle is an
// include that runs back up a layer).
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

#include <functional>
#include <map>
#include <set>

namespace {

struct Include {
    QString from;   // file, relative to the source root
    int line = 0;
    QString target; // resolved file, relative to the source root
};

QString root() { return QStringLiteral(PB_SOURCE_DIR); }

// "engine/store/X.h" -> "engine/store"; "widgets/sign/X.h" -> "widgets"; "models/X.h" -> "models".
QString layerOf(const QString& rel) { return rel.section(QLatin1Char('/'), 0, 0); }
QString domainOf(const QString& rel) {
    return layerOf(rel) == QLatin1String("engine") ? rel.section(QLatin1Char('/'), 1, 1) : layerOf(rel);
}

class Tree {
  public:
    Tree() {
        for (const char* layer : {"app", "widgets", "models", "engine"}) {
            QDirIterator it(root() + QLatin1Char('/') + QLatin1String(layer), {QStringLiteral("*.h"), QStringLiteral("*.cpp")},
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString rel = QDir(root()).relativeFilePath(it.next());
                m_files << rel;
                m_byName[QFileInfo(rel).fileName()] << rel;
            }
        }
        m_files.sort();
        static const QRegularExpression re(QStringLiteral("^\\s*#\\s*include\\s*\"([^\"]+)\""));
        for (const QString& rel : std::as_const(m_files)) {
            QFile f(root() + QLatin1Char('/') + rel);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            int line = 0;
            while (!f.atEnd()) {
                ++line;
                const auto m = re.match(QString::fromUtf8(f.readLine()));
                if (!m.hasMatch())
                    continue;
                const QString target = resolve(rel, m.captured(1));
                if (!target.isEmpty())
                    m_includes.push_back({rel, line, target});
            }
        }
    }
    const std::vector<Include>& includes() const { return m_includes; }
    const QStringList& files() const { return m_files; }

  private:
    // The project file an include names: relative to the including file's folder, then engine/
    // ("store/X.h"), then by file name (widgets and models add every view folder to the path).
    QString resolve(const QString& from, const QString& name) const {
        const QString local = QFileInfo(from).path() + QLatin1Char('/') + name;
        if (m_files.contains(QDir::cleanPath(local)))
            return QDir::cleanPath(local);
        if (m_files.contains(QStringLiteral("engine/") + name))
            return QStringLiteral("engine/") + name;
        const QStringList& same = m_byName.value(QFileInfo(name).fileName());
        return same.size() == 1 ? same.constFirst() : QString();
    }
    QStringList m_files;
    QHash<QString, QStringList> m_byName;
    std::vector<Include> m_includes;
};

QString where(const Include& i) { return QStringLiteral("%1:%2 includes %3").arg(i.from).arg(i.line).arg(i.target); }

} // namespace

class TestLayers : public QObject {
    Q_OBJECT
    Tree m_tree;

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(root() + QStringLiteral("/engine")))
            QSKIP("the source tree is not beside this build");
        QVERIFY2(m_tree.files().size() > 100, "the source tree was not read");
        QVERIFY(m_tree.includes().size() > 300);
    }

    void includesPointDown() {
        // Rank: app 3, widgets 2, models 1, engine 0. A file may include its own rank or below.
        const std::map<QString, int> rank{{QStringLiteral("app"), 3}, {QStringLiteral("widgets"), 2},
                                          {QStringLiteral("models"), 1}, {QStringLiteral("engine"), 0}};
        QStringList bad;
        for (const Include& i : m_tree.includes())
            if (rank.at(layerOf(i.target)) > rank.at(layerOf(i.from)))
                bad << where(i);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(u'\n')));
    }

    void widgetsIncludeNoStoreAndOpenNoDatabase() {
        QStringList bad;
        for (const Include& i : m_tree.includes())
            if (layerOf(i.from) == QLatin1String("widgets") && i.target.startsWith(QLatin1String("engine/store/")))
                bad << where(i);
        static const QRegularExpression opens(QStringLiteral("Database::open\\s*\\(|\\b[A-Z][A-Za-z]*Store\\s*\\(\\s*[*a-z_]"));
        for (const QString& rel : m_tree.files()) {
            if (layerOf(rel) != QLatin1String("widgets"))
                continue;
            QFile f(root() + QLatin1Char('/') + rel);
            QVERIFY(f.open(QIODevice::ReadOnly));
            int line = 0;
            while (!f.atEnd()) {
                ++line;
                const QString text = QString::fromUtf8(f.readLine());
                if (opens.match(text).hasMatch())
                    bad << QStringLiteral("%1:%2 opens a database or constructs a store: %3").arg(rel).arg(line).arg(text.trimmed());
            }
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(u'\n')));
    }

    void storeAndReceiptsAreIndependent() {
        QStringList bad;
        for (const Include& i : m_tree.includes()) {
            const QString a = domainOf(i.from), b = domainOf(i.target);
            if ((a == QLatin1String("store") && b == QLatin1String("receipts")) ||
                (a == QLatin1String("receipts") && b == QLatin1String("store")))
                bad << where(i);
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(u'\n')));
    }

    void onlyTheFacesCallOperations() {
        // Operations sit above every other engine domain: nothing in engine/ but ops/ includes them.
        QStringList bad;
        for (const Include& i : m_tree.includes())
            if (layerOf(i.from) == QLatin1String("engine") && domainOf(i.from) != QLatin1String("ops") &&
                domainOf(i.target) == QLatin1String("ops"))
                bad << where(i);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(u'\n')));
    }

    void engineDomainsFormNoCycle() {
        std::map<QString, std::set<QString>> edges;
        std::map<std::pair<QString, QString>, QString> example;
        for (const Include& i : m_tree.includes()) {
            if (layerOf(i.from) != QLatin1String("engine") || layerOf(i.target) != QLatin1String("engine"))
                continue;
            const QString a = domainOf(i.from), b = domainOf(i.target);
            if (a == b)
                continue;
            edges[a].insert(b);
            example.try_emplace({a, b}, where(i));
        }
        // Depth-first search for a back edge; report the cycle with one include per step.
        std::map<QString, int> state; // 0 new, 1 on the stack, 2 done
        QStringList stack;
        QStringList cycle;
        std::function<bool(const QString&)> visit = [&](const QString& d) {
            state[d] = 1;
            stack << d;
            for (const QString& next : edges[d]) {
                if (state[next] == 1) {
                    const QStringList loop = stack.mid(stack.indexOf(next)) << next;
                    for (qsizetype k = 0; k + 1 < loop.size(); ++k)
                        cycle << example[{loop[k], loop[k + 1]}];
                    return true;
                }
                if (state[next] == 0 && visit(next))
                    return true;
            }
            stack.removeLast();
            state[d] = 2;
            return false;
        };
        for (const auto& [d, _] : edges)
            if (state[d] == 0 && visit(d))
                break;
        QVERIFY2(cycle.isEmpty(), qPrintable(QStringLiteral("engine domains include each other in a cycle:\n") + cycle.join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
