#include "sigstore/Sign.h"

#include "core/Hash.h"
#include "sigstore/Bundle.h"
#include "sigstore/Keys.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pb::sigstore {

namespace {

const char* kMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json";

QJsonObject material(EVP_PKEY* key) {
    return QJsonObject{{QStringLiteral("publicKey"), QJsonObject{{QStringLiteral("hint"), keyHint(key)}}}};
}

} // namespace

Result<QByteArray> signData(EVP_PKEY* key, const QByteArray& data) {
    if (crypto::keyKind(key) != crypto::KeyKind::EcP256)
        return makeError(QStringLiteral("only ECDSA P-256 signing keys are supported"));
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    size_t len = 0;
    if (EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(data.constData()),
                       size_t(data.size())) != 1)
        return makeError(QStringLiteral("cannot sign: %1").arg(crypto::lastError()));
    QByteArray sig(qsizetype(len), Qt::Uninitialized);
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len,
                       reinterpret_cast<const unsigned char*>(data.constData()), size_t(data.size())) != 1)
        return makeError(QStringLiteral("cannot sign: %1").arg(crypto::lastError()));
    sig.truncate(qsizetype(len));
    return sig;
}

Result<QByteArray> signBlob(EVP_PKEY* key, const QByteArray& blob) {
    auto sig = signData(key, blob);
    if (!sig)
        return sig.error();
    const QJsonObject bundle{
        {QStringLiteral("mediaType"), QLatin1String(kMediaType)},
        {QStringLiteral("verificationMaterial"), material(key)},
        {QStringLiteral("messageSignature"),
         QJsonObject{{QStringLiteral("messageDigest"),
                      QJsonObject{{QStringLiteral("algorithm"), QStringLiteral("SHA2_256")},
                                  {QStringLiteral("digest"), QString::fromLatin1(sha256(blob).toBase64())}}},
                     {QStringLiteral("signature"), QString::fromLatin1(sig->toBase64())}}}};
    return QJsonDocument(bundle).toJson(QJsonDocument::Compact);
}

QByteArray inTotoStatement(const QList<Subject>& subjects, const QString& predicateType,
                           const QJsonObject& predicate) {
    QJsonArray subj;
    for (const Subject& s : subjects)
        subj.append(
            QJsonObject{{QStringLiteral("name"), s.name},
                        {QStringLiteral("digest"), QJsonObject{{QStringLiteral("sha256"), s.sha256Hex}}}});
    return QJsonDocument(
               QJsonObject{{QStringLiteral("_type"), QStringLiteral("https://in-toto.io/Statement/v1")},
                           {QStringLiteral("subject"), subj},
                           {QStringLiteral("predicateType"), predicateType},
                           {QStringLiteral("predicate"), predicate}})
        .toJson(QJsonDocument::Compact);
}

Result<QByteArray> attest(EVP_PKEY* key, const QByteArray& statement) {
    const QByteArray type = QByteArrayLiteral("application/vnd.in-toto+json");
    auto sig = signData(key, dssePae(type, statement));
    if (!sig)
        return sig.error();
    const QJsonObject bundle{
        {QStringLiteral("mediaType"), QLatin1String(kMediaType)},
        {QStringLiteral("verificationMaterial"), material(key)},
        {QStringLiteral("dsseEnvelope"),
         QJsonObject{
             {QStringLiteral("payload"), QString::fromLatin1(statement.toBase64())},
             {QStringLiteral("payloadType"), QString::fromLatin1(type)},
             {QStringLiteral("signatures"),
              QJsonArray{QJsonObject{{QStringLiteral("sig"), QString::fromLatin1(sig->toBase64())}}}}}}};
    return QJsonDocument(bundle).toJson(QJsonDocument::Compact);
}

} // namespace pb::sigstore
