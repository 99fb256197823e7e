#include "oci/Reference.h"

#include <QRegularExpression>

namespace pb::oci {

namespace {

QString hostOf(const QString& registry) {
    if (registry.startsWith(QLatin1Char('['))) {
        const qsizetype end = registry.indexOf(QLatin1Char(']'));
        return end > 0 ? registry.mid(1, end - 1) : registry;
    }
    const qsizetype colon = registry.lastIndexOf(QLatin1Char(':'));
    return colon > 0 ? registry.left(colon) : registry;
}

} // namespace

bool isValidDigest(const QString& digest) {
    static const QRegularExpression re(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    return re.match(digest).hasMatch();
}

bool isLoopbackRegistry(const QString& registry) {
    const QString host = hostOf(registry);
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    if (host == QLatin1String("::1"))
        return true;
    static const QRegularExpression v4(QStringLiteral("^127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$"));
    return v4.match(host).hasMatch();
}

QString Reference::apiHost() const {
    if (registry == QLatin1String("docker.io") || registry == QLatin1String("index.docker.io"))
        return QStringLiteral("registry-1.docker.io");
    return registry;
}

QString Reference::toString() const {
    QString s = registry + QLatin1Char('/') + repository;
    if (!tag.isEmpty())
        s += QLatin1Char(':') + tag;
    if (!digest.isEmpty())
        s += QLatin1Char('@') + digest;
    return s;
}

Reference Reference::withDigest(const QString& d) const {
    Reference r = *this;
    r.tag.clear();
    r.digest = d;
    return r;
}

Result<Reference> parseReference(const QString& textIn) {
    QString text = textIn.trimmed();
    const QString field = QStringLiteral("reference");
    auto bad = [&](const QString& why) {
        return makeError(QStringLiteral("'%1': %2").arg(textIn, why), {}, 0, field);
    };
    if (text.startsWith(QLatin1String("oci://")))
        text = text.mid(6);
    else if (text.startsWith(QLatin1String("docker://")))
        text = text.mid(9);
    if (text.isEmpty())
        return bad(QStringLiteral("empty reference"));
    Reference r;
    const qsizetype at = text.indexOf(QLatin1Char('@'));
    if (at >= 0) {
        r.digest = text.mid(at + 1);
        text = text.left(at);
        if (!r.digest.startsWith(QLatin1String("sha256:")))
            return bad(QStringLiteral("digest '%1' is not sha256 (only sha256 digests are supported)")
                           .arg(r.digest));
        if (!isValidDigest(r.digest))
            return bad(QStringLiteral("digest '%1' is not sha256:<64 lowercase hex>").arg(r.digest));
    }
    // The first path component is a registry when it has a dot, a colon or is "localhost".
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    QString rest = text;
    if (slash > 0) {
        const QString first = text.left(slash);
        if (first.contains(QLatin1Char('.')) || first.contains(QLatin1Char(':')) ||
            first == QLatin1String("localhost")) {
            r.registry = first;
            rest = text.mid(slash + 1);
        }
    }
    if (r.registry.isEmpty())
        r.registry = QStringLiteral("docker.io");
    if (r.registry == QLatin1String("index.docker.io"))
        r.registry = QStringLiteral("docker.io");
    // A tag is after the last colon of the last path component.
    const qsizetype lastSlash = rest.lastIndexOf(QLatin1Char('/'));
    const qsizetype colon = rest.indexOf(QLatin1Char(':'), lastSlash + 1);
    if (colon >= 0) {
        r.tag = rest.mid(colon + 1);
        rest = rest.left(colon);
        static const QRegularExpression tagRe(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"));
        if (!tagRe.match(r.tag).hasMatch())
            return bad(
                QStringLiteral("tag '%1' is not a valid tag ([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})").arg(r.tag));
    }
    if (r.registry == QLatin1String("docker.io") && !rest.contains(QLatin1Char('/')))
        rest = QStringLiteral("library/") + rest;
    static const QRegularExpression repoRe(QStringLiteral(
        "^[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*)*$"));
    if (rest.isEmpty())
        return bad(QStringLiteral("no repository name"));
    if (!repoRe.match(rest).hasMatch())
        return bad(QStringLiteral("repository '%1' is not a valid name (lowercase letters, digits, "
                                  "separators . _ __ -, '/' between parts)")
                       .arg(rest));
    r.repository = rest;
    if (r.tag.isEmpty() && r.digest.isEmpty())
        r.tag = QStringLiteral("latest");
    return r;
}

} // namespace pb::oci
