#include "ops/ReceiptsExport.h"

#include "core/Files.h"
#include "db/Database.h"
#include "receipts/Kinds.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace pb::ops {

Result<ReceiptsExportOutcome> exportReceipts(const Context& ctx, const ReceiptsExportRequest& request) {
    using namespace pb::receipts;
    if (request.key && (request.headPath.isEmpty() || request.bundlePath.isEmpty()))
        return makeError(QStringLiteral("signing the head needs a head file and a bundle file"));
    auto exported = exportLedger(ctx.db());
    if (!exported)
        return exported.error();
    ReceiptsExportOutcome out;
    out.bytes = QJsonDocument(*exported).toJson(QJsonDocument::Indented);
    const QJsonObject h = exported->value(QStringLiteral("head")).toObject();
    out.head.seq = h.value(QStringLiteral("seq")).toInteger();
    out.head.hash = h.value(QStringLiteral("hash")).toString();
    out.head.time = QDateTime::fromString(h.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    if (!request.key) {
        if (!request.outPath.isEmpty())
            if (Status s = writeFileAtomically(request.outPath, out.bytes); !s)
                return s.error();
        return out;
    }
    const QString name =
        request.databaseName.isEmpty() ? db::Database::shortName(ctx.db().path()) : request.databaseName;
    out.statement = headStatement(out.head, name);
    auto bundle = sigstore::signBlob(request.key, out.statement);
    if (!bundle)
        return bundle.error();
    StagedFiles files;
    if (!request.outPath.isEmpty())
        if (Status s = files.stage(request.outPath, out.bytes); !s)
            return s.error();
    if (Status s = files.stage(request.headPath, out.statement); !s)
        return s.error();
    const QByteArray bundleBytes = *bundle + '\n';
    if (Status s = files.stage(request.bundlePath, bundleBytes); !s)
        return s.error();
    ReceiptDraft d;
    d.kind = kinds::ReceiptsSignHead;
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), sigstore::keyFingerprint(request.key)},
                               {QStringLiteral("seq"), out.head.seq}};
    d.inputs.push_back(
        Artifact::digest(QStringLiteral("receipts head #%1").arg(out.head.seq), out.head.hash));
    if (!request.outPath.isEmpty())
        d.outputs.push_back(Artifact::bytes(request.outPath, out.bytes));
    d.outputs.push_back(Artifact::bytes(request.headPath, out.statement));
    d.outputs.push_back(Artifact::bytes(request.bundlePath, bundleBytes));
    d.message = QStringLiteral("signed head #%1 %2").arg(out.head.seq).arg(out.head.hash);
    if (auto r = record(ctx, d, &files); !r)
        return r.error();
    out.signedHead = true;
    return out;
}

} // namespace pb::ops
