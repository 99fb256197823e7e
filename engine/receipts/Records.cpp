#include "receipts/Records.h"
#include "core/Files.h"
#include "core/Plural.h"

#include "core/Hash.h"
#include "db/Database.h"
#include "receipts/Canonical.h"
#include "receipts/Ledger.h"
#include "yaml/Yaml.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <map>
#include <set>

namespace pb::receipts {

namespace {

const QString kDigestIndexKind = QStringLiteral("AICRPlatformDigestIndex");

// Fields every record of a kind must have (dotted paths), and the fields shown for it.
struct KindSpec {
    QString kind;
    QStringList required;
    QStringList shown;
};

const std::vector<KindSpec>& kindSpecs() {
    static const std::vector<KindSpec> specs = {
        {QStringLiteral("SourceGenerationReceipt"),
         {QStringLiteral("spec.source.version"), QStringLiteral("spec.source.commit"),
          QStringLiteral("spec.source.releaseAsset.sha256"), QStringLiteral("spec.result"),
          QStringLiteral("status")},
         {QStringLiteral("spec.source.version"), QStringLiteral("spec.source.commit"),
          QStringLiteral("spec.source.releaseAsset.name"), QStringLiteral("spec.source.releaseAsset.sha256"),
          QStringLiteral("spec.source.binary.sha256"), QStringLiteral("spec.result.componentCount"),
          QStringLiteral("spec.result.bundledComponentCount"),
          QStringLiteral("spec.result.renderedApplications"),
          QStringLiteral("spec.processing.transport.sourcePackage.digest"),
          QStringLiteral("spec.processing.transport.literalConfiguration.digest"),
          QStringLiteral("spec.processing.transport.publicStatus")}},
        {QStringLiteral("OciArtifactReceipt"),
         {QStringLiteral("spec.source.version"), QStringLiteral("spec.artifacts.sourcePackage"),
          QStringLiteral("spec.artifacts.literalConfiguration"), QStringLiteral("status.result")},
         {QStringLiteral("spec.source.version"), QStringLiteral("spec.deployer"),
          QStringLiteral("spec.artifacts.sourcePackage.portableDigest"),
          QStringLiteral("spec.artifacts.literalConfiguration.digest"),
          QStringLiteral("spec.artifacts.literalConfiguration.objectCount"),
          QStringLiteral("status.result")}},
        {QStringLiteral("PublicOciReceipt"),
         {QStringLiteral("spec.artifacts.sourcePackage.digest"),
          QStringLiteral("spec.artifacts.literalConfiguration.digest"), QStringLiteral("status.result")},
         {QStringLiteral("spec.verifiedAt"), QStringLiteral("spec.registry"),
          QStringLiteral("spec.artifacts.sourcePackage.reference"),
          QStringLiteral("spec.artifacts.sourcePackage.digest"),
          QStringLiteral("spec.artifacts.literalConfiguration.reference"),
          QStringLiteral("spec.artifacts.literalConfiguration.digest"), QStringLiteral("status.result")}},
        {QStringLiteral("ConfigHubUploadReceipt"),
         {QStringLiteral("spec.source.digest"), QStringLiteral("spec.unit.dataHash"),
          QStringLiteral("status.result")},
         {QStringLiteral("spec.organization"), QStringLiteral("spec.verifiedAt"),
          QStringLiteral("spec.source.reference"), QStringLiteral("spec.source.digest"),
          QStringLiteral("spec.unit.slug"), QStringLiteral("spec.unit.dataHash"),
          QStringLiteral("spec.provenanceBinding.ociManifestDigest"), QStringLiteral("status.result")}},
        {QStringLiteral("ConfigHubReleaseOciReceipt"),
         {QStringLiteral("spec.release.manifestDigest"), QStringLiteral("status.result")},
         {QStringLiteral("spec.checkedAt"), QStringLiteral("spec.release.tag"),
          QStringLiteral("spec.release.reference"), QStringLiteral("spec.release.manifestDigest"),
          QStringLiteral("spec.release.bundleDigest"), QStringLiteral("status.result")}},
        {QStringLiteral("PlatformRouteIntent"),
         {QStringLiteral("spec.routes"), QStringLiteral("status")},
         {QStringLiteral("spec.source.sourceVariant"), QStringLiteral("status.configurationGenerated"),
          QStringLiteral("status.routesExecuted"), QStringLiteral("status.runtimeProven")}},
        {QStringLiteral("SourceFieldPolicyAssessment"),
         {QStringLiteral("spec.controls"), QStringLiteral("status")},
         {QStringLiteral("spec.retainedEntry.sourceVariant"),
          QStringLiteral("spec.retainedEntry.selectedProfile"), QStringLiteral("status.configPlaneOnly"),
          QStringLiteral("status.targetContacted")}},
        {QStringLiteral("FieldPolicyAssessment"),
         {QStringLiteral("spec"), QStringLiteral("status")},
         {QStringLiteral("spec.retainedEntry.sourceVariant"), QStringLiteral("status.configPlaneOnly")}},
        {QStringLiteral("FlatteningSafetyVerdict"),
         {QStringLiteral("spec.subject.platformDigest"), QStringLiteral("spec.verdict.lane")},
         {QStringLiteral("spec.subject.entry"), QStringLiteral("spec.subject.upstreamVersion"),
          QStringLiteral("spec.subject.platformDigest"), QStringLiteral("spec.verdict.lane")}},
        {QStringLiteral("SourceCatalogRecord"),
         {QStringLiteral("spec.source.version"), QStringLiteral("spec.catalog.digest"),
          QStringLiteral("status.result")},
         {QStringLiteral("spec.source.version"), QStringLiteral("spec.source.commit"),
          QStringLiteral("spec.catalog.digest"), QStringLiteral("spec.selection.name"),
          QStringLiteral("spec.selection.componentCount"), QStringLiteral("status.result")}},
        {QStringLiteral("AicrUpstreamProvenanceReceipt"),
         {QStringLiteral("spec.upstream.version"), QStringLiteral("spec.upstream.archiveSha256"),
          QStringLiteral("status.result")},
         {QStringLiteral("spec.upstream.version"), QStringLiteral("spec.upstream.commit"),
          QStringLiteral("spec.upstream.archiveSha256"), QStringLiteral("spec.upstream.checksumListSha256"),
          QStringLiteral("spec.binary.attestedSha256"), QStringLiteral("spec.sbom.sha256"),
          QStringLiteral("status.result")}},
        {kDigestIndexKind,
         {QStringLiteral("spec.platformDigest"), QStringLiteral("spec.source"),
          QStringLiteral("spec.criteria"), QStringLiteral("spec.transports"), QStringLiteral("spec.members")},
         {QStringLiteral("spec.platformDigest"), QStringLiteral("spec.source.version"),
          QStringLiteral("status.result")}},
    };
    return specs;
}

const KindSpec* specFor(const QString& kind) {
    for (const KindSpec& s : kindSpecs())
        if (s.kind == kind)
            return &s;
    return nullptr;
}

QJsonValue at(const QJsonObject& o, const QString& dotted) {
    QJsonValue v = o;
    for (const QString& part : dotted.split(QLatin1Char('.'))) {
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(part);
    }
    return v;
}

QString str(const QJsonObject& o, const QString& dotted) {
    const QJsonValue v = at(o, dotted);
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble());
    return {};
}

// The line of the deepest existing node on a dotted path, for "missing field" errors.
int lineOf(const yaml::Node& root, const QString& dotted, bool* found) {
    const yaml::Node* n = &root;
    int line = root.line;
    *found = true;
    for (const QString& part : dotted.split(QLatin1Char('.'))) {
        const yaml::Node* next = n->isMap() ? n->get(part.toStdString()) : nullptr;
        if (!next || next->isNull()) {
            *found = false;
            return line;
        }
        n = next;
        line = n->line;
    }
    return line;
}

QString entryOf(const QString& relative) {
    QString dir = QFileInfo(relative).path();
    static const QStringList sub = {QStringLiteral("source-catalog"), QStringLiteral("digest-index"),
                                    QStringLiteral("argocd-rendered"), QStringLiteral("confighub-release")};
    if (sub.contains(QFileInfo(dir).fileName()))
        dir = QFileInfo(dir).path();
    return dir == QLatin1String(".") ? QString() : dir;
}

QString hex(const QString& digest) {
    return digest.startsWith(QLatin1String("sha256:")) ? digest.mid(7) : digest;
}

RecordCheck compare(const QString& check, const QString& file, const QString& what, const QString& expected,
                    const QString& actual) {
    RecordCheck c;
    c.check = check;
    c.file = file;
    c.expected = expected;
    c.actual = actual;
    if (expected.isEmpty() || actual.isEmpty()) {
        c.verdict = Verdict::NotChecked;
        c.detail = what + QStringLiteral(": a side is not recorded");
    } else if (hex(expected) == hex(actual)) {
        c.verdict = Verdict::Pass;
        c.detail = what + QStringLiteral(": equal");
    } else {
        c.verdict = Verdict::Fail;
        c.detail = what + QStringLiteral(": differ");
    }
    return c;
}

const ExternalRecord* findKind(const std::vector<const ExternalRecord*>& list, const QString& kind) {
    for (const ExternalRecord* r : list)
        if (r->kind == kind)
            return r;
    return nullptr;
}

// The digest index: recorded platform digest against the recomputed one, each payload present
// against its recorded sha256 (and its canonical form), the generation receipt's source and
// criteria against the index's.
void checkDigestIndex(const QString& root, const ExternalRecord& index, const ExternalRecord* generation,
                      std::vector<RecordCheck>& out) {
    const QJsonObject spec = index.document.value(QStringLiteral("spec")).toObject();
    out.push_back(compare(
        QStringLiteral("digest-index.platform-digest"), index.relative,
        QStringLiteral(
            "platform digest recorded in the index against the one recomputed from its source, criteria, "
            "transports and members"),
        spec.value(QStringLiteral("platformDigest")).toString(), platformDigest(index.document)));
    const QDir dir = QFileInfo(index.path).dir();
    int present = 0, missing = 0;
    for (const QJsonValue& mv : spec.value(QStringLiteral("members")).toArray()) {
        const QJsonObject m = mv.toObject();
        const QString rel = m.value(QStringLiteral("payloadPath")).toString();
        const QString recorded = m.value(QStringLiteral("payloadSha256")).toString();
        const QString relFile = QDir(root).relativeFilePath(dir.filePath(rel));
        QFile f(dir.filePath(rel));
        if (rel.isEmpty() || !openInputFile(f).ok()) {
            ++missing;
            continue;
        }
        ++present;
        const QByteArray bytes = f.readAll();
        RecordCheck c =
            compare(QStringLiteral("digest-index.payload"), relFile,
                    QStringLiteral("payload %1: sha256 of the file against the index's payloadSha256")
                        .arg(m.value(QStringLiteral("component")).toString()),
                    recorded, sha256Hex(bytes));
        if (c.verdict == Verdict::Fail)
            c.detail =
                QStringLiteral(
                    "payload file %1 does not hash to the payloadSha256 the index records: the file changed")
                    .arg(relFile);
        out.push_back(c);
        // The payload text must be the canonical form of its own JSON plus a newline.
        const QJsonDocument doc = QJsonDocument::fromJson(bytes);
        if (!doc.isObject())
            out.push_back(RecordCheck{QStringLiteral("digest-index.payload-form"), relFile, Verdict::Fail,
                                      QStringLiteral("payload file %1 is not a JSON object").arg(relFile),
                                      recorded, QString()});
        else
            out.push_back(compare(QStringLiteral("digest-index.payload-form"), relFile,
                                  QStringLiteral("payload %1 re-serialised canonically").arg(relFile),
                                  recorded, sha256Hex(canonicalJson(doc.object()) + '\n')));
    }
    if (missing > 0)
        out.push_back(RecordCheck{
            QStringLiteral("digest-index.payloads-present"), index.relative, Verdict::Incomplete,
            QStringLiteral("%1 of %2 payload files are present; the others were not retained here")
                .arg(present)
                .arg(present + missing),
            QString::number(present + missing), QString::number(present)});
    if (generation) {
        const QJsonObject gspec = generation->document.value(QStringLiteral("spec")).toObject();
        const QJsonValue criteria =
            gspec.value(QStringLiteral("sourceAndIntent")).toObject().contains(QStringLiteral("criteria"))
                ? at(gspec, QStringLiteral("sourceAndIntent.criteria"))
                : gspec.value(QStringLiteral("criteria"));
        out.push_back(compare(
            QStringLiteral("digest-index.source"), index.relative,
            QStringLiteral("the index's source against %1 spec.source (sha256 of their canonical JSON)")
                .arg(generation->relative),
            sha256Hex(canonicalJson(gspec.value(QStringLiteral("source")))),
            sha256Hex(canonicalJson(spec.value(QStringLiteral("source"))))));
        out.push_back(
            compare(QStringLiteral("digest-index.criteria"), index.relative,
                    QStringLiteral("the index's criteria against %1's criteria").arg(generation->relative),
                    QString::fromUtf8(canonicalJson(criteria)),
                    QString::fromUtf8(canonicalJson(spec.value(QStringLiteral("criteria"))))));
    }
}

// The digests the generation, OCI, public OCI and ConfigHub upload receipts share.
void checkPublication(const ExternalRecord* gen, const ExternalRecord* oci, const ExternalRecord* pub,
                      const ExternalRecord* upload, std::vector<RecordCheck>& out) {
    const QString tSrc = QStringLiteral("spec.processing.transport.sourcePackage.digest");
    const QString tCfg = QStringLiteral("spec.processing.transport.literalConfiguration.digest");
    if (gen && oci) {
        out.push_back(
            compare(QStringLiteral("shared-digest"), oci->relative,
                    QStringLiteral(
                        "source package digest: %1 spec.artifacts.sourcePackage.portableDigest against %2 %3")
                        .arg(oci->relative, gen->relative, tSrc),
                    str(gen->document, tSrc),
                    str(oci->document, QStringLiteral("spec.artifacts.sourcePackage.portableDigest"))));
        out.push_back(compare(
            QStringLiteral("shared-digest"), oci->relative,
            QStringLiteral(
                "literal configuration digest: %1 spec.artifacts.literalConfiguration.digest against %2 %3")
                .arg(oci->relative, gen->relative, tCfg),
            str(gen->document, tCfg),
            str(oci->document, QStringLiteral("spec.artifacts.literalConfiguration.digest"))));
        out.push_back(
            compare(QStringLiteral("shared-digest"), oci->relative,
                    QStringLiteral("source version: %1 against %2").arg(oci->relative, gen->relative),
                    str(gen->document, QStringLiteral("spec.source.version")),
                    str(oci->document, QStringLiteral("spec.source.version"))));
    }
    if (gen && pub) {
        out.push_back(
            compare(QStringLiteral("shared-digest"), pub->relative,
                    QStringLiteral("published source package digest against %1 %2").arg(gen->relative, tSrc),
                    str(gen->document, tSrc),
                    str(pub->document, QStringLiteral("spec.artifacts.sourcePackage.digest"))));
        out.push_back(compare(
            QStringLiteral("shared-digest"), pub->relative,
            QStringLiteral("published literal configuration digest against %1 %2").arg(gen->relative, tCfg),
            str(gen->document, tCfg),
            str(pub->document, QStringLiteral("spec.artifacts.literalConfiguration.digest"))));
    }
    if (pub && upload) {
        out.push_back(compare(
            QStringLiteral("shared-digest"), upload->relative,
            QStringLiteral("uploaded source digest against the published literal configuration digest in %1")
                .arg(pub->relative),
            str(pub->document, QStringLiteral("spec.artifacts.literalConfiguration.digest")),
            str(upload->document, QStringLiteral("spec.source.digest"))));
    }
    if (upload)
        out.push_back(compare(
            QStringLiteral("shared-digest"), upload->relative,
            QStringLiteral("provenance binding OCI manifest digest against the uploaded source digest"),
            str(upload->document, QStringLiteral("spec.source.digest")),
            str(upload->document, QStringLiteral("spec.provenanceBinding.ociManifestDigest"))));
}

// Each index transport's manifest digest against the OCI receipt and its retained OCI layout.
void checkTransports(const QString& root, const QString& entry, const ExternalRecord& index,
                     const ExternalRecord& oci, std::vector<RecordCheck>& out) {
    for (const QJsonValue& tv : at(index.document, QStringLiteral("spec.transports")).toArray()) {
        const QJsonObject t = tv.toObject();
        const QString role = t.value(QStringLiteral("role")).toString();
        const QString field = role == QLatin1String("source-package")
                                  ? QStringLiteral("spec.artifacts.sourcePackage.portableDigest")
                                  : QStringLiteral("spec.artifacts.literalConfiguration.digest");
        out.push_back(compare(QStringLiteral("shared-digest"), index.relative,
                              QStringLiteral("transport %1 manifest digest against %2 %3")
                                  .arg(t.value(QStringLiteral("id")).toString(), oci.relative, field),
                              str(oci.document, field),
                              t.value(QStringLiteral("manifestDigest")).toString()));
        // The retained OCI layout's index.json names the same manifest.
        const QString layout = t.value(QStringLiteral("ociLayout")).toString();
        const QString indexPath =
            QDir(root).filePath(entry + QLatin1Char('/') + layout + QStringLiteral("/index.json"));
        Result<QByteArray> indexBytes =
            layout.isEmpty() ? Result<QByteArray>(makeError(QStringLiteral("no OCI layout")))
                             : readFileLimited(indexPath, limits::kConfigFile, QStringLiteral("index.json"));
        if (indexBytes) {
            const QJsonArray manifests =
                QJsonDocument::fromJson(*indexBytes).object().value(QStringLiteral("manifests")).toArray();
            out.push_back(compare(
                QStringLiteral("oci-layout"), QDir(root).relativeFilePath(indexPath),
                QStringLiteral("OCI layout %1 index.json manifest digest against the index transport")
                    .arg(layout),
                t.value(QStringLiteral("manifestDigest")).toString(),
                manifests.size() == 1 ? manifests.at(0).toObject().value(QStringLiteral("digest")).toString()
                                      : QString()));
        }
    }
}

// The ConfigHub release OCI receipt's reference and resolved digests against its manifest digest.
void checkRelease(const std::vector<const ExternalRecord*>& recs, std::vector<RecordCheck>& out) {
    if (const ExternalRecord* release = findKind(recs, QStringLiteral("ConfigHubReleaseOciReceipt"))) {
        const QString manifest = str(release->document, QStringLiteral("spec.release.manifestDigest"));
        const QString reference = str(release->document, QStringLiteral("spec.release.reference"));
        const qsizetype at_ = reference.lastIndexOf(QLatin1Char('@'));
        out.push_back(compare(QStringLiteral("shared-digest"), release->relative,
                              QStringLiteral("release reference digest against spec.release.manifestDigest"),
                              manifest, at_ >= 0 ? reference.mid(at_ + 1) : QString()));
        out.push_back(compare(
            QStringLiteral("shared-digest"), release->relative,
            QStringLiteral("resolved manifest digest (registry pull) against spec.release.manifestDigest"),
            manifest, str(release->document, QStringLiteral("spec.release.resolvedManifestDigest"))));
    }
}

// Upstream provenance receipts (kept elsewhere, e.g. runs/) for the same AICR version.
void checkUpstreamProvenance(const ExternalRecord& gen, const std::vector<ExternalRecord>& all,
                             std::vector<RecordCheck>& out) {
    const QString version = str(gen.document, QStringLiteral("spec.source.version"));
    for (const ExternalRecord& p : all) {
        if (p.kind != QLatin1String("AicrUpstreamProvenanceReceipt") ||
            str(p.document, QStringLiteral("spec.upstream.version")) != version)
            continue;
        const std::pair<const char*, const char*> pairs[] = {
            {"spec.source.releaseAsset.sha256", "spec.upstream.archiveSha256"},
            {"spec.source.releaseChecksums.sha256", "spec.upstream.checksumListSha256"},
            {"spec.source.binary.sha256", "spec.binary.attestedSha256"},
            {"spec.source.sbom.sha256", "spec.sbom.sha256"},
            {"spec.source.commit", "spec.upstream.commit"},
        };
        for (const auto& [g, q] : pairs)
            out.push_back(compare(QStringLiteral("shared-digest"), p.relative,
                                  QStringLiteral("%1 %2 against %3 %4")
                                      .arg(p.relative, QLatin1String(q), gen.relative, QLatin1String(g)),
                                  str(gen.document, QLatin1String(g)), str(p.document, QLatin1String(q))));
    }
}

void checkEntry(const QString& root, const QString& entry, const std::vector<const ExternalRecord*>& recs,
                const std::vector<ExternalRecord>& all, std::vector<RecordCheck>& out) {
    const ExternalRecord* gen = findKind(recs, QStringLiteral("SourceGenerationReceipt"));
    const ExternalRecord* oci = findKind(recs, QStringLiteral("OciArtifactReceipt"));
    const ExternalRecord* pub = findKind(recs, QStringLiteral("PublicOciReceipt"));
    const ExternalRecord* upload = findKind(recs, QStringLiteral("ConfigHubUploadReceipt"));
    const ExternalRecord* index = findKind(recs, kDigestIndexKind);
    const ExternalRecord* flat = findKind(recs, QStringLiteral("FlatteningSafetyVerdict"));
    const ExternalRecord* catalog = findKind(recs, QStringLiteral("SourceCatalogRecord"));

    if (index)
        checkDigestIndex(root, *index, gen, out);
    checkPublication(gen, oci, pub, upload, out);
    if (index && oci)
        checkTransports(root, entry, *index, *oci, out);
    checkRelease(recs, out);
    if (flat && index)
        out.push_back(compare(
            QStringLiteral("shared-digest"), flat->relative,
            QStringLiteral("flattening verdict spec.subject.platformDigest against %1 spec.platformDigest")
                .arg(index->relative),
            str(index->document, QStringLiteral("spec.platformDigest")),
            str(flat->document, QStringLiteral("spec.subject.platformDigest"))));
    if (gen && catalog)
        out.push_back(
            compare(QStringLiteral("shared-digest"), catalog->relative,
                    QStringLiteral("source catalog commit against %1 spec.source.commit").arg(gen->relative),
                    str(gen->document, QStringLiteral("spec.source.commit")),
                    str(catalog->document, QStringLiteral("spec.source.commit"))));
    if (gen)
        checkUpstreamProvenance(*gen, all, out);
}

StageResult fromStatus(const QJsonValue& v) {
    if (v.isBool())
        return v.toBool() ? StageResult::Complete : StageResult::NotRun;
    const QString s = v.toString();
    if (s == QLatin1String("pass") || s == QLatin1String("complete") || s == QLatin1String("true"))
        return StageResult::Complete;
    if (s == QLatin1String("partial"))
        return StageResult::Partial;
    return StageResult::NotRun;
}

QString statusText(const QJsonValue& v) {
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return v.isUndefined() ? QStringLiteral("absent") : v.toString();
}

} // namespace

QStringList recordKinds() {
    QStringList out;
    for (const KindSpec& s : kindSpecs())
        out << s.kind;
    return out;
}

QString verdictName(Verdict v) {
    switch (v) {
    case Verdict::Pass:
        return QStringLiteral("pass");
    case Verdict::Fail:
        return QStringLiteral("fail");
    case Verdict::Incomplete:
        return QStringLiteral("incomplete");
    case Verdict::NotChecked:
        return QStringLiteral("not-checked");
    }
    return {};
}

QString stageResultName(StageResult r) {
    switch (r) {
    case StageResult::Complete:
        return QStringLiteral("complete");
    case StageResult::Partial:
        return QStringLiteral("partial");
    case StageResult::NotRun:
        return QStringLiteral("not run");
    }
    return {};
}

QJsonObject RecordCheck::toJson() const {
    return QJsonObject{{QStringLiteral("check"), check},
                       {QStringLiteral("file"), file},
                       {QStringLiteral("verdict"), verdictName(verdict)},
                       {QStringLiteral("detail"), detail},
                       {QStringLiteral("expected"), expected},
                       {QStringLiteral("actual"), actual}};
}

QJsonObject StageRow::toJson() const {
    return QJsonObject{{QStringLiteral("entry"), entry},
                       {QStringLiteral("stage"), stage},
                       {QStringLiteral("result"), stageResultName(result)},
                       {QStringLiteral("record"), record},
                       {QStringLiteral("detail"), detail}};
}

bool RecordsReport::ok() const {
    return problems.empty() && failed() == 0;
}

int RecordsReport::failed() const {
    return static_cast<int>(std::count_if(checks.begin(), checks.end(),
                                          [](const RecordCheck& c) { return c.verdict == Verdict::Fail; }));
}

QJsonObject RecordsReport::toJson() const {
    QJsonArray recs, chks, probs, stg;
    for (const ExternalRecord& r : records)
        recs.append(QJsonObject{{QStringLiteral("file"), r.relative},
                                {QStringLiteral("entry"), r.entry},
                                {QStringLiteral("kind"), r.kind},
                                {QStringLiteral("apiVersion"), r.apiVersion},
                                {QStringLiteral("name"), r.name},
                                {QStringLiteral("sha256"), r.sha256},
                                {QStringLiteral("size"), r.size},
                                {QStringLiteral("fields"), r.fields},
                                {QStringLiteral("document"), r.document}});
    for (const RecordCheck& c : checks)
        chks.append(c.toJson());
    for (const Error& e : problems)
        probs.append(QJsonObject{{QStringLiteral("file"), e.file},
                                 {QStringLiteral("line"), e.line},
                                 {QStringLiteral("field"), e.field},
                                 {QStringLiteral("message"), e.message}});
    for (const StageRow& s : stages)
        stg.append(s.toJson());
    return QJsonObject{{QStringLiteral("root"), root},      {QStringLiteral("ok"), ok()},
                       {QStringLiteral("records"), recs},   {QStringLiteral("checks"), chks},
                       {QStringLiteral("problems"), probs}, {QStringLiteral("stages"), stg}};
}

QString RecordsReport::toText() const {
    QString out;
    out += QStringLiteral("%1 below %2\n")
               .arg(counted(qint64(records.size()), QStringLiteral("record"), QStringLiteral("records")))
               .arg(root);
    for (const ExternalRecord& r : records) {
        out += QStringLiteral("  %1  %2 (%3)\n").arg(r.kind, r.relative, r.name);
        for (auto it = r.fields.begin(); it != r.fields.end(); ++it)
            out += QStringLiteral("      %1: %2\n")
                       .arg(it.key(), it.value().isString() ? it.value().toString()
                                                            : QString::fromUtf8(canonicalJson(it.value())));
    }
    out += QStringLiteral("\nChecks:\n");
    for (const RecordCheck& c : checks) {
        out += QStringLiteral("  %1  %2  %3: %4\n")
                   .arg(verdictName(c.verdict).toUpper(), -11)
                   .arg(c.check, c.file, c.detail);
        if (c.verdict == Verdict::Fail || c.verdict == Verdict::Pass)
            out += QStringLiteral("      recorded %1\n      found    %2\n").arg(c.expected, c.actual);
    }
    for (const Error& e : problems)
        out += QStringLiteral("  PROBLEM      %1\n").arg(e.toString());
    QString lastEntry;
    for (const StageRow& s : stages) {
        if (s.entry != lastEntry) {
            out += QStringLiteral("\nStages of %1:\n").arg(s.entry);
            lastEntry = s.entry;
        }
        out += QStringLiteral("  %1 %2 %3%4\n")
                   .arg(s.stage, -55)
                   .arg(stageResultName(s.result), -9)
                   .arg(s.record.isEmpty() ? QStringLiteral("(no record)") : s.record,
                        s.detail.isEmpty() ? QString() : QStringLiteral("  [%1]").arg(s.detail));
    }
    out += QStringLiteral("\n%1: %2, %3 failed, %4\n")
               .arg(ok() ? QStringLiteral("OK") : QStringLiteral("FAILED"))
               .arg(counted(qint64(checks.size()), QStringLiteral("check"), QStringLiteral("checks")))
               .arg(failed())
               .arg(counted(qint64(problems.size()), QStringLiteral("problem"), QStringLiteral("problems")));
    return out;
}

QString platformDigest(const QJsonObject& platformIndex) {
    const QJsonObject spec = platformIndex.value(QStringLiteral("spec")).toObject();
    QJsonArray transports, members;
    for (const QJsonValue& v : spec.value(QStringLiteral("transports")).toArray()) {
        const QJsonObject t = v.toObject();
        transports.append(
            QJsonObject{{QStringLiteral("id"), t.value(QStringLiteral("id"))},
                        {QStringLiteral("role"), t.value(QStringLiteral("role"))},
                        {QStringLiteral("manifestDigest"), t.value(QStringLiteral("manifestDigest"))}});
    }
    for (const QJsonValue& v : spec.value(QStringLiteral("members")).toArray()) {
        const QJsonObject m = v.toObject();
        members.append(QJsonObject{
            {QStringLiteral("component"), m.value(QStringLiteral("component"))},
            {QStringLiteral("role"), m.value(QStringLiteral("role"))},
            {QStringLiteral("syncWave"),
             m.contains(QStringLiteral("syncWave")) ? m.value(QStringLiteral("syncWave")) : QJsonValue()},
            {QStringLiteral("payloadSha256"), m.value(QStringLiteral("payloadSha256"))}});
    }
    const QJsonObject input{{QStringLiteral("source"), spec.value(QStringLiteral("source"))},
                            {QStringLiteral("criteria"), spec.value(QStringLiteral("criteria"))},
                            {QStringLiteral("transports"), transports},
                            {QStringLiteral("members"), members}};
    return QStringLiteral("sha256:") + sha256Hex(canonicalJson(input));
}

std::vector<RecordCheck> checkChecksums(const QString& checksumsFile, const QString& relativeName) {
    std::vector<RecordCheck> out;
    QFile f(checksumsFile);
    if (Status s = openInputFile(f); !s) {
        out.push_back(
            RecordCheck{QStringLiteral("checksums"), relativeName, Verdict::Fail, s.error().message, {}, {}});
        return out;
    }
    const QDir dir = QFileInfo(checksumsFile).dir();
    static const QRegularExpression row(QStringLiteral("^([0-9a-f]{64}) [ *](.+)$"));
    const QString relDir = QFileInfo(relativeName).path();
    auto relOf = [&](const QString& p) {
        return relDir == QLatin1String(".") ? p : relDir + QLatin1Char('/') + p;
    };
    int matched = 0, missing = 0, differ = 0, lineNo = 0, bad = 0;
    std::set<QString> listed;
    Result<QByteArray> read = readLimited(f, limits::kDocumentFile, QStringLiteral("the checksums list"));
    if (!read) {
        out.push_back(RecordCheck{
            QStringLiteral("checksums"), relativeName, Verdict::Fail, read.error().message, {}, {}});
        return out;
    }
    const QByteArray listing = *read;
    for (const QByteArray& raw : listing.split('\n')) {
        ++lineNo;
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty())
            continue;
        const auto m = row.match(line);
        if (!m.hasMatch()) {
            ++bad;
            out.push_back(RecordCheck{
                QStringLiteral("checksums"),
                relativeName,
                Verdict::Fail,
                QStringLiteral("%1:%2: not a \"<sha256>  <path>\" line").arg(relativeName).arg(lineNo),
                {},
                {}});
            continue;
        }
        const QString path = m.captured(2);
        // The inventory covers the files beside it: an absolute path or one that climbs out with
        // ".." would hash files elsewhere on this machine.
        if (QDir::isAbsolutePath(path) || path.split(QLatin1Char('/')).contains(QStringLiteral(".."))) {
            ++bad;
            out.push_back(RecordCheck{QStringLiteral("checksums"),
                                      relativeName,
                                      Verdict::Fail,
                                      QStringLiteral("%1:%2: '%3' is outside the directory of the list")
                                          .arg(relativeName)
                                          .arg(lineNo)
                                          .arg(path.left(200)),
                                      {},
                                      {}});
            continue;
        }
        listed.insert(path);
        const QString full = dir.filePath(path);
        if (!QFileInfo(full).isFile()) {
            ++missing;
            continue;
        }
        const Artifact a = Artifact::file(full);
        if (a.sha256 == m.captured(1)) {
            ++matched;
        } else {
            ++differ;
            out.push_back(RecordCheck{QStringLiteral("checksums"), relOf(path), Verdict::Fail,
                                      QStringLiteral("%1 does not match its row in %2: the file changed")
                                          .arg(relOf(path), relativeName),
                                      m.captured(1), a.sha256});
        }
    }
    // Files beside checksums.txt that it does not list (the inventory must be closed).
    int extra = 0;
    QDirIterator it(dir.path(), QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString rel = dir.relativeFilePath(it.next());
        if (rel == QFileInfo(checksumsFile).fileName() || listed.count(rel))
            continue;
        ++extra;
        out.push_back(RecordCheck{QStringLiteral("checksums"),
                                  relOf(rel),
                                  Verdict::Fail,
                                  QStringLiteral("%1 is not listed in %2").arg(relOf(rel), relativeName),
                                  {},
                                  {}});
    }
    RecordCheck summary;
    summary.check = QStringLiteral("checksums");
    summary.file = relativeName;
    summary.verdict = differ || extra || bad ? Verdict::Fail : missing ? Verdict::Incomplete : Verdict::Pass;
    summary.detail =
        QStringLiteral("%1 of %2 listed file(s) match, %3 differ, %4 not present here, %5 unlisted")
            .arg(matched)
            .arg(listed.size())
            .arg(differ)
            .arg(missing)
            .arg(extra);
    summary.expected = QString::number(listed.size());
    summary.actual = QString::number(matched);
    out.push_back(summary);
    return out;
}

namespace {

// The stage table being built for one entry, and the generation receipt whose status words stand
// in for stages that have no record of their own.
struct StageRows {
    const QString& entry;
    const ExternalRecord* gen = nullptr;
    std::vector<StageRow> rows;

    void add(const QString& stage, StageResult result, const ExternalRecord* rec, const QString& detail) {
        rows.push_back(StageRow{entry, stage, result, rec ? rec->relative : QString(), detail});
    }
    QJsonValue genStatus(const QString& key) const {
        return gen ? at(gen->document, QStringLiteral("status.") + key) : QJsonValue(QJsonValue::Undefined);
    }
    // A later record of the stage itself wins over the generation receipt's status word.
    void fromRecordOr(const QString& stage, const ExternalRecord* rec, const QString& genKey) {
        if (rec) {
            const QJsonValue v = at(rec->document, QStringLiteral("status.result"));
            add(stage, fromStatus(v), rec, QStringLiteral("status.result: ") + statusText(v));
        } else if (gen && !genStatus(genKey).isUndefined()) {
            add(stage, fromStatus(genStatus(genKey)), gen,
                QStringLiteral("status.%1: %2").arg(genKey, statusText(genStatus(genKey))));
        } else {
            add(stage, StageResult::NotRun, nullptr, QString());
        }
    }
};

// 1. Select the source variant.
void selectSourceStage(StageRows& s, const ExternalRecord* catalog) {
    if (catalog) {
        const QJsonValue v = at(catalog->document, QStringLiteral("status.result"));
        s.add(QStringLiteral("Select the AICR source variant"), fromStatus(v), catalog,
              QStringLiteral("status.result: ") + statusText(v));
    } else if (s.gen) {
        s.add(QStringLiteral("Select the AICR source variant"),
              fromStatus(s.genStatus(QStringLiteral("generated"))), s.gen,
              QStringLiteral("spec.result.componentCount: %1")
                  .arg(str(s.gen->document, QStringLiteral("spec.result.componentCount"))));
    } else {
        s.add(QStringLiteral("Select the AICR source variant"), StageResult::NotRun, nullptr, QString());
    }
}

// 2. Verify the upstream source: the three signatures the generation receipt records, or the
// provenance receipt.
void upstreamStage(StageRows& s, const ExternalRecord* provenance) {
    const QStringList keys = {QStringLiteral("upstreamSignatureVerified"),
                              QStringLiteral("binaryAttestationVerified"),
                              QStringLiteral("sbomAttestationVerified")};
    int yes = 0, known = 0;
    for (const QString& k : keys) {
        const QJsonValue v = s.genStatus(k);
        known += !v.isUndefined();
        yes += fromStatus(v) == StageResult::Complete;
    }
    if (provenance) {
        const QJsonValue v = at(provenance->document, QStringLiteral("status.result"));
        s.add(QStringLiteral("Verify the upstream source"), fromStatus(v), provenance,
              QStringLiteral("status.result: ") + statusText(v));
    } else if (known > 0) {
        s.add(QStringLiteral("Verify the upstream source"),
              yes == known ? StageResult::Complete
              : yes > 0    ? StageResult::Partial
                           : StageResult::NotRun,
              s.gen, QStringLiteral("%1 of %2 signature checks verified").arg(yes).arg(known));
    } else {
        s.add(QStringLiteral("Verify the upstream source"), StageResult::NotRun, nullptr, QString());
    }
}

// 3. Generate the wrapper and exact Applications.
void generateStage(StageRows& s) {
    if (s.gen) {
        const bool generated = fromStatus(s.genStatus(QStringLiteral("generated"))) == StageResult::Complete;
        const bool bundled =
            fromStatus(s.genStatus(QStringLiteral("sourceBundleGenerated"))) == StageResult::Complete;
        s.add(QStringLiteral("Generate the wrapper and exact Applications"),
              generated && bundled   ? StageResult::Complete
              : generated || bundled ? StageResult::Partial
                                     : StageResult::NotRun,
              s.gen,
              QStringLiteral("%1 Applications")
                  .arg(str(s.gen->document, QStringLiteral("spec.result.renderedApplications"))));
    } else {
        s.add(QStringLiteral("Generate the wrapper and exact Applications"), StageResult::NotRun, nullptr,
              QString());
    }
}

// 5. Nested chart objects and lifecycle work: the route intent's routes.
void routesStage(StageRows& s, const ExternalRecord* route) {
    if (route) {
        const QJsonArray routes = at(route->document, QStringLiteral("spec.routes")).toArray();
        int done = 0;
        for (const QJsonValue& r : routes)
            done += fromStatus(r.toObject().value(QStringLiteral("status"))) == StageResult::Complete;
        s.add(QStringLiteral("Resolve all nested chart objects and lifecycle work"),
              done == 0               ? StageResult::NotRun
              : done == routes.size() ? StageResult::Complete
                                      : StageResult::Partial,
              route, QStringLiteral("%1 of %2 routes executed").arg(done).arg(routes.size()));
    } else {
        s.add(QStringLiteral("Resolve all nested chart objects and lifecycle work"), StageResult::NotRun,
              nullptr, QString());
    }
}

// 8. Delivery: either deployer counts.
void deliveryStage(StageRows& s) {
    const QJsonValue argo = s.genStatus(QStringLiteral("argoCdDelivery")),
                     flux = s.genStatus(QStringLiteral("fluxDelivery"));
    const StageResult r = std::max(fromStatus(argo), fromStatus(flux), [](StageResult a, StageResult b) {
        auto rank = [](StageResult x) {
            return x == StageResult::Complete ? 2 : x == StageResult::Partial ? 1 : 0;
        };
        return rank(a) < rank(b);
    });
    s.add(QStringLiteral("Deliver through Argo CD or Flux"), r, s.gen,
          s.gen
              ? QStringLiteral("argoCdDelivery: %1, fluxDelivery: %2").arg(statusText(argo), statusText(flux))
              : QString());
}

// 9. Runtime: any status key naming a runtime (eksH100Runtime, ...).
void runtimeStage(StageRows& s) {
    QString key;
    if (s.gen)
        for (const QString& k : s.gen->document.value(QStringLiteral("status")).toObject().keys())
            if (k.endsWith(QLatin1String("Runtime")))
                key = k;
    if (!key.isEmpty())
        s.add(QStringLiteral("Run on the target cluster and GPUs"), fromStatus(s.genStatus(key)), s.gen,
              QStringLiteral("status.%1: %2").arg(key, statusText(s.genStatus(key))));
    else
        s.add(QStringLiteral("Run on the target cluster and GPUs"), StageResult::NotRun, nullptr, QString());
}

} // namespace

std::vector<StageRow> stageTable(const QString& entry, const std::vector<ExternalRecord>& records) {
    std::vector<const ExternalRecord*> mine;
    for (const ExternalRecord& r : records)
        if (r.entry == entry)
            mine.push_back(&r);
    const ExternalRecord* gen = findKind(mine, QStringLiteral("SourceGenerationReceipt"));
    const ExternalRecord* catalog = findKind(mine, QStringLiteral("SourceCatalogRecord"));
    const ExternalRecord* pub = findKind(mine, QStringLiteral("PublicOciReceipt"));
    const ExternalRecord* upload = findKind(mine, QStringLiteral("ConfigHubUploadReceipt"));
    const ExternalRecord* release = findKind(mine, QStringLiteral("ConfigHubReleaseOciReceipt"));
    const ExternalRecord* route = findKind(mine, QStringLiteral("PlatformRouteIntent"));
    const ExternalRecord* provenance = nullptr;
    if (gen)
        for (const ExternalRecord& r : records)
            if (r.kind == QLatin1String("AicrUpstreamProvenanceReceipt") &&
                str(r.document, QStringLiteral("spec.upstream.version")) ==
                    str(gen->document, QStringLiteral("spec.source.version")))
                provenance = &r;

    StageRows s{entry, gen, {}};
    selectSourceStage(s, catalog);
    upstreamStage(s, provenance);
    generateStage(s);
    s.fromRecordOr(QStringLiteral("Publish source and literal configuration OCI"), pub,
                   QStringLiteral("publicOciPublication"));
    routesStage(s, route);
    s.fromRecordOr(QStringLiteral("Retain a ConfigHub base and create derived variants"), upload,
                   QStringLiteral("configHubUpload"));
    s.fromRecordOr(QStringLiteral("Promote and publish a ConfigHub release OCI"), release,
                   QStringLiteral("configHubReleaseOci"));
    deliveryStage(s);
    runtimeStage(s);
    return std::move(s.rows);
}

namespace {

// Parses a record file's bytes into r.document: platform-index.json as JSON, else YAML whose kind
// is a record kind. False when the file is no record (or is a broken one, added to problems);
// node holds the parsed YAML, for line numbers.
bool parseRecordDocument(const QByteArray& bytes, const QString& rel, bool indexFile, ExternalRecord& r,
                         std::optional<yaml::Node>& node, std::vector<Error>& problems) {
    if (indexFile) {
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &perr);
        if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
            problems.push_back(makeError(
                QStringLiteral("not a JSON object: %1 (at byte %2)").arg(perr.errorString()).arg(perr.offset),
                rel));
            return false;
        }
        r.document = doc.object();
        return true;
    }
    // Only documents whose kind is a record kind are records; other YAML (Applications,
    // bundle-info.yaml, values files) is left alone - but a file that claims a record kind
    // and does not parse is a problem.
    Result<yaml::Node> parsed = yaml::parse(bytes, rel);
    if (!parsed) {
        static const QRegularExpression kindLine(QStringLiteral("^kind:\\s*\"?(\\w+)\"?\\s*$"),
                                                 QRegularExpression::MultilineOption);
        const auto km = kindLine.match(QString::fromUtf8(bytes));
        if (km.hasMatch() && specFor(km.captured(1)))
            problems.push_back(parsed.error());
        return false;
    }
    if (!parsed->isMap())
        return false;
    const yaml::Node* kind = parsed->get("kind");
    if (!kind || !kind->isScalar() || !specFor(kind->text()))
        return false;
    r.document = yaml::toJson(*parsed).toObject();
    node = std::move(*parsed);
    return true;
}

// Whether the record has every field its kind requires; each missing one is a problem.
bool hasRequiredFields(const ExternalRecord& r, const KindSpec& spec, const std::optional<yaml::Node>& node,
                       std::vector<Error>& problems) {
    bool complete = true;
    QStringList required = spec.required;
    required.prepend(QStringLiteral("metadata.name"));
    required.prepend(QStringLiteral("apiVersion"));
    for (const QString& field : required) {
        if (node) {
            bool found = false;
            const int line = lineOf(*node, field, &found);
            if (!found) {
                problems.push_back(makeError(QStringLiteral("required field of a %1 is missing").arg(r.kind),
                                             r.relative, line, field));
                complete = false;
            }
        } else if (at(r.document, field).isUndefined() || at(r.document, field).isNull()) {
            problems.push_back(makeError(QStringLiteral("required field of a %1 is missing").arg(r.kind),
                                         r.relative, 0, field));
            complete = false;
        }
    }
    return complete;
}

// The fields shown for the record's kind, plus the size of its list of members, routes or controls.
void fillShownFields(ExternalRecord& r, const KindSpec& spec) {
    for (const QString& field : spec.shown) {
        const QJsonValue v = at(r.document, field);
        if (!v.isUndefined())
            r.fields.insert(field, v);
    }
    if (r.kind == kDigestIndexKind) {
        r.fields.insert(QStringLiteral("members"),
                        at(r.document, QStringLiteral("spec.members")).toArray().size());
        r.fields.insert(QStringLiteral("transports"),
                        at(r.document, QStringLiteral("spec.transports")).toArray().size());
    } else if (r.kind == QLatin1String("PlatformRouteIntent")) {
        r.fields.insert(QStringLiteral("routes"),
                        at(r.document, QStringLiteral("spec.routes")).toArray().size());
    } else if (r.kind.endsWith(QLatin1String("FieldPolicyAssessment"))) {
        r.fields.insert(QStringLiteral("controls"),
                        at(r.document, QStringLiteral("spec.controls")).toArray().size());
    }
}

// The record in one YAML or platform-index.json file, if it is one; problems collects why a file
// that should be a record is not.
std::optional<ExternalRecord> readRecordFile(const QString& path, const QString& rel, bool indexFile,
                                             std::vector<Error>& problems) {
    QFile f(path);
    if (Status s = openInputFile(f); !s) {
        problems.push_back(makeError(s.error().message, rel));
        return std::nullopt;
    }
    Result<QByteArray> read = readLimited(f, limits::kConfigFile, QStringLiteral("the record"));
    if (!read) {
        problems.push_back(read.error());
        return std::nullopt;
    }
    const QByteArray bytes = *read;
    ExternalRecord r;
    r.path = path;
    r.relative = rel;
    r.entry = entryOf(rel);
    r.sha256 = sha256Hex(bytes);
    r.size = bytes.size();
    std::optional<yaml::Node> node;
    if (!parseRecordDocument(bytes, rel, indexFile, r, node, problems))
        return std::nullopt;
    r.kind = r.document.value(QStringLiteral("kind")).toString();
    r.apiVersion = r.document.value(QStringLiteral("apiVersion")).toString();
    r.name = str(r.document, QStringLiteral("metadata.name"));
    const KindSpec* spec = specFor(r.kind);
    if (!spec) {
        problems.push_back(makeError(QStringLiteral("kind '%1' is not a digest index").arg(r.kind), rel, 0,
                                     QStringLiteral("kind")));
        return std::nullopt;
    }
    if (!hasRequiredFields(r, *spec, node, problems))
        return std::nullopt;
    fillShownFields(r, *spec);
    return r;
}

// Offline checks, per entry, then every checksums.txt; stage tables for entries with a
// generation receipt (a recipe entry), in path order.
void checkRecords(RecordsReport& report, const QDir& root, const QStringList& checksumFiles) {
    std::map<QString, std::vector<const ExternalRecord*>> byEntry;
    for (const ExternalRecord& r : report.records)
        byEntry[r.entry].push_back(&r);
    for (const auto& [entry, recs] : byEntry)
        checkEntry(report.root, entry, recs, report.records, report.checks);
    for (const QString& c : checksumFiles) {
        std::vector<RecordCheck> cs = checkChecksums(c, root.relativeFilePath(c));
        report.checks.insert(report.checks.end(), cs.begin(), cs.end());
    }
    for (const auto& [entry, recs] : byEntry)
        if (findKind(recs, QStringLiteral("SourceGenerationReceipt")) ||
            findKind(recs, QStringLiteral("PublicOciReceipt")) ||
            findKind(recs, QStringLiteral("ConfigHubUploadReceipt"))) {
            std::vector<StageRow> rows = stageTable(entry, report.records);
            report.stages.insert(report.stages.end(), rows.begin(), rows.end());
        }
}

} // namespace

Result<RecordsReport> readRecords(const QString& dirIn) {
    const QFileInfo info(dirIn);
    if (!info.isDir())
        return makeError(QStringLiteral("not a directory"), dirIn);
    RecordsReport report;
    report.root = info.absoluteFilePath();
    const QDir root(report.root);
    QStringList files;
    QDirIterator it(report.root, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    QStringList checksumFiles;
    for (const QString& path : files) {
        const QString rel = root.relativeFilePath(path);
        const QString name = QFileInfo(path).fileName();
        if (name == QLatin1String("checksums.txt")) {
            checksumFiles << path;
            continue;
        }
        const bool yamlFile = name.endsWith(QLatin1String(".yaml")) || name.endsWith(QLatin1String(".yml"));
        const bool indexFile = name == QLatin1String("platform-index.json");
        if (!yamlFile && !indexFile)
            continue;
        if (std::optional<ExternalRecord> r = readRecordFile(path, rel, indexFile, report.problems))
            report.records.push_back(std::move(*r));
    }
    checkRecords(report, root, checksumFiles);
    return report;
}

Result<RecordsImport> storeRecords(db::Database& db, RecordsReport report) {
    if (!report.problems.empty()) {
        Error e = report.problems.front();
        e.message = QStringLiteral("records not imported (%1; first: %2)")
                        .arg(counted(qint64(report.problems.size()), QStringLiteral("problem"),
                                     QStringLiteral("problems")))
                        .arg(e.message);
        return e;
    }
    RecordsImport result;
    db::Transaction tx(db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), db.path());
    const QString now = isoTime(QDateTime::currentDateTimeUtc());
    for (const ExternalRecord& r : report.records) {
        QSqlQuery q(db.sql());
        q.prepare(QStringLiteral("SELECT sha256 FROM external_records WHERE path = ?"));
        q.addBindValue(r.path);
        if (!q.exec())
            return db::sqlError(q, QStringLiteral("external_records"));
        if (q.next() && q.value(0).toString() == r.sha256) {
            ++result.unchanged;
            continue;
        }
        const bool existed = q.isValid();
        QFile f(r.path);
        const QByteArray content = openInputFile(f).ok() ? f.readAll() : QByteArray();
        if (sha256Hex(content) != r.sha256)
            return makeError(QStringLiteral("the file changed while it was being imported"), r.path);
        q.prepare(QStringLiteral(
            "INSERT INTO external_records (path, relative, kind, name, sha256, size, content, fields, entry, "
            "imported_at) "
            "VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (path) DO UPDATE SET relative = excluded.relative, "
            "kind = excluded.kind, name = excluded.name, sha256 = excluded.sha256, size = excluded.size, "
            "content = excluded.content, fields = excluded.fields, entry = excluded.entry, imported_at = "
            "excluded.imported_at"));
        q.addBindValue(r.path);
        q.addBindValue(r.relative);
        q.addBindValue(r.kind);
        q.addBindValue(r.name);
        q.addBindValue(r.sha256);
        q.addBindValue(r.size);
        q.addBindValue(content);
        q.addBindValue(QString::fromUtf8(canonicalJson(r.document)));
        q.addBindValue(r.entry);
        q.addBindValue(now);
        if (!q.exec())
            return db::sqlError(q, QStringLiteral("external_records (%1)").arg(r.relative));
        existed ? ++result.updated : ++result.added;
    }
    if (!tx.commit())
        return makeError(
            QStringLiteral("cannot commit the records import: %1").arg(db.sql().lastError().text()),
            db.path());
    result.report = std::move(report);
    return result;
}

Result<std::vector<ExternalRecord>> storedRecords(db::Database& db) {
    QSqlQuery q(db.sql());
    if (!q.exec(QStringLiteral("SELECT path, relative, entry, kind, name, sha256, size, fields FROM "
                               "external_records ORDER BY entry, relative, kind, id")))
        return db::sqlError(q, QStringLiteral("external_records"));
    std::vector<ExternalRecord> out;
    while (q.next()) {
        ExternalRecord r;
        r.path = q.value(0).toString();
        r.relative = q.value(1).toString();
        r.entry = q.value(2).toString();
        r.kind = q.value(3).toString();
        r.name = q.value(4).toString();
        r.sha256 = q.value(5).toString();
        r.size = q.value(6).toLongLong();
        r.document = QJsonDocument::fromJson(q.value(7).toByteArray()).object();
        r.apiVersion = r.document.value(QStringLiteral("apiVersion")).toString();
        if (const KindSpec* spec = specFor(r.kind))
            for (const QString& field : spec->shown)
                if (const QJsonValue v = at(r.document, field); !v.isUndefined())
                    r.fields.insert(field, v);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace pb::receipts
