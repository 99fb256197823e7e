#include "sigstore/TrustedRoot.h"
#include "core/Files.h"

#include "core/Hash.h"
#include "sigstore/Json.h"
#include "sigstore/TrustCache.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimeZone>
#include <QUrl>

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include <array>

namespace pb::sigstore {

using detail::field;

std::optional<QByteArray> decodeBase64Strict(const QString& text) {
    // protojson reads standard or URL-safe base64, padded or not; anything else (whitespace, stray
    // characters, padding in the middle, an impossible length, both alphabets) is an error. Decoded
    // here in one pass over the UTF-16 text (bundles carry a few kilobytes of it per verification).
    static constexpr auto table = [] {
        std::array<signed char, 128> t{};
        t.fill(-1);
        for (int i = 0; i < 26; ++i) {
            t[size_t('A' + i)] = static_cast<signed char>(i);
            t[size_t('a' + i)] = static_cast<signed char>(26 + i);
        }
        for (int i = 0; i < 10; ++i)
            t[size_t('0' + i)] = static_cast<signed char>(52 + i);
        t['+'] = t['-'] = 62;
        t['/'] = t['_'] = 63;
        return t;
    }();
    const char16_t* p = reinterpret_cast<const char16_t*>(text.utf16());
    const qsizetype size = text.size();
    qsizetype dataLen = size;
    while (dataLen > 0 && p[dataLen - 1] == u'=')
        --dataLen;
    const qsizetype padding = size - dataLen;
    if (padding > 2 || dataLen % 4 == 1 || (padding > 0 && (size % 4 != 0 || (dataLen % 4) + padding != 4)))
        return std::nullopt;
    QByteArray out(dataLen * 3 / 4, Qt::Uninitialized);
    char* o = out.data();
    bool url = false, standard = false;
    quint32 acc = 0;
    int bits = 0;
    for (qsizetype i = 0; i < dataLen; ++i) {
        const char16_t c = p[i];
        if (c >= 128 || table[c] < 0)
            return std::nullopt; // includes '=' before the end
        standard = standard || c == u'+' || c == u'/';
        url = url || c == u'-' || c == u'_';
        acc = (acc << 6) | quint32(table[c]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = char((acc >> bits) & 0xff);
        }
    }
    if (url && standard)
        return std::nullopt;
    out.truncate(o - out.constData());
    return out;
}

std::optional<qint64> parseRfc3339Ms(const QString& text) {
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral(
        R"((\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2}))")));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    const int sec = m.captured(6).toInt();
    const QTime time(m.captured(4).toInt(), m.captured(5).toInt(), sec == 60 ? 59 : sec);
    if (!date.isValid() || !time.isValid())
        return std::nullopt;
    qint64 ms = QDateTime(date, time, QTimeZone::utc()).toMSecsSinceEpoch();
    const QString frac = m.captured(7);
    if (!frac.isEmpty())
        ms += (frac.mid(1) + QStringLiteral("00")).left(3).toInt();
    const QString zone = m.captured(8);
    if (zone.size() == 6) {
        const int minutes = zone.mid(1, 2).toInt() * 60 + zone.mid(4, 2).toInt();
        ms -= (zone.at(0) == QLatin1Char('+') ? 1 : -1) * qint64(minutes) * 60000;
    }
    return ms;
}

QString formatMs(qint64 ms) {
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc());
    return t.toString(ms % 1000 ? QStringLiteral("yyyy-MM-ddThh:mm:ss.zzzZ")
                                : QStringLiteral("yyyy-MM-ddThh:mm:ssZ"));
}

QString TransparencyLog::host() const {
    return QUrl(baseUrl).host();
}

const TransparencyLog* TrustedRoot::tlogById(const QByteArray& id) const {
    for (const auto& t : tlogs)
        if (t.logId == id)
            return &t;
    return nullptr;
}

const TransparencyLog* TrustedRoot::ctlogById(const QByteArray& id) const {
    for (const auto& t : ctlogs)
        if (t.logId == id)
            return &t;
    return nullptr;
}

namespace {

Result<TimeRange> parseRange(const detail::Reader& r, const QJsonValue& v, const QString& where,
                             bool startRequired) {
    TimeRange range;
    if (!v.isObject()) {
        if (startRequired)
            return r.error(where, QStringLiteral("missing (a log key needs a validity window)"));
        return range;
    }
    const QJsonObject o = v.toObject();
    const QJsonValue start = field(o, "start");
    if (start.isUndefined()) {
        if (startRequired)
            return r.error(where + QStringLiteral(".start"),
                           QStringLiteral("missing (a log key needs a start of validity)"));
    } else {
        const auto ms = parseRfc3339Ms(start.toString());
        if (!ms)
            return r.error(where + QStringLiteral(".start"),
                           QStringLiteral("not an RFC 3339 time: '%1'").arg(start.toString()));
        range.startMs = *ms;
    }
    const QJsonValue end = field(o, "end");
    if (!end.isUndefined()) {
        const auto ms = parseRfc3339Ms(end.toString());
        if (!ms)
            return r.error(where + QStringLiteral(".end"),
                           QStringLiteral("not an RFC 3339 time: '%1'").arg(end.toString()));
        range.endMs = *ms;
    }
    return range;
}

// dev.sigstore.common.v1.PublicKeyDetails, by number (proto3 JSON may write an enum as its number).
const char* const kKeyDetails[] = {"PUBLIC_KEY_DETAILS_UNSPECIFIED",
                                   "PKCS1_RSA_PKCS1V5",
                                   "PKCS1_RSA_PSS",
                                   "PKIX_RSA_PKCS1V5",
                                   "PKIX_RSA_PSS",
                                   "PKIX_ECDSA_P256_SHA_256",
                                   "PKIX_ECDSA_P256_HMAC_SHA_256",
                                   "PKIX_ED25519",
                                   "PKIX_ED25519_PH",
                                   "PKIX_RSA_PKCS1V15_2048_SHA256",
                                   "PKIX_RSA_PKCS1V15_3072_SHA256",
                                   "PKIX_RSA_PKCS1V15_4096_SHA256",
                                   "PKIX_ECDSA_P384_SHA_384",
                                   "PKIX_ECDSA_P521_SHA_512"};

Result<std::vector<TransparencyLog>> parseLogs(const detail::Reader& r, const QJsonObject& root,
                                               const char* name, const char* snake) {
    std::vector<TransparencyLog> out;
    const QJsonArray logs = field(root, name, snake).toArray();
    for (int i = 0; i < logs.size(); ++i) {
        const QString where = QStringLiteral("%1[%2]").arg(QLatin1String(name)).arg(i);
        const QJsonObject o = logs.at(i).toObject();
        TransparencyLog log;
        log.baseUrl = field(o, "baseUrl", "base_url").toString();
        log.hashAlgorithm = detail::enumField(
            o, "hashAlgorithm", "hash_algorithm",
            {"HASH_ALGORITHM_UNSPECIFIED", "SHA2_256", "SHA2_384", "SHA2_512", "SHA3_256", "SHA3_384"});
        if (log.hashAlgorithm != QLatin1String("SHA2_256"))
            return r.error(where + QStringLiteral(".hashAlgorithm"),
                           QStringLiteral("'%1' is not supported (only SHA2_256)").arg(log.hashAlgorithm));
        const QJsonObject key = field(o, "publicKey", "public_key").toObject();
        auto raw = r.bytes(key, where + QStringLiteral(".publicKey"), "rawBytes", "raw_bytes", true);
        if (!raw)
            return raw.error();
        log.publicKeyDer = *raw;
        log.keyDetails = detail::enumField(key, "keyDetails", "key_details", kKeyDetails);
        auto range = parseRange(r, field(key, "validFor", "valid_for"),
                                where + QStringLiteral(".publicKey.validFor"), true);
        if (!range)
            return range.error();
        log.validFor = *range;
        auto id = r.bytes(field(o, "logId", "log_id").toObject(), where + QStringLiteral(".logId"), "keyId",
                          "key_id", true);
        if (!id)
            return id.error();
        log.logId = *id;
        auto cp = r.bytes(field(o, "checkpointKeyId", "checkpoint_key_id").toObject(),
                          where + QStringLiteral(".checkpointKeyId"), "keyId", "key_id", false);
        if (!cp)
            return cp.error();
        log.checkpointKeyId = *cp;
        out.push_back(std::move(log));
    }
    return out;
}

Result<std::vector<CertificateAuthority>> parseAuthorities(const detail::Reader& r, const QJsonObject& root,
                                                           const char* name, const char* snake) {
    std::vector<CertificateAuthority> out;
    const QJsonArray cas = field(root, name, snake).toArray();
    for (int i = 0; i < cas.size(); ++i) {
        const QString where = QStringLiteral("%1[%2]").arg(QLatin1String(name)).arg(i);
        const QJsonObject o = cas.at(i).toObject();
        CertificateAuthority ca;
        ca.uri = field(o, "uri").toString();
        const QJsonObject subject = field(o, "subject").toObject();
        ca.organization = field(subject, "organization").toString();
        ca.commonName = field(subject, "commonName", "common_name").toString();
        const QJsonArray certs =
            field(field(o, "certChain", "cert_chain").toObject(), "certificates").toArray();
        if (certs.isEmpty())
            return r.error(where + QStringLiteral(".certChain"), QStringLiteral("no certificates"));
        for (int c = 0; c < certs.size(); ++c) {
            auto der = r.bytes(certs.at(c).toObject(),
                               QStringLiteral("%1.certChain.certificates[%2]").arg(where).arg(c), "rawBytes",
                               "raw_bytes", true);
            if (!der)
                return der.error();
            ca.certChainDer << *der;
        }
        auto range =
            parseRange(r, field(o, "validFor", "valid_for"), where + QStringLiteral(".validFor"), false);
        if (!range)
            return range.error();
        ca.validFor = *range;
        out.push_back(std::move(ca));
    }
    return out;
}

} // namespace

Result<TrustedRoot> parseTrustedRoot(const QByteArray& json, const QString& file) {
    const detail::Reader r(file);
    auto parsed = r.object(json);
    if (!parsed)
        return parsed.error();
    const QJsonObject o = *parsed;
    TrustedRoot root;
    root.mediaType = field(o, "mediaType", "media_type").toString();
    if (root.mediaType != QLatin1String("application/vnd.dev.sigstore.trustedroot+json;version=0.1") &&
        root.mediaType != QLatin1String("application/vnd.dev.sigstore.trustedroot.v0.1+json") &&
        root.mediaType != QLatin1String("application/vnd.dev.sigstore.trustedroot.v0.2+json"))
        return r.error(QStringLiteral("mediaType"),
                       QStringLiteral("'%1' is not a supported trusted root").arg(root.mediaType));
    auto tlogs = parseLogs(r, o, "tlogs", nullptr);
    if (!tlogs)
        return tlogs.error();
    root.tlogs = std::move(*tlogs);
    auto ctlogs = parseLogs(r, o, "ctlogs", nullptr);
    if (!ctlogs)
        return ctlogs.error();
    root.ctlogs = std::move(*ctlogs);
    auto cas = parseAuthorities(r, o, "certificateAuthorities", "certificate_authorities");
    if (!cas)
        return cas.error();
    root.certificateAuthorities = std::move(*cas);
    auto tsas = parseAuthorities(r, o, "timestampAuthorities", "timestamp_authorities");
    if (!tsas)
        return tsas.error();
    root.timestampAuthorities = std::move(*tsas);
    root.sha256 = sha256(json);
    root.cache = buildTrustCache(root);
    return root;
}

Result<TrustedRoot> loadTrustedRoot(const QString& path) {
    Result<QByteArray> bytes = readFileLimited(path, limits::kConfigFile, QStringLiteral("the trusted root"));
    if (!bytes)
        return bytes.error();
    return parseTrustedRoot(*bytes, path);
}

std::shared_ptr<const TrustCache> buildTrustCache(const TrustedRoot& root) {
    auto cache = std::make_shared<TrustCache>();
    auto logKey = [](const TransparencyLog& log) {
        return log.keyDetails == QLatin1String("PKCS1_RSA_PKCS1V5")
                   ? crypto::pkeyFromPkcs1Rsa(log.publicKeyDer)
                   : crypto::pkeyFromDer(log.publicKeyDer);
    };
    for (const auto& log : root.tlogs)
        cache->tlogKeys.push_back(logKey(log));
    for (const auto& log : root.ctlogs)
        cache->ctlogKeys.push_back(logKey(log));
    auto authority = [](const CertificateAuthority& ca) {
        TrustCache::Authority a;
        bool decoded = true;
        for (const QByteArray& der : ca.certChainDer) {
            a.chain.push_back(crypto::certFromDer(der));
            decoded = decoded && a.chain.back();
        }
        a.chainValid = decoded && !a.chain.empty();
        for (size_t i = 0; a.chainValid && i + 1 < a.chain.size(); ++i)
            a.chainValid = X509_verify(a.chain[i].get(), X509_get0_pubkey(a.chain[i + 1].get())) == 1 &&
                           (i == 0 || X509_check_ca(a.chain[i].get()) > 0);
        if (a.chainValid && a.chain.size() > 1)
            a.chainValid = X509_check_ca(a.chain.back().get()) > 0;
        if (!a.chain.empty() && a.chain.front()) {
            a.store.reset(X509_STORE_new());
            X509_STORE_add_cert(a.store.get(), a.chain.front().get());
            unsigned char* spki = nullptr;
            const int len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(a.chain.front().get()), &spki);
            if (len > 0)
                a.issuerKeyHash = sha256(QByteArray(reinterpret_cast<const char*>(spki), len));
            OPENSSL_free(spki);
        }
        ERR_clear_error();
        return a;
    };
    for (const auto& ca : root.certificateAuthorities)
        cache->cas.push_back(authority(ca));
    for (const auto& tsa : root.timestampAuthorities)
        cache->tsas.push_back(authority(tsa));
    return cache;
}

} // namespace pb::sigstore
