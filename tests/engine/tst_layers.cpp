// The layering rules of docs/ARCHITECTURE.md, checked on the source tree itself: every #include of
// a project header is resolved as the compiler resolves it (the including file's folder, then the
// include path of its layer's library, as the CMakeLists set it) to the layer (app, widgets,
// models, engine) and, inside engine/, the domain it belongs to. Includes point down only: no
// engine file reaches models, widgets or app; no model reaches widgets; widgets include no store/
// or db/ header, name no store:: or db:: type and open no database (models own the types views
// need); store/ and receipts/ do not include each other; and the graph of engine domains has no
// cycle (a cycle is an include that runs back up a layer).
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <functional>
#include <map>
#include <set>

namespace {

struct Include {
    QString from; // file, relative to the source root
    int line = 0;
    QString name;   // as written between the quotes
    QString target; // resolved file, relative to the source root
};

QString root() {
    return QStringLiteral(PB_SOURCE_DIR);
}

// "engine/store/X.h" -> "engine/store"; "widgets/sign/X.h" -> "widgets"; "models/X.h" -> "models".
QString layerOf(const QString& rel) {
    return rel.section(QLatin1Char('/'), 0, 0);
}
QString domainOf(const QString& rel) {
    return layerOf(rel) == QLatin1String("engine") ? rel.section(QLatin1Char('/'), 1, 1) : layerOf(rel);
}

class Tree {
  public:
    Tree() {
        for (const char* layer : {"app", "widgets", "models", "engine"}) {
            QDirIterator it(root() + QLatin1Char('/') + QLatin1String(layer),
                            {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString rel = QDir(root()).relativeFilePath(it.next());
                m_files << rel;
                m_fileSet.insert(rel);
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
                    m_includes.push_back({rel, line, m.captured(1), target});
            }
        }
    }
    const std::vector<Include>& includes() const { return m_includes; }
    const QStringList& files() const { return m_files; }
    const QStringList& views() const { return m_views; }

  private:
    // The project file an include names, found as the compiler finds it: the including file's
    // folder first, then its layer's include path in order. Empty for a header outside the tree
    // (Qt, the standard library, third-party code).
    QString resolve(const QString& from, const QString& name) const {
        const QString local = QDir::cleanPath(QFileInfo(from).path() + QLatin1Char('/') + name);
        if (m_fileSet.contains(local))
            return local;
        for (const QString& dir : includePath(layerOf(from))) {
            const QString candidate = QDir::cleanPath(dir + QLatin1Char('/') + name);
            if (m_fileSet.contains(candidate))
                return candidate;
        }
        return {};
    }
    // The -I folders of a layer's library and of those it links, in the order CMake passes them:
    // pb_engine adds engine/; pb_models models/; pb_widgets widgets/ and each view folder of
    // PB_VIEWS (widgets/CMakeLists.txt); pb_cli app/.
    QStringList includePath(const QString& layer) const {
        QStringList out;
        if (layer == QLatin1String("app"))
            out << QStringLiteral("app");
        if (layer == QLatin1String("app") || layer == QLatin1String("widgets")) {
            out << QStringLiteral("widgets");
            for (const QString& view : m_views)
                out << QStringLiteral("widgets/") + view;
        }
        if (layer != QLatin1String("engine"))
            out << QStringLiteral("models");
        out << QStringLiteral("engine");
        return out;
    }
    // set(PB_VIEWS catalog health …) in widgets/CMakeLists.txt.
    static QStringList readViews() {
        QFile f(root() + QStringLiteral("/widgets/CMakeLists.txt"));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        static const QRegularExpression re(QStringLiteral("set\\(PB_VIEWS\\s+([^)]*)\\)"));
        const auto m = re.match(QString::fromUtf8(f.readAll()));
        return m.hasMatch()
                   ? m.captured(1).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)
                   : QStringList();
    }
    QStringList m_files;
    QSet<QString> m_fileSet;
    QStringList m_views = readViews();
    std::vector<Include> m_includes;
};

QString where(const Include& i) {
    return QStringLiteral("%1:%2 includes %3").arg(i.from).arg(i.line).arg(i.target);
}

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
        QVERIFY2(m_tree.views().contains(QStringLiteral("catalog")),
                 "PB_VIEWS was not read from widgets/CMakeLists.txt");
    }

    // The resolution itself: a quoted include found through the include path is its real file,
    // and a name shared by two folders is told apart by the path, not by the file name.
    void includesResolveToTheirFiles() {
        auto target = [&](const QString& from, const QString& name) {
            for (const Include& i : m_tree.includes())
                if (i.from == from && i.name == name)
                    return i.target;
            return QStringLiteral("(no such include)");
        };
        QCOMPARE(target(QStringLiteral("models/CatalogTreeModel.h"), QStringLiteral("store/CatalogStore.h")),
                 QStringLiteral("engine/store/CatalogStore.h"));
        QCOMPARE(target(QStringLiteral("widgets/MainWindow.cpp"), QStringLiteral("HealthPane.h")),
                 QStringLiteral("widgets/health/HealthPane.h"));
        QCOMPARE(target(QStringLiteral("widgets/MainWindow.cpp"), QStringLiteral("CatalogTreeModel.h")),
                 QStringLiteral("models/CatalogTreeModel.h"));
    }

    void includesPointDown() {
        // Rank: app 3, widgets 2, models 1, engine 0. A file may include its own rank or below.
        const std::map<QString, int> rank{{QStringLiteral("app"), 3},
                                          {QStringLiteral("widgets"), 2},
                                          {QStringLiteral("models"), 1},
                                          {QStringLiteral("engine"), 0}};
        QStringList bad;
        for (const Include& i : m_tree.includes())
            if (rank.at(layerOf(i.target)) > rank.at(layerOf(i.from)))
                bad << where(i);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(u'\n')));
    }

    void widgetsIncludeNoStoreAndOpenNoDatabase() {
        QStringList bad;
        for (const Include& i : m_tree.includes())
            if (layerOf(i.from) == QLatin1String("widgets") &&
                (i.target.startsWith(QLatin1String("engine/store/")) ||
                 i.target.startsWith(QLatin1String("engine/db/"))))
                bad << where(i);
        static const QRegularExpression opens(
            QStringLiteral("Database::open\\s*\\(|\\b[A-Z][A-Za-z]*Store\\s*\\(\\s*[*a-z_]"));
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
                    bad << QStringLiteral("%1:%2 opens a database or constructs a store: %3")
                               .arg(rel)
                               .arg(line)
                               .arg(text.trimmed());
            }
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(u'\n')));
    }

    // Widgets name no store:: or db:: type (nor forward-declare one): what a view needs comes
    // from models/ (its own types, or aliases of plain records there). Comments do not count.
    void widgetsNameNoStoreOrDbType() {
        static const QRegularExpression names(
            QStringLiteral("\\b(store|db)::\\w+|namespace\\s+pb::(store|db)\\b"));
        static const QRegularExpression comment(QStringLiteral("//.*$"));
        QStringList bad;
        for (const QString& rel : m_tree.files()) {
            if (layerOf(rel) != QLatin1String("widgets"))
                continue;
            QFile f(root() + QLatin1Char('/') + rel);
            QVERIFY(f.open(QIODevice::ReadOnly));
            int line = 0;
            while (!f.atEnd()) {
                ++line;
                const QString code = QString::fromUtf8(f.readLine()).remove(comment);
                for (auto it = names.globalMatch(code); it.hasNext();)
                    bad << QStringLiteral("%1:%2 names %3").arg(rel).arg(line).arg(it.next().captured(0));
            }
        }
        for (const QString& b : std::as_const(bad)) // each on a line of its own: QTest cuts long messages
            qWarning("%s", qPrintable(b));
        QVERIFY2(
            bad.isEmpty(),
            qPrintable(
                QStringLiteral("%1 uses of store:: or db:: in widgets/ (listed above)").arg(bad.size())));
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
        QVERIFY2(cycle.isEmpty(),
                 qPrintable(QStringLiteral("engine domains include each other in a cycle:\n") +
                            cycle.join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
