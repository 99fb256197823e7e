// Login users for one test on the PostgreSQL test server (issue 32): created by the test database's
// owner (the test role has CREATEROLE), each with a random password written to a pgpass file of the
// test's own (the server's entries first), dropped on destruction. Names are cluster-wide, so they
// start with the test database's unique name.
#pragma once

#include "TestDb.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QUrl>
#include <QUuid>

namespace pbtest {

class TeamUsers {
  public:
    // `owner`: an open connection to the test database as its owner; `dir`: where the pgpass goes.
    TeamUsers(QSqlDatabase owner, const QString& spec, const QString& stem, const QStringList& suffixes,
              const QString& dir)
        : m_owner(owner), m_spec(spec), m_pgpass(QDir(dir).filePath(QStringLiteral("pgpass"))) {
        QFile base(QDir(pb::test::pgServerDir()).filePath(QStringLiteral("pgpass")));
        QFile f(m_pgpass);
        if (!base.open(QIODevice::ReadOnly) || !f.open(QIODevice::WriteOnly)) {
            m_error = QStringLiteral("cannot write %1").arg(m_pgpass);
            return;
        }
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        f.write(base.readAll());
        const QUrl url(spec);
        QSqlQuery q(m_owner);
        for (const QString& suffix : suffixes) {
            const QString user = stem + QLatin1Char('_') + suffix;
            const QString password = QUuid::createUuid().toString(QUuid::WithoutBraces);
            if (!q.exec(QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2'").arg(user, password))) {
                m_error = q.lastError().text();
                return;
            }
            m_users << user;
            f.write(QStringLiteral("%1:%2:*:%3:%4\n")
                        .arg(url.host())
                        .arg(url.port())
                        .arg(user, password)
                        .toUtf8());
        }
    }
    ~TeamUsers() {
        QSqlQuery q(m_owner);
        for (const QString& u : m_users)
            q.exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(u));
    }
    TeamUsers(const TeamUsers&) = delete;
    TeamUsers& operator=(const TeamUsers&) = delete;

    QString error() const { return m_error; }
    // The login user made for `suffix`.
    QString user(const QString& suffix) const {
        for (const QString& u : m_users)
            if (u.endsWith(QLatin1Char('_') + suffix))
                return u;
        return {};
    }
    // The test database's spec for that user.
    QString spec(const QString& suffix) const { return pb::test::pgSpecAs(m_spec, user(suffix)); }
    // The pgpass file with every user's password (and the server's own entries).
    const QString& pgpass() const { return m_pgpass; }

  private:
    QSqlDatabase m_owner;
    QString m_spec;
    QString m_pgpass;
    QStringList m_users;
    QString m_error;
};

} // namespace pbtest
