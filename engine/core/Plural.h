// "1 recipe" / "3 recipes": a count with its noun in the right number, in English (no translator is
// loaded, and tr's %n without one prints "recipe(s)"). Engine messages and views use the same one.
#pragma once

#include <QString>

namespace pb {

inline QString counted(qint64 n, const QString& singular, const QString& plural) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? singular : plural);
}

} // namespace pb
