// "1 recipe" / "3 recipes": English plurals without a translator loaded (tr's %n needs one).
#pragma once

#include <QString>

namespace pb::models {

inline QString counted(int n, const QString& singular, const QString& plural) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? singular : plural);
}

} // namespace pb::models
