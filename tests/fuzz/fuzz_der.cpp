// The DER and text pieces the Sigstore verifier reads, each fuzzed where it sits: the input replaces
// one field of a real Rekor v2 bundle (the leaf certificate with its SCT list and Fulcio extensions,
// the RFC 3161 timestamp, the checkpoint note, the canonicalized tlog body), the rest of the bundle
// stays valid, and the whole bundle is verified offline against that case's trusted root. The
// first byte picks the field. The template is a Sigstore conformance case from ../shared/data (or
// PB_FUZZ_DER_CASE); without it only the certificate reader (describeCertificate) runs.
#include "FuzzUtil.h"

#include "sigstore/Bundle.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace {

struct Template {
    QJsonObject bundle;
    pb::sigstore::TrustedRoot root;
    QByteArray artifact;
};

const std::optional<Template>& caseTemplate() {
    static const std::optional<Template> t = []() -> std::optional<Template> {
        const QString dir = qEnvironmentVariable(
            "PB_FUZZ_DER_CASE", QStringLiteral(PB_SHARED_DATA "/sigstore/cases/rekor2-happy-path"));
        QFile b(dir + QStringLiteral("/bundle.sigstore.json"));
        QFile a(dir + QStringLiteral("/artifact"));
        if (!b.open(QIODevice::ReadOnly) || !a.open(QIODevice::ReadOnly))
            return std::nullopt;
        pb::Result<pb::sigstore::TrustedRoot> root =
            pb::sigstore::loadTrustedRoot(dir + QStringLiteral("/trusted_root.json"));
        if (!root)
            return std::nullopt;
        return Template{QJsonDocument::fromJson(b.readAll()).object(), std::move(*root), a.readAll()};
    }();
    return t;
}

// o[key] = f(o[key]) for a nested path of object keys and array indexes.
QJsonValue replaced(const QJsonValue& node, const QStringList& path, int i, const QJsonValue& value) {
    if (i == path.size())
        return value;
    bool isIndex = false;
    const int index = path.at(i).toInt(&isIndex);
    if (isIndex) {
        QJsonArray a = node.toArray();
        if (index >= a.size())
            return node;
        a[index] = replaced(a.at(index), path, i + 1, value);
        return a;
    }
    QJsonObject o = node.toObject();
    o.insert(path.at(i), replaced(o.value(path.at(i)), path, i + 1, value));
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    const int field = data[0] % 4;
    if (field == 0)
        (void)pb::sigstore::describeCertificate(in);
    const std::optional<Template>& t = caseTemplate();
    if (!t)
        return 0;
    QStringList path;
    QJsonValue value = QString::fromLatin1(in.toBase64());
    switch (field) {
    case 0:
        path = QStringList{"verificationMaterial", "certificate", "rawBytes"};
        break;
    case 1:
        path = QStringList{"verificationMaterial", "timestampVerificationData", "rfc3161Timestamps", "0",
                           "signedTimestamp"};
        break;
    case 2:
        path = QStringList{"verificationMaterial", "tlogEntries", "0",
                           "inclusionProof",       "checkpoint",  "envelope"};
        value = QString::fromUtf8(in);
        break;
    default:
        path = QStringList{"verificationMaterial", "tlogEntries", "0", "canonicalizedBody"};
        break;
    }
    const QByteArray json =
        QJsonDocument(replaced(t->bundle, path, 0, value).toObject()).toJson(QJsonDocument::Compact);
    pb::Result<pb::sigstore::Bundle> b =
        pb::sigstore::parseBundle(json, QStringLiteral("fuzz.sigstore.json"));
    if (!b)
        return 0;
    pb::sigstore::Policy policy;
    policy.identityRegexp = QStringLiteral(".*");
    policy.issuerRegexp = QStringLiteral(".*");
    (void)pb::sigstore::verifyBundle(*b, QStringLiteral("fuzz.sigstore.json"),
                                     pb::sigstore::Artifact::fromBytes(t->artifact), t->root, policy)
        .toText();
    return 0;
}
