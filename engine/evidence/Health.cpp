#include "evidence/Health.h"

#include <QStringList>

namespace pb::evidence {

QString healthStatusName(HealthStatus s) {
    switch (s) {
    case HealthStatus::NoEvidence:
        return QStringLiteral("no evidence");
    case HealthStatus::Pending:
        return QStringLiteral("pending");
    case HealthStatus::Signed:
        return QStringLiteral("signed (not verified)");
    case HealthStatus::Verified:
        return QStringLiteral("verified");
    case HealthStatus::VerifiedFailedPhases:
        return QStringLiteral("verified, failed phases");
    case HealthStatus::VerifiedIncomplete:
        return QStringLiteral("verified, incomplete");
    case HealthStatus::Invalid:
        return QStringLiteral("invalid");
    case HealthStatus::Stale:
        return QStringLiteral("stale");
    }
    return {};
}

QString HealthRow::displayName() const {
    // A leaf whose criteria are all "any" resolves to "recipe" (or "recipe-<profile>"): every such
    // leaf would look the same; its overlay's name tells them apart.
    static const QString generic = QStringLiteral("recipe");
    if (leafOverlay.isEmpty() || !recipe.startsWith(generic))
        return recipe;
    if (recipe.size() == generic.size())
        return leafOverlay;
    if (recipe.at(generic.size()) == QLatin1Char('-'))
        return leafOverlay + recipe.mid(generic.size());
    return recipe;
}

QString HealthTableInfo::versionText() const {
    return sample ? QStringLiteral("%1 (sample data)").arg(version) : version;
}

namespace {
QJsonObject rowJson(const HealthRow& r);
} // namespace

QJsonObject healthJson(const HealthRow& r, const HealthTableInfo& info) {
    QJsonObject o = rowJson(r);
    if (!info.version.isEmpty()) {
        o.insert(QStringLiteral("catalogVersion"), info.version);
        o.insert(QStringLiteral("sample"), info.sample);
        o.insert(QStringLiteral("catalogOrigin"), info.origin);
    }
    return o;
}

namespace {

QJsonObject rowJson(const HealthRow& r) {
    return QJsonObject{
        {QStringLiteral("recipe"), r.recipe},
        {QStringLiteral("name"), r.displayName()},
        {QStringLiteral("leafOverlay"), r.leafOverlay.isEmpty() && r.inCatalog() ? r.recipe : r.leafOverlay},
        {QStringLiteral("evidenceName"), r.pointerName()},
        {QStringLiteral("service"), r.criteria.service},
        {QStringLiteral("accelerator"), r.criteria.accelerator},
        {QStringLiteral("os"), r.criteria.os},
        {QStringLiteral("intent"), r.criteria.intent},
        {QStringLiteral("platform"), r.criteria.platform},
        {QStringLiteral("status"), healthStatusName(r.status)},
        {QStringLiteral("reason"), r.reason},
        {QStringLiteral("inCatalog"), r.inCatalog()},
        {QStringLiteral("phaseCoverage"), r.phaseCoverage},
        {QStringLiteral("pointers"), r.pointers},
        {QStringLiteral("invalid"), r.invalid},
        {QStringLiteral("pending"), r.pending},
        {QStringLiteral("signers"), QJsonObject{{QStringLiteral("firstParty"), r.firstParty},
                                                {QStringLiteral("community"), r.community},
                                                {QStringLiteral("partner"), r.partner},
                                                {QStringLiteral("reportedOnly"), r.reported}}},
        {QStringLiteral("newestAttestedAt"),
         r.newestAttestedAt.isValid() ? QJsonValue(r.newestAttestedAt.toString(Qt::ISODate)) : QJsonValue()},
        {QStringLiteral("aicrVersion"), r.aicrVersion},
        {QStringLiteral("devBuild"), r.devBuild},
        {QStringLiteral("bundles"), r.bundles},
        {QStringLiteral("invalidBundles"), r.invalidBundles},
        {QStringLiteral("recordedDigest"), r.bundleDigest},
        {QStringLiteral("currentDigest"), r.currentDigest},
        {QStringLiteral("stale"), r.stale}};
}

// The recipe as the views name it, with the recipe's own name beside it when they differ
// ("monitoring-hpa (recipe)").
QString nameCell(const HealthRow& r) {
    const QString shown = r.displayName();
    return shown == r.recipe ? shown : QStringLiteral("%1 (%2)").arg(shown, r.recipe);
}

QStringList cells(const HealthRow& r, const HealthTableInfo& info) {
    auto orAny = [&r](const QString& s) {
        if (!r.inCatalog())
            return QStringLiteral("—"); // evidence for a coordinate outside this catalog version
        return s.isEmpty() ? QStringLiteral("any") : s;
    };
    return {nameCell(r),
            orAny(r.criteria.service),
            orAny(r.criteria.accelerator),
            orAny(r.criteria.os),
            orAny(r.criteria.intent),
            orAny(r.criteria.platform),
            healthStatusName(r.status),
            r.phaseCoverage,
            QStringLiteral("%1/%2/%3/%4").arg(r.firstParty).arg(r.community).arg(r.partner).arg(r.reported),
            r.newestAttestedAt.isValid() ? r.newestAttestedAt.toString(Qt::ISODate) : QString(),
            r.devBuild ? r.aicrVersion + QStringLiteral(" (dev build)") : r.aicrVersion,
            r.stale ? QStringLiteral("yes") : QStringLiteral("no"),
            r.inCatalog() ? QStringLiteral("yes") : QStringLiteral("no"),
            r.reason,
            info.versionText()};
}

const QStringList& headers() {
    static const QStringList h = {QStringLiteral("recipe"),
                                  QStringLiteral("service"),
                                  QStringLiteral("accelerator"),
                                  QStringLiteral("os"),
                                  QStringLiteral("intent"),
                                  QStringLiteral("platform"),
                                  QStringLiteral("status"),
                                  QStringLiteral("phases"),
                                  QStringLiteral("signers (1st/community/partner/reported)"),
                                  QStringLiteral("newest attestedAt"),
                                  QStringLiteral("aicrVersion"),
                                  QStringLiteral("stale"),
                                  QStringLiteral("in catalog version"),
                                  QStringLiteral("reason"),
                                  QStringLiteral("catalog version")};
    return h;
}

} // namespace

QString healthMarkdown(const std::vector<HealthRow>& rows, const HealthTableInfo& info) {
    QString out;
    if (!info.version.isEmpty()) {
        out += QStringLiteral("# Health: catalog version %1\n\n").arg(info.version);
        if (info.sample)
            out +=
                QStringLiteral("**Sample data**: Proofbench's own sample catalog, not an AICR release.\n\n");
        if (!info.origin.isEmpty())
            out += QStringLiteral("Source: %1\n\n").arg(info.origin);
    }
    out += QStringLiteral("| ") + headers().join(QStringLiteral(" | ")) + QStringLiteral(" |\n|");
    for (qsizetype i = 0; i < headers().size(); ++i)
        out += QStringLiteral("---|");
    out += QLatin1Char('\n');
    for (const HealthRow& r : rows) {
        QStringList c = cells(r, info);
        for (QString& s : c)
            s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
        out += QStringLiteral("| ") + c.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
    }
    return out;
}

QString healthCsv(const std::vector<HealthRow>& rows, const HealthTableInfo& info) {
    auto quote = [](QString s) {
        if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))) {
            s.replace(QLatin1Char('"'), QStringLiteral("\"\""));
            s = QLatin1Char('"') + s + QLatin1Char('"');
        }
        return s;
    };
    QString out;
    QStringList h;
    for (const QString& s : headers())
        h << quote(s);
    out += h.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const HealthRow& r : rows) {
        QStringList c;
        for (const QString& s : cells(r, info))
            c << quote(s);
        out += c.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace pb::evidence
