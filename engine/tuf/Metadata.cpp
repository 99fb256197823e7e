#include "tuf/Metadata.h"
#include "core/Plural.h"

#include "core/Hash.h"
#include "sigstore/Crypto.h"
#include "tuf/CanonicalJson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSet>
#include <QVariant>

#include <openssl/evp.h>

namespace pb::tuf {

namespace crypto = pb::sigstore::crypto;

namespace {

QString sub(const QString& field, const QString& key) {
    return field.isEmpty() ? key : field + QLatin1Char('.') + key;
}

Error fieldError(const QString& file, const QString& field, const QString& message) {
    return makeError(message, file, 0, field);
}

bool isInteger(const QJsonValue& v) {
    if (!v.isDouble())
        return false;
    const int t = v.toVariant().typeId();
    return t == QMetaType::LongLong || t == QMetaType::Int;
}

Result<qint64> integer(const QJsonObject& o, const QString& key, const QString& file, const QString& field,
                       qint64 min) {
    const QJsonValue v = o.value(key);
    const QString f = sub(field, key);
    if (v.isUndefined())
        return fieldError(file, f, QStringLiteral("missing"));
    if (!isInteger(v))
        return fieldError(file, f, QStringLiteral("not an integer"));
    const qint64 n = v.toInteger();
    if (n < min)
        return fieldError(file, f, QStringLiteral("%1 is below %2").arg(n).arg(min));
    return n;
}

Result<QString> string(const QJsonObject& o, const QString& key, const QString& file, const QString& field) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return fieldError(file, sub(field, key), QStringLiteral("missing"));
    if (!v.isString())
        return fieldError(file, sub(field, key), QStringLiteral("not a string"));
    return v.toString();
}

Result<QJsonObject> object(const QJsonObject& o, const QString& key, const QString& file,
                           const QString& field) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return fieldError(file, sub(field, key), QStringLiteral("missing"));
    if (!v.isObject())
        return fieldError(file, sub(field, key), QStringLiteral("not an object"));
    return v.toObject();
}

bool isHex(const QString& s) {
    if (s.isEmpty() || s.size() % 2)
        return false;
    for (QChar c : s)
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
              (c >= QLatin1Char('a') && c <= QLatin1Char('f')) ||
              (c >= QLatin1Char('A') && c <= QLatin1Char('F'))))
            return false;
    return true;
}

Result<QStringList> keyids(const QJsonObject& o, const QString& file, const QString& field) {
    const QJsonValue v = o.value(QStringLiteral("keyids"));
    const QString f = sub(field, QStringLiteral("keyids"));
    if (!v.isArray())
        return fieldError(file, f,
                          v.isUndefined() ? QStringLiteral("missing") : QStringLiteral("not an array"));
    const QJsonArray a = v.toArray();
    if (a.size() > kMaxKeys)
        return fieldError(file, f,
                          QStringLiteral("%1 key ids, more than the %2 allowed").arg(a.size()).arg(kMaxKeys));
    QStringList out;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a.at(i).isString())
            return fieldError(file, f + QStringLiteral("[%1]").arg(i), QStringLiteral("not a string"));
        const QString id = a.at(i).toString();
        if (out.contains(id))
            return fieldError(file, f + QStringLiteral("[%1]").arg(i),
                              QStringLiteral("key id %1 is listed twice").arg(id));
        out << id;
    }
    return out;
}

Result<RoleKeys> roleKeys(const QJsonObject& o, const QString& file, const QString& field) {
    auto ids = keyids(o, file, field);
    if (!ids)
        return ids.error();
    auto threshold = integer(o, QStringLiteral("threshold"), file, field, 1);
    if (!threshold)
        return threshold.error();
    if (*threshold > ids->size())
        return fieldError(
            file, sub(field, QStringLiteral("threshold")),
            QStringLiteral("threshold %1 exceeds the %2 listed, so no signature set can meet it")
                .arg(*threshold)
                .arg(counted(qint64(ids->size()), QStringLiteral("key"), QStringLiteral("keys"))));
    return RoleKeys{*ids, int(*threshold)};
}

Result<QMap<QString, Key>> parseKeys(const QJsonObject& o, const QString& file, const QString& field) {
    if (o.size() > kMaxKeys)
        return fieldError(file, field,
                          QStringLiteral("%1 keys, more than the %2 allowed").arg(o.size()).arg(kMaxKeys));
    QMap<QString, Key> keys;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString f = sub(field, it.key());
        if (!it.value().isObject())
            return fieldError(file, f, QStringLiteral("not an object"));
        const QJsonObject k = it.value().toObject();
        auto type = string(k, QStringLiteral("keytype"), file, f);
        auto scheme = type ? string(k, QStringLiteral("scheme"), file, f) : Result<QString>(type.error());
        if (!scheme)
            return scheme.error();
        auto keyval = object(k, QStringLiteral("keyval"), file, f);
        if (!keyval)
            return keyval.error();
        auto pub = string(*keyval, QStringLiteral("public"), file, sub(f, QStringLiteral("keyval")));
        if (!pub)
            return pub.error();
        keys.insert(it.key(), Key{it.key(), *type, *scheme, *pub});
    }
    return keys;
}

Result<MetaFile> metaFile(const QJsonObject& o, const QString& file, const QString& field) {
    MetaFile m;
    auto version = integer(o, QStringLiteral("version"), file, field, 1);
    if (!version)
        return version.error();
    m.version = *version;
    if (o.contains(QStringLiteral("length"))) {
        auto length = integer(o, QStringLiteral("length"), file, field, 0);
        if (!length)
            return length.error();
        m.length = *length;
    }
    if (o.contains(QStringLiteral("hashes"))) {
        auto hashes = object(o, QStringLiteral("hashes"), file, field);
        if (!hashes)
            return hashes.error();
        for (auto it = hashes->begin(); it != hashes->end(); ++it) {
            if (!it.value().isString() || !isHex(it.value().toString()))
                return fieldError(file, sub(sub(field, QStringLiteral("hashes")), it.key()),
                                  QStringLiteral("not a hex digest"));
            m.hashes.insert(it.key(), it.value().toString().toLower());
        }
    }
    return m;
}

const EVP_MD* digestNamed(const QString& algorithm) {
    if (algorithm == QLatin1String("sha256"))
        return EVP_sha256();
    if (algorithm == QLatin1String("sha384"))
        return EVP_sha384();
    if (algorithm == QLatin1String("sha512"))
        return EVP_sha512();
    return nullptr;
}

// A public key from the metadata's representation: PEM (SubjectPublicKeyInfo), or hex (an
// uncompressed EC point, or the 32 raw bytes of an Ed25519 key).
Result<crypto::Pkey> loadKey(const Key& key) {
    const bool ecdsaType = key.type == QLatin1String("ecdsa") ||
                           key.type == QLatin1String("ecdsa-sha2-nistp256") ||
                           key.type == QLatin1String("ecdsa-sha2-nistp384");
    crypto::KeyKind want = crypto::KeyKind::Unknown;
    if (ecdsaType && key.scheme == QLatin1String("ecdsa-sha2-nistp256"))
        want = crypto::KeyKind::EcP256;
    else if (ecdsaType && key.scheme == QLatin1String("ecdsa-sha2-nistp384"))
        want = crypto::KeyKind::EcP384;
    else if (key.type == QLatin1String("ed25519") && key.scheme == QLatin1String("ed25519"))
        want = crypto::KeyKind::Ed25519;
    else
        return makeError(
            QStringLiteral(
                "key %1: key type '%2' with scheme '%3' is not supported (ECDSA P-256/P-384 and Ed25519 are)")
                .arg(key.id, key.type, key.scheme));
    crypto::Pkey pkey;
    const QByteArray value = key.publicValue.toLatin1();
    if (key.publicValue.startsWith(QLatin1String("-----BEGIN"))) {
        pkey = crypto::pkeyFromPem(value);
    } else if (isHex(key.publicValue)) {
        const QByteArray raw = QByteArray::fromHex(value);
        if (want == crypto::KeyKind::Ed25519) {
            if (raw.size() == 32)
                pkey.reset(EVP_PKEY_new_raw_public_key(
                    EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw.constData()),
                    size_t(raw.size())));
        } else {
            // The SubjectPublicKeyInfo header of the curve, then the point (BIT STRING, no unused bits).
            const QByteArray header =
                want == crypto::KeyKind::EcP256
                    ? QByteArray::fromHex("3059301306072a8648ce3d020106082a8648ce3d030107034200")
                    : QByteArray::fromHex("3076301006072a8648ce3d020106052b81040022036200");
            const int pointSize = want == crypto::KeyKind::EcP256 ? 65 : 97;
            if (raw.size() == pointSize && raw.at(0) == 0x04)
                pkey = crypto::pkeyFromDer(header + raw);
        }
    }
    if (!pkey)
        return makeError(
            QStringLiteral("key %1: the public value is not a readable %2 key").arg(key.id, key.scheme));
    if (crypto::keyKind(pkey.get()) != want)
        return makeError(
            QStringLiteral("key %1: the public key does not match its scheme '%2'").arg(key.id, key.scheme));
    return pkey;
}

} // namespace

QDateTime parseTime(const QString& text) {
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    // A time without a zone would be read as local time: refused (TUF writes UTC, or an offset).
    if (!t.isValid() || t.timeSpec() == Qt::LocalTime)
        return {};
    return t.toUTC();
}

QString formatTime(const QDateTime& t) {
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
}

bool DelegatedRole::covers(const QString& targetPath) const {
    if (!pathHashPrefixes.isEmpty()) {
        const QString digest = sha256Hex(targetPath.toUtf8());
        for (const QString& prefix : pathHashPrefixes)
            if (digest.startsWith(prefix.toLower()))
                return true;
        return false;
    }
    const QStringList target = targetPath.split(QLatin1Char('/'));
    for (const QString& pattern : paths) {
        const QStringList parts = pattern.split(QLatin1Char('/'));
        if (parts.size() != target.size())
            continue;
        bool all = true;
        for (qsizetype i = 0; i < parts.size() && all; ++i) {
            const QRegularExpression re = QRegularExpression::fromWildcard(
                parts.at(i), Qt::CaseSensitive); // per segment: `*` never spans a `/`
            all = re.isValid() && re.match(target.at(i)).hasMatch();
        }
        if (all)
            return true;
    }
    return false;
}

Result<Envelope> parseEnvelope(const QByteArray& bytes, const QString& file, const QString& expectedType) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("not JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset),
                         file);
    if (!doc.isObject())
        return makeError(QStringLiteral("not a JSON object"), file);
    const QJsonObject top = doc.object();
    Envelope env;
    env.file = file;
    env.bytes = bytes;
    const QJsonValue sigs = top.value(QStringLiteral("signatures"));
    if (!sigs.isArray())
        return fieldError(file, QStringLiteral("signatures"),
                          sigs.isUndefined() ? QStringLiteral("missing") : QStringLiteral("not an array"));
    const QJsonArray sa = sigs.toArray();
    if (sa.size() > kMaxSignatures)
        return fieldError(
            file, QStringLiteral("signatures"),
            QStringLiteral("%1 signatures, more than the %2 allowed").arg(sa.size()).arg(kMaxSignatures));
    QSet<QString> seen;
    for (qsizetype i = 0; i < sa.size(); ++i) {
        const QString f = QStringLiteral("signatures[%1]").arg(i);
        if (!sa.at(i).isObject())
            return fieldError(file, f, QStringLiteral("not an object"));
        const QJsonObject s = sa.at(i).toObject();
        auto keyid = string(s, QStringLiteral("keyid"), file, f);
        if (!keyid)
            return keyid.error();
        auto sig = string(s, QStringLiteral("sig"), file, f);
        if (!sig)
            return sig.error();
        if (seen.contains(*keyid))
            return fieldError(file, f + QStringLiteral(".keyid"),
                              QStringLiteral("a second signature by key %1").arg(*keyid));
        seen.insert(*keyid);
        // An empty signature is how some writers mark a key that has not signed yet: no signature.
        if (sig->isEmpty())
            continue;
        if (!isHex(*sig))
            return fieldError(file, f + QStringLiteral(".sig"), QStringLiteral("not hex"));
        env.signatures.push_back(Signature{*keyid, QByteArray::fromHex(sig->toLatin1())});
    }
    auto signedObject = object(top, QStringLiteral("signed"), file, {});
    if (!signedObject)
        return signedObject.error();
    env.signedObject = *signedObject;
    const QString sf = QStringLiteral("signed");
    auto type = string(env.signedObject, QStringLiteral("_type"), file, sf);
    if (!type)
        return type.error();
    env.type = *type;
    if (env.type != expectedType)
        return fieldError(file, QStringLiteral("signed._type"),
                          QStringLiteral("'%1', expected '%2'").arg(env.type, expectedType));
    auto version = integer(env.signedObject, QStringLiteral("version"), file, sf, 1);
    if (!version)
        return version.error();
    env.version = *version;
    auto spec = string(env.signedObject, QStringLiteral("spec_version"), file, sf);
    if (!spec)
        return spec.error();
    env.specVersion = *spec;
    if (env.specVersion.section(QLatin1Char('.'), 0, 0) != QLatin1String("1"))
        return fieldError(file, QStringLiteral("signed.spec_version"),
                          QStringLiteral("'%1': only version 1 of the TUF specification is supported")
                              .arg(env.specVersion));
    auto expires = string(env.signedObject, QStringLiteral("expires"), file, sf);
    if (!expires)
        return expires.error();
    env.expiresText = *expires;
    env.expires = parseTime(*expires);
    auto canonical = canonicalJson(env.signedObject, sf);
    if (!canonical)
        return Error{file, 0, canonical.error().field, canonical.error().message};
    env.canonical = *canonical;
    return env;
}

Result<Root> parseRoot(const QByteArray& bytes, const QString& file) {
    auto env = parseEnvelope(bytes, file, QStringLiteral("root"));
    if (!env)
        return env.error();
    Root r;
    r.env = std::move(*env);
    const QJsonObject& s = r.env.signedObject;
    const QString sf = QStringLiteral("signed");
    const QJsonValue cs = s.value(QStringLiteral("consistent_snapshot"));
    if (!cs.isUndefined() && !cs.isBool())
        return fieldError(file, QStringLiteral("signed.consistent_snapshot"),
                          QStringLiteral("not true or false"));
    r.consistentSnapshot = cs.toBool(false);
    auto keys = object(s, QStringLiteral("keys"), file, sf);
    if (!keys)
        return keys.error();
    auto parsedKeys = parseKeys(*keys, file, QStringLiteral("signed.keys"));
    if (!parsedKeys)
        return parsedKeys.error();
    r.keys = *parsedKeys;
    auto roles = object(s, QStringLiteral("roles"), file, sf);
    if (!roles)
        return roles.error();
    for (const char* name : {"root", "timestamp", "snapshot", "targets"}) {
        const QString n = QString::fromLatin1(name);
        auto role = object(*roles, n, file, QStringLiteral("signed.roles"));
        if (!role)
            return role.error();
        auto rk = roleKeys(*role, file, QStringLiteral("signed.roles.") + n);
        if (!rk)
            return rk.error();
        r.roles.insert(n, *rk);
    }
    return r;
}

Result<Timestamp> parseTimestamp(const QByteArray& bytes, const QString& file) {
    auto env = parseEnvelope(bytes, file, QStringLiteral("timestamp"));
    if (!env)
        return env.error();
    Timestamp t;
    t.env = std::move(*env);
    auto meta = object(t.env.signedObject, QStringLiteral("meta"), file, QStringLiteral("signed"));
    if (!meta)
        return meta.error();
    auto snap = object(*meta, QStringLiteral("snapshot.json"), file, QStringLiteral("signed.meta"));
    if (!snap)
        return snap.error();
    if (meta->size() != 1)
        return fieldError(file, QStringLiteral("signed.meta"),
                          QStringLiteral("must describe snapshot.json only"));
    auto m = metaFile(*snap, file, QStringLiteral("signed.meta.snapshot.json"));
    if (!m)
        return m.error();
    t.snapshot = *m;
    return t;
}

Result<Snapshot> parseSnapshot(const QByteArray& bytes, const QString& file) {
    auto env = parseEnvelope(bytes, file, QStringLiteral("snapshot"));
    if (!env)
        return env.error();
    Snapshot s;
    s.env = std::move(*env);
    auto meta = object(s.env.signedObject, QStringLiteral("meta"), file, QStringLiteral("signed"));
    if (!meta)
        return meta.error();
    if (meta->size() > 100000)
        return fieldError(file, QStringLiteral("signed.meta"),
                          QStringLiteral("%1 entries, more than the 100000 allowed").arg(meta->size()));
    for (auto it = meta->begin(); it != meta->end(); ++it) {
        const QString f = QStringLiteral("signed.meta.") + it.key();
        if (!it.value().isObject())
            return fieldError(file, f, QStringLiteral("not an object"));
        auto m = metaFile(it.value().toObject(), file, f);
        if (!m)
            return m.error();
        s.meta.insert(it.key(), *m);
    }
    if (!s.meta.contains(QStringLiteral("targets.json")))
        return fieldError(file, QStringLiteral("signed.meta"),
                          QStringLiteral("does not describe targets.json"));
    return s;
}

Result<Targets> parseTargets(const QByteArray& bytes, const QString& file) {
    auto env = parseEnvelope(bytes, file, QStringLiteral("targets"));
    if (!env)
        return env.error();
    Targets t;
    t.env = std::move(*env);
    const QJsonObject& s = t.env.signedObject;
    auto targets = object(s, QStringLiteral("targets"), file, QStringLiteral("signed"));
    if (!targets)
        return targets.error();
    if (targets->size() > 100000)
        return fieldError(file, QStringLiteral("signed.targets"),
                          QStringLiteral("%1 entries, more than the 100000 allowed").arg(targets->size()));
    for (auto it = targets->begin(); it != targets->end(); ++it) {
        const QString f = QStringLiteral("signed.targets.") + it.key();
        if (!it.value().isObject())
            return fieldError(file, f, QStringLiteral("not an object"));
        const QJsonObject o = it.value().toObject();
        auto length = integer(o, QStringLiteral("length"), file, f, 0);
        if (!length)
            return length.error();
        auto m = metaFile(QJsonObject{{QStringLiteral("version"), 1},
                                      {QStringLiteral("hashes"), o.value(QStringLiteral("hashes"))}},
                          file, f);
        if (!m)
            return m.error();
        if (m->hashes.isEmpty())
            return fieldError(file, f + QStringLiteral(".hashes"), QStringLiteral("missing or empty"));
        t.targets.insert(it.key(), TargetFile{it.key(), *length, m->hashes});
    }
    if (s.contains(QStringLiteral("delegations"))) {
        auto d = object(s, QStringLiteral("delegations"), file, QStringLiteral("signed"));
        if (!d)
            return d.error();
        auto keys = object(*d, QStringLiteral("keys"), file, QStringLiteral("signed.delegations"));
        if (!keys)
            return keys.error();
        auto parsedKeys = parseKeys(*keys, file, QStringLiteral("signed.delegations.keys"));
        if (!parsedKeys)
            return parsedKeys.error();
        t.delegationKeys = *parsedKeys;
        const QJsonValue roles = d->value(QStringLiteral("roles"));
        if (!roles.isArray())
            return fieldError(file, QStringLiteral("signed.delegations.roles"),
                              QStringLiteral("missing or not an array"));
        const QJsonArray ra = roles.toArray();
        if (ra.size() > kMaxKeys)
            return fieldError(
                file, QStringLiteral("signed.delegations.roles"),
                QStringLiteral("%1 roles, more than the %2 allowed").arg(ra.size()).arg(kMaxKeys));
        QSet<QString> names;
        for (qsizetype i = 0; i < ra.size(); ++i) {
            const QString f = QStringLiteral("signed.delegations.roles[%1]").arg(i);
            if (!ra.at(i).isObject())
                return fieldError(file, f, QStringLiteral("not an object"));
            const QJsonObject r = ra.at(i).toObject();
            DelegatedRole role;
            auto name = string(r, QStringLiteral("name"), file, f);
            if (!name)
                return name.error();
            role.name = *name;
            // The name becomes a file name ("<version>.<name>.json"): nothing that leaves the folder.
            if (role.name.isEmpty() || role.name.contains(QLatin1Char('/')) ||
                role.name.contains(QLatin1Char('\\')) || role.name.startsWith(QLatin1Char('.')) ||
                role.name == QLatin1String("root") || role.name == QLatin1String("timestamp") ||
                role.name == QLatin1String("snapshot") || role.name == QLatin1String("targets"))
                return fieldError(file, f + QStringLiteral(".name"),
                                  QStringLiteral("'%1' is not a usable delegated role name").arg(role.name));
            if (names.contains(role.name))
                return fieldError(file, f + QStringLiteral(".name"),
                                  QStringLiteral("role '%1' is delegated twice").arg(role.name));
            names.insert(role.name);
            auto rk = roleKeys(r, file, f);
            if (!rk)
                return rk.error();
            role.keys = *rk;
            const QJsonValue term = r.value(QStringLiteral("terminating"));
            if (!term.isBool())
                return fieldError(file, f + QStringLiteral(".terminating"),
                                  QStringLiteral("missing or not true/false"));
            role.terminating = term.toBool();
            const bool hasPaths = r.contains(QStringLiteral("paths")),
                       hasPrefixes = r.contains(QStringLiteral("path_hash_prefixes"));
            if (hasPaths == hasPrefixes)
                return fieldError(file, f,
                                  QStringLiteral("needs exactly one of paths and path_hash_prefixes"));
            const QString listKey = hasPaths ? QStringLiteral("paths") : QStringLiteral("path_hash_prefixes");
            const QJsonValue list = r.value(listKey);
            if (!list.isArray())
                return fieldError(file, f + QLatin1Char('.') + listKey, QStringLiteral("not an array"));
            QStringList values;
            for (const QJsonValue& v : list.toArray()) {
                if (!v.isString())
                    return fieldError(file, f + QLatin1Char('.') + listKey,
                                      QStringLiteral("holds a value that is not a string"));
                values << v.toString();
            }
            (hasPaths ? role.paths : role.pathHashPrefixes) = values;
            t.delegations.push_back(role);
        }
    }
    return t;
}

Result<bool> verifySignature(const Key& key, const QByteArray& data, const QByteArray& sig) {
    auto pkey = loadKey(key);
    if (!pkey)
        return pkey.error();
    const crypto::KeyKind kind = crypto::keyKind(pkey->get());
    const EVP_MD* md = kind == crypto::KeyKind::Ed25519  ? nullptr
                       : kind == crypto::KeyKind::EcP384 ? EVP_sha384()
                                                         : EVP_sha256();
    return crypto::verifyMessage(pkey->get(), md, data, sig);
}

Result<int> verifyThreshold(const Envelope& env, const QMap<QString, Key>& keys, const RoleKeys& role,
                            const QString& signer) {
    QSet<QByteArray> counted; // SubjectPublicKeyInfo of each key that signed
    QStringList problems;
    for (const Signature& s : env.signatures) {
        if (!role.keyids.contains(s.keyid) || !keys.contains(s.keyid))
            continue;
        const Key& key = keys.value(s.keyid);
        auto ok = verifySignature(key, env.canonical, s.sig);
        if (!ok) {
            problems << ok.error().message;
            continue;
        }
        if (!*ok) {
            problems << QStringLiteral("the signature by key %1 does not verify").arg(s.keyid.left(12));
            continue;
        }
        auto pkey = loadKey(key);
        counted.insert(pkey ? crypto::spkiDer(pkey->get()) : s.keyid.toUtf8());
    }
    const int valid = int(counted.size());
    if (valid < role.threshold)
        return makeError(QStringLiteral("%1 from %2, %3 required%4")
                             .arg(pb::counted(qint64(valid), QStringLiteral("valid signature"),
                                              QStringLiteral("valid signatures")))
                             .arg(signer)
                             .arg(role.threshold)
                             .arg(problems.isEmpty()
                                      ? QString()
                                      : QStringLiteral(" (%1)").arg(problems.join(QStringLiteral("; ")))),
                         env.file, 0, QStringLiteral("signatures"));
    return valid;
}

Status checkHashes(const QByteArray& bytes, const QMap<QString, QString>& hashes, const QString& file) {
    bool known = false;
    for (auto it = hashes.begin(); it != hashes.end(); ++it) {
        const EVP_MD* md = digestNamed(it.key());
        if (!md)
            continue;
        known = true;
        const QString got = QString::fromLatin1(crypto::hash(md, bytes).toHex());
        if (got != it.value())
            return makeError(QStringLiteral("%1 is %2, the metadata says %3").arg(it.key(), got, it.value()),
                             file);
    }
    if (!known && !hashes.isEmpty())
        return makeError(QStringLiteral("none of the hash algorithms (%1) is supported")
                             .arg(QStringList(hashes.keys()).join(QStringLiteral(", "))),
                         file);
    return {};
}

} // namespace pb::tuf
