#include "ops/Attest.h"
#include "core/Plural.h"

#include "core/Files.h"
#include "receipts/Kinds.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace pb::ops {

Result<sigstore::Subject> parseSubject(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^(.+)=sha256:([0-9a-f]{64})$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return makeError(QStringLiteral("a subject is NAME=sha256:<64 hex>, got '%1'").arg(text), {}, 0,
                         QStringLiteral("subject"));
    return sigstore::Subject{m.captured(1), m.captured(2)};
}

Result<AttestOutcome> attest(const Context& ctx, const AttestRequest& request) {
    if (Status s = require(ctx, db::Capability::Sign); !s)
        return s.error();
    if (request.subjects.isEmpty() || request.predicateType.isEmpty() || request.predicateFile.isEmpty() ||
        request.bundlePath.isEmpty())
        return makeError(QStringLiteral(
            "give the subjects, the predicate type, the predicate and where to write the bundle"));
    Result<QByteArray> predicateBytes =
        readFileLimited(request.predicateFile, limits::kDocumentFile, QStringLiteral("predicate"));
    if (!predicateBytes)
        return predicateBytes.error();
    QJsonParseError perr;
    const QJsonDocument predicate = QJsonDocument::fromJson(*predicateBytes, &perr);
    if (perr.error != QJsonParseError::NoError || !predicate.isObject())
        return makeError(QStringLiteral("not a JSON object: %1")
                             .arg(perr.error != QJsonParseError::NoError ? perr.errorString()
                                                                         : QStringLiteral("not an object")),
                         request.predicateFile);
    Result<sigstore::crypto::Pkey> key = loadSigningKey(request.key);
    if (!key)
        return key.error();
    Result<QByteArray> bundle = sigstore::attest(
        key->get(), sigstore::inTotoStatement(request.subjects, request.predicateType, predicate.object()));
    if (!bundle)
        return bundle.error();
    StagedFiles files;
    if (Status s = files.stage(request.bundlePath, *bundle + '\n'); !s)
        return s.error();
    AttestOutcome out{request.bundlePath, sigstore::keyFingerprint(key->get()), int(request.subjects.size())};
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::SignAttest;
    d.parameters = QJsonObject{{QStringLiteral("keyFingerprint"), out.keyFingerprint},
                               {QStringLiteral("predicateType"), request.predicateType}};
    for (const sigstore::Subject& s : request.subjects)
        d.inputs.push_back(receipts::Artifact::digest(s.name, s.sha256Hex));
    d.inputs.push_back(receipts::Artifact::bytes(request.predicateFile, *predicateBytes));
    d.outputs.push_back(receipts::Artifact::bytes(request.bundlePath, *bundle + '\n'));
    d.message = QStringLiteral("DSSE attestation over %1")
                    .arg(counted(qint64(request.subjects.size()), QStringLiteral("subject"),
                                 QStringLiteral("subjects")));
    Result<receipts::Receipt> r = record(ctx, d, &files);
    if (!r)
        return r.error();
    out.receiptSeq = r->seq;
    return out;
}

} // namespace pb::ops
