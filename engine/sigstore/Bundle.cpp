#include "sigstore/Bundle.h"

#include "sigstore/Json.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace pb::sigstore {

using detail::field;
using detail::toInt64;

QByteArray dssePae(const QByteArray& payloadType, const QByteArray& payload) {
    QByteArray out;
    out.reserve(payloadType.size() + payload.size() + 32);
    out += "DSSEv1 ";
    out += QByteArray::number(payloadType.size());
    out += ' ';
    out += payloadType;
    out += ' ';
    out += QByteArray::number(payload.size());
    out += ' ';
    out += payload;
    return out;
}

namespace {

// The bundle versions sigstore-go accepts, and the minor version each names.
int mediaTypeMinor(const QString& mt) {
    // Anchored at both ends (\A...\z): a plain '$' would also match before a trailing newline.
    static const QRegularExpression legacy(QRegularExpression::anchoredPattern(
        QStringLiteral(R"(application/vnd\.dev\.sigstore\.bundle\+json;version=0\.([0-9]|[1-9][0-9]+))")));
    static const QRegularExpression current(QRegularExpression::anchoredPattern(
        QStringLiteral(R"(application/vnd\.dev\.sigstore\.bundle\.v0\.([0-9]|[1-9][0-9]+)\+json)")));
    auto m = legacy.match(mt);
    if (!m.hasMatch())
        m = current.match(mt);
    if (!m.hasMatch())
        return -1;
    const int minor = m.captured(1).toInt();
    return minor >= 1 && minor <= 3 ? minor : -1;
}

Result<qint64> int64Field(const detail::Reader& r, const QJsonObject& o, const QString& where,
                          const char* camel, const char* snake, bool required) {
    const QJsonValue v = field(o, camel, snake);
    const QString path = where + QLatin1Char('.') + QLatin1String(camel);
    if (v.isUndefined() || v.isNull()) {
        if (required)
            return r.error(path, QStringLiteral("missing"));
        return qint64(0);
    }
    const auto n = toInt64(v);
    if (!n)
        return r.error(path, QStringLiteral("not an int64 (protojson writes it as a decimal string)"));
    if (*n < 0)
        return r.error(path, QStringLiteral("negative (%1)").arg(*n));
    return *n;
}

Result<TlogEntry> parseEntry(const detail::Reader& r, const QJsonObject& o, const QString& where) {
    TlogEntry e;
    // proto3 JSON leaves out fields at their zero value: an absent index or size is 0 (the proof then
    // decides), never "missing".
    auto index = int64Field(r, o, where, "logIndex", "log_index", false);
    if (!index)
        return index.error();
    e.logIndex = *index;
    auto id = r.bytes(field(o, "logId", "log_id").toObject(), where + QStringLiteral(".logId"), "keyId",
                      "key_id", true);
    if (!id)
        return id.error();
    e.logId = *id;
    const QJsonObject kv = field(o, "kindVersion", "kind_version").toObject();
    e.kind = field(kv, "kind").toString();
    e.version = field(kv, "version").toString();
    if (e.kind.isEmpty() || e.version.isEmpty())
        return r.error(where + QStringLiteral(".kindVersion"),
                       QStringLiteral("kind and version are required"));
    auto time = int64Field(r, o, where, "integratedTime", "integrated_time", false);
    if (!time)
        return time.error();
    e.integratedTime = *time;
    const QJsonValue promise = field(o, "inclusionPromise", "inclusion_promise");
    if (promise.isObject()) {
        auto set = r.bytes(promise.toObject(), where + QStringLiteral(".inclusionPromise"),
                           "signedEntryTimestamp", "signed_entry_timestamp", true);
        if (!set)
            return set.error();
        e.signedEntryTimestamp = *set;
    }
    const QJsonValue proofV = field(o, "inclusionProof", "inclusion_proof");
    if (proofV.isObject()) {
        const QJsonObject po = proofV.toObject();
        const QString pw = where + QStringLiteral(".inclusionProof");
        InclusionProof p;
        auto pi = int64Field(r, po, pw, "logIndex", "log_index", false);
        if (!pi)
            return pi.error();
        p.logIndex = *pi;
        auto ts = int64Field(r, po, pw, "treeSize", "tree_size", false);
        if (!ts)
            return ts.error();
        p.treeSize = *ts;
        auto root = r.bytes(po, pw, "rootHash", "root_hash", true);
        if (!root)
            return root.error();
        p.rootHash = *root;
        const QJsonArray hashes = field(po, "hashes").toArray();
        for (int i = 0; i < hashes.size(); ++i) {
            if (!hashes.at(i).isString())
                return r.error(QStringLiteral("%1.hashes[%2]").arg(pw).arg(i),
                               QStringLiteral("expected a base64 string"));
            const auto h = decodeBase64Strict(hashes.at(i).toString());
            if (!h)
                return r.error(QStringLiteral("%1.hashes[%2]").arg(pw).arg(i),
                               QStringLiteral("not valid base64"));
            p.hashes << *h;
        }
        const QString envelope = field(field(po, "checkpoint").toObject(), "envelope").toString();
        if (envelope.isEmpty())
            return r.error(pw + QStringLiteral(".checkpoint.envelope"),
                           QStringLiteral("an inclusion proof needs a checkpoint"));
        p.checkpoint = envelope.toUtf8();
        e.inclusionProof = std::move(p);
    }
    auto body = r.bytes(o, where, "canonicalizedBody", "canonicalized_body", true);
    if (!body)
        return body.error();
    e.canonicalizedBody = *body;
    return e;
}

} // namespace

namespace {

// The verification material: exactly one of a public key, a certificate chain (not in v0.3) or a
// certificate.
Status readMaterial(const detail::Reader& r, const QJsonObject& vm, Bundle& b) {
    const QJsonValue pk = field(vm, "publicKey", "public_key");
    const QJsonValue chain = field(vm, "x509CertificateChain", "x509_certificate_chain");
    const QJsonValue cert = field(vm, "certificate");
    const int materials = int(pk.isObject()) + int(chain.isObject()) + int(cert.isObject());
    if (materials != 1)
        return r.error(
            QStringLiteral("verificationMaterial"),
            QStringLiteral("needs exactly one of publicKey, x509CertificateChain, certificate (found %1)")
                .arg(materials));
    if (pk.isObject()) {
        b.material = Bundle::Material::PublicKey;
        b.publicKeyHint = field(pk.toObject(), "hint").toString();
    } else if (chain.isObject()) {
        if (b.minorVersion >= 3)
            return r.error(QStringLiteral("verificationMaterial.x509CertificateChain"),
                           QStringLiteral("not allowed in a v0.3 bundle (use certificate)"));
        b.material = Bundle::Material::CertificateChain;
        const QJsonArray certs = field(chain.toObject(), "certificates").toArray();
        if (certs.isEmpty())
            return r.error(QStringLiteral("verificationMaterial.x509CertificateChain.certificates"),
                           QStringLiteral("empty: the bundle has no signing certificate"));
        for (int i = 0; i < certs.size(); ++i) {
            auto der =
                r.bytes(certs.at(i).toObject(),
                        QStringLiteral("verificationMaterial.x509CertificateChain.certificates[%1]").arg(i),
                        "rawBytes", "raw_bytes", true);
            if (!der)
                return der.error();
            b.certificates << *der;
        }
    } else {
        b.material = Bundle::Material::Certificate;
        auto der = r.bytes(cert.toObject(), QStringLiteral("verificationMaterial.certificate"), "rawBytes",
                           "raw_bytes", true);
        if (!der)
            return der.error();
        b.certificates << *der;
    }
    return {};
}

// The transparency-log entries, with the promise (v0.1) or proof (v0.2+) the bundle version needs.
Status readTlogEntries(const detail::Reader& r, const QJsonObject& vm, Bundle& b) {
    const QJsonArray entries = field(vm, "tlogEntries", "tlog_entries").toArray();
    bool anyPromise = false, anyProof = false;
    for (int i = 0; i < entries.size(); ++i) {
        auto e = parseEntry(r, entries.at(i).toObject(),
                            QStringLiteral("verificationMaterial.tlogEntries[%1]").arg(i));
        if (!e)
            return e.error();
        anyPromise |= e->signedEntryTimestamp.has_value();
        anyProof |= e->inclusionProof.has_value();
        b.tlogEntries.push_back(std::move(*e));
    }
    if (!b.tlogEntries.empty()) {
        if (b.minorVersion == 1 && !anyPromise)
            return r.error(
                QStringLiteral("verificationMaterial.tlogEntries"),
                QStringLiteral("a v0.1 bundle needs an inclusion promise (signed entry timestamp)"));
        if (b.minorVersion >= 2 && !anyProof)
            return r.error(QStringLiteral("verificationMaterial.tlogEntries"),
                           QStringLiteral("a v0.%1 bundle needs an inclusion proof").arg(b.minorVersion));
    }
    return {};
}

Status readTimestamps(const detail::Reader& r, const QJsonObject& vm, Bundle& b) {
    const QJsonArray stamps =
        field(field(vm, "timestampVerificationData", "timestamp_verification_data").toObject(),
              "rfc3161Timestamps", "rfc3161_timestamps")
            .toArray();
    for (int i = 0; i < stamps.size(); ++i) {
        auto der = r.bytes(
            stamps.at(i).toObject(),
            QStringLiteral("verificationMaterial.timestampVerificationData.rfc3161Timestamps[%1]").arg(i),
            "signedTimestamp", "signed_timestamp", true);
        if (!der)
            return der.error();
        b.rfc3161Timestamps << *der;
    }
    return {};
}

// A message signature: the digest (SHA-2 only) and the signature.
Status readMessageSignature(const detail::Reader& r, const QJsonObject& m, Bundle& b) {
    const QJsonValue md = field(m, "messageDigest", "message_digest");
    if (md.isObject()) {
        b.digestAlgorithm = detail::enumField(
            md.toObject(), "algorithm", nullptr,
            {"HASH_ALGORITHM_UNSPECIFIED", "SHA2_256", "SHA2_384", "SHA2_512", "SHA3_256", "SHA3_384"});
        if (b.digestAlgorithm != QLatin1String("SHA2_256") &&
            b.digestAlgorithm != QLatin1String("SHA2_384") && b.digestAlgorithm != QLatin1String("SHA2_512"))
            return r.error(QStringLiteral("messageSignature.messageDigest.algorithm"),
                           QStringLiteral("'%1' is not supported").arg(b.digestAlgorithm));
        auto d =
            r.bytes(md.toObject(), QStringLiteral("messageSignature.messageDigest"), "digest", nullptr, true);
        if (!d)
            return d.error();
        b.messageDigest = *d;
    }
    auto sig = r.bytes(m, QStringLiteral("messageSignature"), "signature", nullptr, true);
    if (!sig)
        return sig.error();
    b.signature = *sig;
    return {};
}

// A DSSE envelope: payload, payload type and its one signature.
Status readDsseEnvelope(const detail::Reader& r, const QJsonObject& d, Bundle& b) {
    b.isDsse = true;
    auto payload = r.bytes(d, QStringLiteral("dsseEnvelope"), "payload", nullptr, false);
    if (!payload)
        return payload.error();
    b.payload = *payload;
    b.payloadType = field(d, "payloadType", "payload_type").toString();
    if (b.payloadType.isEmpty())
        return r.error(QStringLiteral("dsseEnvelope.payloadType"), QStringLiteral("missing"));
    const QJsonArray sigs = field(d, "signatures").toArray();
    if (sigs.size() != 1)
        return r.error(QStringLiteral("dsseEnvelope.signatures"),
                       QStringLiteral("needs exactly one signature (found %1)").arg(sigs.size()));
    auto sig =
        r.bytes(sigs.at(0).toObject(), QStringLiteral("dsseEnvelope.signatures[0]"), "sig", nullptr, true);
    if (!sig)
        return sig.error();
    b.signature = *sig;
    b.keyId = field(sigs.at(0).toObject(), "keyid").toString();
    return {};
}

} // namespace

Result<Bundle> parseBundle(const QByteArray& json, const QString& file) {
    const detail::Reader r(file);
    auto parsed = r.object(json);
    if (!parsed)
        return parsed.error();
    const QJsonObject o = *parsed;
    Bundle b;
    b.mediaType = field(o, "mediaType", "media_type").toString();
    b.minorVersion = mediaTypeMinor(b.mediaType);
    if (b.minorVersion < 0)
        return r.error(
            QStringLiteral("mediaType"),
            b.mediaType.isEmpty()
                ? QStringLiteral("missing")
                : QStringLiteral("'%1' is not a supported bundle version (0.1 to 0.3)").arg(b.mediaType));

    const QJsonValue vmV = field(o, "verificationMaterial", "verification_material");
    if (!vmV.isObject())
        return r.error(QStringLiteral("verificationMaterial"), QStringLiteral("missing"));
    const QJsonObject vm = vmV.toObject();
    if (Status st = readMaterial(r, vm, b); !st)
        return st.error();
    if (Status st = readTlogEntries(r, vm, b); !st)
        return st.error();
    if (Status st = readTimestamps(r, vm, b); !st)
        return st.error();
    const QJsonValue ms = field(o, "messageSignature", "message_signature");
    const QJsonValue dsse = field(o, "dsseEnvelope", "dsse_envelope");
    if (ms.isObject() == dsse.isObject())
        return r.error({}, QStringLiteral("needs exactly one of messageSignature and dsseEnvelope"));
    Status st =
        ms.isObject() ? readMessageSignature(r, ms.toObject(), b) : readDsseEnvelope(r, dsse.toObject(), b);
    if (!st)
        return st.error();
    return b;
}

} // namespace pb::sigstore
