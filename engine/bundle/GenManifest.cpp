#include "bundle/GenManifest.h"

#include <QRegularExpression>

namespace pb::bundle {

namespace {

const yaml::Node* lookup(const yaml::Node& root, const QStringList& path) {
    const yaml::Node* n = &root;
    for (const QString& key : path) {
        if (!n->isMap())
            return nullptr;
        n = n->get(key.toStdString());
        if (!n)
            return nullptr;
    }
    return n;
}

} // namespace

Result<QByteArray> renderManifest(const QByteArray& bytes, const ManifestContext& ctx, const QString& file) {
    if (!bytes.contains("{{"))
        return bytes;
    const QString text = QString::fromUtf8(bytes);
    // Only a whole template made of simple field references is rendered here; anything else
    // (conditionals, pipes, functions, variables) stays for Helm to render at install time.
    static const QRegularExpression action(QStringLiteral("\\{\\{-?\\s*(.*?)\\s*-?\\}\\}"),
                                           QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression field(
        QStringLiteral("^\\.(Release|Chart|Values)((?:\\.[A-Za-z0-9_-]+)+)$"));
    bool simple = true;
    for (auto it = action.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        if (!field.match(m.captured(1)).hasMatch()) {
            simple = false;
            break;
        }
    }
    if (!simple)
        return bytes;
    QString out;
    qsizetype pos = 0;
    for (auto it = action.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += text.mid(pos, m.capturedStart() - pos);
        pos = m.capturedEnd();
        const auto f = field.match(m.captured(1));
        const QString scope = f.captured(1);
        QStringList path = f.captured(2).mid(1).split(QLatin1Char('.'));
        QString value;
        if (scope == QLatin1String("Release")) {
            if (path == QStringList{QStringLiteral("Namespace")})
                value = ctx.namespace_;
            else if (path == QStringList{QStringLiteral("Name")})
                value = ctx.releaseName;
            else if (path == QStringList{QStringLiteral("Service")})
                value = QStringLiteral("Helm");
            else
                return makeError(QStringLiteral("unknown field .Release.%1").arg(path.join(QLatin1Char('.'))),
                                 file);
        } else if (scope == QLatin1String("Chart")) {
            if (path == QStringList{QStringLiteral("Name")})
                value = ctx.chartName;
            else if (path == QStringList{QStringLiteral("Version")})
                value = ctx.chartVersion;
            else
                return makeError(QStringLiteral("unknown field .Chart.%1").arg(path.join(QLatin1Char('.'))),
                                 file);
        } else {
            const yaml::Node* n = lookup(ctx.values, path);
            if (n && !n->isScalar())
                return makeError(QStringLiteral(".Values.%1 is a %2, not a value a manifest can print")
                                     .arg(path.join(QLatin1Char('.')),
                                          n->isMap() ? QStringLiteral("map") : QStringLiteral("list")),
                                 file);
            if (n && !n->isNull())
                value = n->text();
        }
        out += value;
    }
    out += text.mid(pos);
    return out.toUtf8();
}

bool hasYamlObjects(const QByteArray& bytes) {
    for (const QByteArray& raw : bytes.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#') || line == "---" || line == "...")
            continue;
        return true;
    }
    return false;
}

bool hasUnrenderedActions(const QByteArray& bytes) {
    return bytes.contains("{{");
}

} // namespace pb::bundle
