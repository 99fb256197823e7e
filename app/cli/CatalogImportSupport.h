// What the CatalogImport commands share (one command per file: CatalogImportCommand.cpp,
// CatalogListCommand.cpp).
#pragma once

#include "cli/CliUtil.h"
#include "cli/Commands.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportCatalogGit.h"

#include "db/Database.h"
#include "store/CatalogStore.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::store;

inline QJsonObject originJson(const CatalogVersionInfo& v) {
    QJsonObject o{{QStringLiteral("kind"), v.origin.kind}};
    for (auto [key, value] : {std::pair{"repository", v.origin.repository}, std::pair{"ref", v.origin.ref},
                              std::pair{"tag", v.origin.tag}, std::pair{"commit", v.origin.commit},
                              std::pair{"path", v.origin.path}})
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    if (v.origin.commitDate.isValid())
        o.insert(QStringLiteral("commitDate"), v.origin.commitDate.toString(Qt::ISODate));
    return o;
}

// catalog import --git REPO: one version per ref, read from the repository without a checkout.
inline int catalogImportGit(const QCommandLineParser& p) {
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("--git reads the catalog from the repository; give no catalog directory"),
                     QStringLiteral("catalog import"));
    ops::ImportCatalogGitRequest request;
    request.repository = p.value(QStringLiteral("git"));
    request.refs = p.values(QStringLiteral("ref"));
    request.tagGlob = p.value(QStringLiteral("tags"));
    if (p.isSet(QStringLiteral("path")))
        request.path = p.value(QStringLiteral("path"));
    request.label = p.value(QStringLiteral("version"));
    request.replace = p.isSet(QStringLiteral("replace"));
    request.expectRelease = p.value(QStringLiteral("expect-release"));
    if (request.refs.isEmpty() && request.tagGlob.isEmpty())
        return usage(QStringLiteral("--git needs --ref REF (repeatable) or --tags GLOB"),
                     QStringLiteral("catalog import"));
    if (!request.label.isEmpty() && (request.refs.size() != 1 || !request.tagGlob.isEmpty()))
        return usage(
            QStringLiteral(
                "--version labels a single ref; with several refs or --tags each version is labelled by "
                "its tag or ref name"),
            QStringLiteral("catalog import"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<ops::ImportCatalogGitOutcome> r = ops::importCatalogGit(ops::Context(**db), request);
    if (!r)
        return fail(r.error());
    for (const QString& skipped : r->skippedRefs)
        err() << "warning: skipped " << skipped << ": the ref's name is not UTF-8" << Qt::endl;
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray versions;
        for (const ops::GitVersionOutcome& v : r->versions) {
            QJsonObject o{{QStringLiteral("version"), v.label},
                          {QStringLiteral("outcome"), v.outcome},
                          {QStringLiteral("ref"), v.ref},
                          {QStringLiteral("commit"), v.commit},
                          {QStringLiteral("commitDate"), v.commitDate.toString(Qt::ISODate)},
                          {QStringLiteral("path"), v.path},
                          {QStringLiteral("files"), v.files},
                          {QStringLiteral("recipes"), v.recipes},
                          {QStringLiteral("contentDigest"), v.contentDigest}};
            o.insert(QStringLiteral("tag"), v.tag.isEmpty() ? QJsonValue() : QJsonValue(v.tag));
            if (!v.sameContentAs.isEmpty())
                o.insert(QStringLiteral("sameContentAs"), v.sameContentAs);
            o.insert(QStringLiteral("signedByReleases"), QJsonArray::fromStringList(v.signedByReleases));
            versions.append(o);
        }
        printJson(QJsonObject{{QStringLiteral("repository"), r->repository},
                              {QStringLiteral("versions"), versions},
                              {QStringLiteral("skippedRefs"), QJsonArray::fromStringList(r->skippedRefs)},
                              {QStringLiteral("cancelled"), r->cancelled}});
    } else {
        for (const ops::GitVersionOutcome& v : r->versions)
            out() << "catalog version " << v.summary() << Qt::endl;
        if (r->cancelled)
            out() << "cancelled; the versions above were done" << Qt::endl;
    }
    return r->cancelled ? kFailed : kOk;
}

} // namespace pb::cli
