// A Git repository built at test time from the five real AICR catalogs in ../shared/data: one
// commit and one tag per catalog, committed OUT OF ORDER with commit dates that disagree with the
// labels, plus a branch without recipes/ and one with a symbolic link in it; and a bare clone. Built
// with the git command line (the peer of what users have), never checked out by Proofbench.
#pragma once

#include "FsUtil.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <vector>

namespace pbtest {

struct GitCatalogCommit {
    QString label;        // the catalog folder under aicr/catalogs and the tag name
    QDateTime commitDate; // committer (and author) date, UTC
    bool annotated;       // an annotated tag (else lightweight)
};

// Commit order: 2026-08-19, v0.14.0, 2026-07-09, v0.11.1, 2026-08-09. The dates disagree with the
// labels twice over: the date-labelled catalogs are committed in an order (and with dates) unlike
// their labels, and v0.11.1 is committed after v0.14.0 with a later date.
inline std::vector<GitCatalogCommit> gitCatalogCommits() {
    auto at = [](const char* iso) { return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODate); };
    return {{QStringLiteral("2026-08-19"), at("2026-09-03T08:00:00Z"), false},
            {QStringLiteral("v0.14.0"), at("2026-05-20T12:00:00Z"), true},
            {QStringLiteral("2026-07-09"), at("2026-09-05T09:30:00Z"), false},
            {QStringLiteral("v0.11.1"), at("2026-05-25T16:45:00Z"), true},
            {QStringLiteral("2026-08-09"), at("2026-09-01T07:15:00Z"), false}};
}

// What engine/catalog/VersionOrder.h makes of those: semantic versions by precedence (v0.11.1
// before v0.14.0 although committed later), both dated before the date-labelled catalogs (their
// commits are from May), which follow their COMMIT dates, not their labels.
inline QStringList gitCatalogVersionOrder() {
    return {QStringLiteral("v0.11.1"), QStringLiteral("v0.14.0"), QStringLiteral("2026-08-09"),
            QStringLiteral("2026-08-19"), QStringLiteral("2026-07-09")};
}

class GitCatalogRepo {
  public:
    // Builds `<base>/work` (a clone with a work tree, HEAD on main at the last catalog) and
    // `<base>/bare.git` from `catalogs` (the aicr/catalogs folder). Empty error() on success.
    GitCatalogRepo(const QString& base, const QString& catalogs) : m_base(base), m_catalogs(catalogs) {
        m_work = m_base + QStringLiteral("/work");
        m_bare = m_base + QStringLiteral("/bare.git");
        build();
    }

    const QString& error() const { return m_error; }
    const QString& work() const { return m_work; }
    const QString& bare() const { return m_bare; }

    // `git rev-parse SPEC^{commit}` in the work clone.
    QString commitOf(const QString& spec) const {
        return git({QStringLiteral("rev-parse"), spec + QStringLiteral("^{commit}")}).trimmed();
    }
    // The number of files of a catalog's recipes/ folder.
    int fileCount(const QString& label) const {
        int n = 0;
        QDirIterator it(m_catalogs + QLatin1Char('/') + label + QStringLiteral("/recipes"),
                        QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            ++n;
        }
        return n;
    }

    // Runs git in the work clone (or `dir`); the output, or empty with error() set.
    QString git(const QStringList& args, const QString& dir = {}, const QDateTime& date = {}) const {
        QProcess p;
        p.setWorkingDirectory(dir.isEmpty() ? m_work : dir);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
        env.insert(QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("/dev/null"));
        env.insert(QStringLiteral("GIT_AUTHOR_NAME"), QStringLiteral("Catalog Fixture"));
        env.insert(QStringLiteral("GIT_AUTHOR_EMAIL"), QStringLiteral("fixture@example.invalid"));
        env.insert(QStringLiteral("GIT_COMMITTER_NAME"), QStringLiteral("Catalog Fixture"));
        env.insert(QStringLiteral("GIT_COMMITTER_EMAIL"), QStringLiteral("fixture@example.invalid"));
        if (date.isValid()) {
            const QString d = QStringLiteral("%1 +0000").arg(date.toSecsSinceEpoch());
            env.insert(QStringLiteral("GIT_AUTHOR_DATE"), d);
            env.insert(QStringLiteral("GIT_COMMITTER_DATE"), d);
        }
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("git"), args);
        if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            m_error = QStringLiteral("git %1 failed: %2")
                          .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAllStandardError()));
            return {};
        }
        return QString::fromUtf8(p.readAllStandardOutput());
    }

  private:
    void build() {
        QDir().mkpath(m_work);
        const QStringList quiet{QStringLiteral("-c"), QStringLiteral("commit.gpgsign=false"),
                                QStringLiteral("-c"), QStringLiteral("tag.gpgsign=false")};
        auto step = [&](QStringList args, const QDateTime& date = {}) {
            if (m_error.isEmpty())
                git(quiet + args, {}, date);
            return m_error.isEmpty();
        };
        if (!step(
                {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main")}))
            return;
        for (const GitCatalogCommit& c : gitCatalogCommits()) {
            QDir(m_work + QStringLiteral("/recipes")).removeRecursively();
            if (!pbtest::copyTree(m_catalogs + QLatin1Char('/') + c.label + QStringLiteral("/recipes"),
                                  m_work + QStringLiteral("/recipes"))) {
                m_error = QStringLiteral("cannot copy catalog %1").arg(c.label);
                return;
            }
            if (!step({QStringLiteral("add"), QStringLiteral("-A")}) ||
                !step({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                       QStringLiteral("catalog %1").arg(c.label)},
                      c.commitDate))
                return;
            QStringList tag{QStringLiteral("tag")};
            if (c.annotated)
                tag << QStringLiteral("-a") << QStringLiteral("-m")
                    << QStringLiteral("release %1").arg(c.label);
            if (!step(tag << c.label, c.commitDate))
                return;
        }
        // A branch whose tree has no recipes/ folder.
        if (!step({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("-b"),
                   QStringLiteral("no-catalog")}) ||
            !step({QStringLiteral("rm"), QStringLiteral("-rq"), QStringLiteral("recipes")}))
            return;
        QFile readme(m_work + QStringLiteral("/README.md"));
        if (!readme.open(QIODevice::WriteOnly) || readme.write("no catalog here\n") < 0) {
            m_error = QStringLiteral("cannot write README.md");
            return;
        }
        readme.close();
        if (!step({QStringLiteral("add"), QStringLiteral("-A")}) ||
            !step({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                   QStringLiteral("no catalog")}) ||
            !step({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("main")}))
            return;
        // A branch with a symbolic link inside the catalog.
        if (!step({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("-b"),
                   QStringLiteral("with-link")}))
            return;
        if (!QFile::link(QStringLiteral("base.yaml"),
                         m_work + QStringLiteral("/recipes/overlays/linked.yaml"))) {
            m_error = QStringLiteral("cannot create a symbolic link");
            return;
        }
        if (!step({QStringLiteral("add"), QStringLiteral("-A")}) ||
            !step({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                   QStringLiteral("a link")}) ||
            !step({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("main")}))
            return;
        git({QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--bare"), m_work, m_bare},
            m_base);
    }

    QString m_base, m_catalogs, m_work, m_bare;
    mutable QString m_error;
};

} // namespace pbtest
