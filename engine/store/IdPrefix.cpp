#include "store/IdPrefix.h"

#include <QSqlQuery>

#include <utility>
#include <vector>

namespace pb::store {

Result<qint64> findByPrefix(db::Database& db, const IdLookup& l, const QString& text) {
    QString want = text.trimmed().toLower();
    if (want.startsWith(QLatin1String("sha256:")))
        want = want.mid(7);
    if (want.size() < l.minLength)
        return makeError(
            QStringLiteral("'%1' is too short to name a %2: give its %3 (as '%4' shows it) or at "
                           "least its first %5 characters")
                .arg(text, l.noun, l.idName, l.listVerb)
                .arg(l.minLength));
    QSqlQuery q(db.sql());
    // A prefix match by substring (no LIKE: '_' and '%' in the argument stay literal; no collation).
    q.prepare(QStringLiteral("SELECT id, %2 FROM %1 WHERE substr(%2, 1, ?) = ? ORDER BY %2 LIMIT 6")
                  .arg(QLatin1String(l.table), QLatin1String(l.keyColumn)));
    q.addBindValue(int(want.size()));
    q.addBindValue(want);
    if (!q.exec())
        return db::sqlError(q, QString::fromLatin1(l.table));
    std::vector<std::pair<qint64, QString>> found;
    while (q.next())
        found.emplace_back(q.value(0).toLongLong(), q.value(1).toString());
    for (const auto& [id, key] : found)
        if (key == want)
            return id;
    if (found.empty())
        return makeError(
            QStringLiteral("no %1 '%2' in this database (see '%3')").arg(l.noun, text, l.listVerb),
            db.path());
    if (found.size() > 1) {
        QStringList keys;
        for (const auto& f : found)
            keys << f.second.left(std::max<qsizetype>(want.size() + 4, 12));
        return makeError(QStringLiteral("%1 '%2' is ambiguous: it starts %3%4; give more of it")
                             .arg(l.idName, text, keys.mid(0, 5).join(QStringLiteral(", ")),
                                  found.size() > 5 ? QStringLiteral(", ...") : QString()),
                         db.path());
    }
    return found.front().first;
}

} // namespace pb::store
