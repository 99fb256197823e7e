#include "sigstore/Verify.h"

#include "core/Hash.h"
#include "sigstore/Crypto.h"
#include "sigstore/TrustCache.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <openssl/asn1.h>
#include <openssl/ct.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/ts.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <map>
#include <regex>

namespace pb::sigstore {

using namespace crypto;

namespace {

const QByteArray kInToto = QByteArrayLiteral("application/vnd.in-toto+json");

QString hex(const QByteArray& b) {
    return QString::fromLatin1(b.toHex());
}

// ---------------------------------------------------------------------------------------------
// Merkle inclusion (RFC 6962 / RFC 9162 2.1.3.2)

QByteArray leafHash(const QByteArray& leaf) {
    QByteArray d(1, '\0');
    d += leaf;
    return hash(EVP_sha256(), d);
}

QByteArray nodeHash(const QByteArray& left, const QByteArray& right) {
    QByteArray d(1, '\x01');
    d += left;
    d += right;
    return hash(EVP_sha256(), d);
}

// Empty on success, else the reason.
QString verifyInclusion(qint64 index, qint64 size, const QByteArray& leaf, const QList<QByteArray>& path,
                        const QByteArray& root) {
    if (index < 0 || size <= 0 || index >= size)
        return QStringLiteral("leaf index %1 is outside a tree of size %2").arg(index).arg(size);
    quint64 fn = quint64(index), sn = quint64(size - 1);
    QByteArray r = leaf;
    for (int i = 0; i < path.size(); ++i) {
        const QByteArray& p = path.at(i);
        if (p.size() != 32)
            return QStringLiteral("proof hash %1 is %2 bytes, not 32").arg(i).arg(p.size());
        if (sn == 0)
            return QStringLiteral("the proof has more hashes than a tree of size %1 needs").arg(size);
        if ((fn & 1) == 1 || fn == sn) {
            r = nodeHash(p, r);
            while ((fn & 1) == 0 && fn != 0) {
                fn >>= 1;
                sn >>= 1;
            }
        } else {
            r = nodeHash(r, p);
        }
        fn >>= 1;
        sn >>= 1;
    }
    if (sn != 0)
        return QStringLiteral("the proof has fewer hashes than a tree of size %1 needs").arg(size);
    if (r != root)
        return QStringLiteral("the root computed from the proof (%1) is not the logged root (%2)")
            .arg(hex(r), hex(root));
    return {};
}

// ---------------------------------------------------------------------------------------------
// Checkpoints: C2SP signed notes

struct NoteSignature {
    QByteArray name;
    QByteArray hint; // 4 bytes
    QByteArray signature;
};

struct Note {
    QByteArray text; // the signed bytes
    QByteArray origin;
    qint64 size = 0;
    QByteArray root;
    std::vector<NoteSignature> signatures;
};

constexpr int kMaxNoteSignatures = 100;

std::variant<Note, QString> parseNote(const QByteArray& bytes) {
    if (QString::fromUtf8(bytes).toUtf8() != bytes)
        return QStringLiteral("the checkpoint is not valid UTF-8");
    for (const char c : bytes)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f)
            return QStringLiteral("the checkpoint contains a control character");
    const qsizetype split = bytes.lastIndexOf("\n\n");
    if (split < 0)
        return QStringLiteral("the checkpoint has no blank line before its signatures");
    Note note;
    note.text = bytes.left(split + 1);
    const QByteArray sigs = bytes.mid(split + 2);
    if (sigs.isEmpty() || !sigs.endsWith('\n'))
        return QStringLiteral("the checkpoint's signature block is empty or unterminated");
    const QList<QByteArray> lines = note.text.split('\n');
    if (lines.size() < 4) // origin, size, root, "" after the final newline
        return QStringLiteral("the checkpoint needs origin, tree size and root hash lines");
    note.origin = lines.at(0);
    if (note.origin.isEmpty())
        return QStringLiteral("the checkpoint's origin line is empty");
    bool ok = false;
    note.size = lines.at(1).toLongLong(&ok);
    if (!ok || lines.at(1).isEmpty() ||
        !std::all_of(lines.at(1).begin(), lines.at(1).end(), [](char c) { return c >= '0' && c <= '9'; }))
        return QStringLiteral("the checkpoint's second line is not a tree size: '%1'")
            .arg(QString::fromUtf8(lines.at(1)));
    const auto root = decodeBase64Strict(QString::fromLatin1(lines.at(2)));
    if (!root || root->size() != 32)
        return QStringLiteral("the checkpoint's third line is not a 32-byte base64 root hash");
    note.root = *root;
    static const QByteArray dash = QByteArrayLiteral("\xE2\x80\x94 ");
    const QList<QByteArray> sigLines = sigs.chopped(1).split('\n');
    if (sigLines.size() >
        kMaxNoteSignatures) // as golang.org/x/mod/sumdb/note: a bound on the work a note can ask for
        return QStringLiteral("the checkpoint has %1 signature lines (at most %2)")
            .arg(sigLines.size())
            .arg(kMaxNoteSignatures);
    for (const QByteArray& line : sigLines) {
        if (!line.startsWith(dash))
            return QStringLiteral("a checkpoint signature line does not start with an em dash");
        const QByteArray rest = line.mid(dash.size());
        const qsizetype space = rest.indexOf(' ');
        if (space <= 0)
            return QStringLiteral("a checkpoint signature line has no key name");
        NoteSignature s;
        s.name = rest.left(space);
        if (s.name.contains('+'))
            return QStringLiteral("a checkpoint key name contains '+'");
        const auto raw = decodeBase64Strict(QString::fromLatin1(rest.mid(space + 1)));
        if (!raw || raw->size() < 5)
            return QStringLiteral("a checkpoint signature is not base64 of a key hint and signature");
        s.hint = raw->left(4);
        s.signature = raw->mid(4);
        note.signatures.push_back(std::move(s));
    }
    return note;
}

// ---------------------------------------------------------------------------------------------
// Certificates

qint64 asn1TimeMs(const ASN1_TIME* t) {
    struct tm tm {};
    if (!t || ASN1_TIME_to_tm(t, &tm) != 1)
        return 0;
    return qint64(timegm(&tm)) * 1000;
}

QString nameText(const X509_NAME* name) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio.get(), &data);
    return QString::fromUtf8(data, int(len));
}

// Fulcio's extensions (OID arc 1.3.6.1.4.1.57264.1), by name.
QString fulcioName(const QString& oid) {
    static const std::map<int, const char*> names = {{1, "Issuer (deprecated)"},
                                                     {2, "GitHub Workflow Trigger"},
                                                     {3, "GitHub Workflow SHA"},
                                                     {4, "GitHub Workflow Name"},
                                                     {5, "GitHub Workflow Repository"},
                                                     {6, "GitHub Workflow Ref"},
                                                     {7, "OtherName SAN"},
                                                     {8, "Issuer"},
                                                     {9, "Build Signer URI"},
                                                     {10, "Build Signer Digest"},
                                                     {11, "Runner Environment"},
                                                     {12, "Source Repository URI"},
                                                     {13, "Source Repository Digest"},
                                                     {14, "Source Repository Ref"},
                                                     {15, "Source Repository Identifier"},
                                                     {16, "Source Repository Owner URI"},
                                                     {17, "Source Repository Owner Identifier"},
                                                     {18, "Build Config URI"},
                                                     {19, "Build Config Digest"},
                                                     {20, "Build Trigger"},
                                                     {21, "Run Invocation URI"},
                                                     {22, "Source Repository Visibility At Signing"}};
    static const QString prefix = QStringLiteral("1.3.6.1.4.1.57264.1.");
    if (!oid.startsWith(prefix))
        return {};
    const auto it = names.find(oid.mid(prefix.size()).toInt());
    return it == names.end() ? QString() : QString::fromLatin1(it->second);
}

QString oidText(const ASN1_OBJECT* obj) {
    char buf[128];
    OBJ_obj2txt(buf, sizeof buf, obj, 1);
    return QString::fromLatin1(buf);
}

// A DER UTF8String (Fulcio .1.8 onwards), or the raw bytes for the older extensions.
QString fulcioValue(const QString& oid, const ASN1_OCTET_STRING* data) {
    const QByteArray raw(reinterpret_cast<const char*>(ASN1_STRING_get0_data(data)),
                         ASN1_STRING_length(data));
    const int arc = oid.section(QLatin1Char('.'), -1).toInt();
    if (arc >= 8) {
        const auto* p = reinterpret_cast<const unsigned char*>(raw.constData());
        ASN1_UTF8STRING* s = d2i_ASN1_UTF8STRING(nullptr, &p, raw.size());
        if (s) {
            QString out = QString::fromUtf8(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                                            ASN1_STRING_length(s));
            ASN1_UTF8STRING_free(s);
            return out;
        }
        ERR_clear_error();
    }
    return QString::fromUtf8(raw);
}

CertificateInfo describe(X509* cert) {
    CertificateInfo info;
    info.subject = nameText(X509_get_subject_name(cert));
    info.issuer = nameText(X509_get_issuer_name(cert));
    if (const ASN1_INTEGER* serial = X509_get0_serialNumber(cert)) {
        BIGNUM* bn = ASN1_INTEGER_to_BN(serial, nullptr);
        char* h = BN_bn2hex(bn);
        info.serialHex = QString::fromLatin1(h).toLower();
        OPENSSL_free(h);
        BN_free(bn);
    }
    info.notBeforeMs = asn1TimeMs(X509_get0_notBefore(cert));
    info.notAfterMs = asn1TimeMs(X509_get0_notAfter(cert));

    // SAN as sigstore-go summarises it: first URI, else first e-mail, else Fulcio's otherName.
    if (auto* sans =
            static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr))) {
        QString uri, email, other;
        for (int i = 0; i < sk_GENERAL_NAME_num(sans); ++i) {
            const GENERAL_NAME* n = sk_GENERAL_NAME_value(sans, i);
            if (n->type == GEN_URI && uri.isEmpty())
                uri = QString::fromUtf8(
                    reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.uniformResourceIdentifier)),
                    ASN1_STRING_length(n->d.uniformResourceIdentifier));
            else if (n->type == GEN_EMAIL && email.isEmpty())
                email =
                    QString::fromUtf8(reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.rfc822Name)),
                                      ASN1_STRING_length(n->d.rfc822Name));
            else if (n->type == GEN_OTHERNAME && other.isEmpty() &&
                     oidText(n->d.otherName->type_id) == QLatin1String("1.3.6.1.4.1.57264.1.7") &&
                     n->d.otherName->value->type == V_ASN1_UTF8STRING)
                other = QString::fromUtf8(reinterpret_cast<const char*>(
                                              ASN1_STRING_get0_data(n->d.otherName->value->value.utf8string)),
                                          ASN1_STRING_length(n->d.otherName->value->value.utf8string));
        }
        GENERAL_NAMES_free(sans);
        if (!uri.isEmpty()) {
            info.san = uri;
            info.sanKind = QStringLiteral("URI");
        } else if (!email.isEmpty()) {
            info.san = email;
            info.sanKind = QStringLiteral("email");
        } else if (!other.isEmpty()) {
            info.san = other;
            info.sanKind = QStringLiteral("otherName");
        }
    }
    ERR_clear_error();

    QString legacyIssuer;
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free); // one for every extension
    for (int i = 0; i < X509_get_ext_count(cert); ++i) {
        X509_EXTENSION* ext = X509_get_ext(cert, i);
        // A registered extension has a NID and OpenSSL's name; only the others (Fulcio's among them)
        // need their dotted OID.
        const int nid = OBJ_obj2nid(X509_EXTENSION_get_object(ext));
        const QString oid = nid == NID_undef ? oidText(X509_EXTENSION_get_object(ext)) : QString();
        QString name = nid == NID_undef ? fulcioName(oid) : QString(), value;
        if (!name.isEmpty()) {
            value = fulcioValue(oid, X509_EXTENSION_get_data(ext));
            if (oid.endsWith(QLatin1String(".1.8")))
                info.oidcIssuer = value;
            else if (oid.endsWith(QLatin1String(".1.1")))
                legacyIssuer = value;
        } else {
            name = nid != NID_undef ? QString::fromLatin1(OBJ_nid2ln(nid)) : oid;
            (void)BIO_reset(bio.get());
            if (bio && X509V3_EXT_print(bio.get(), ext, 0, 0) == 1) {
                char* data = nullptr;
                const long len = BIO_get_mem_data(bio.get(), &data);
                value = QString::fromUtf8(data, int(len)).simplified();
            } else {
                value = QStringLiteral("%1 bytes").arg(ASN1_STRING_length(X509_EXTENSION_get_data(ext)));
            }
            ERR_clear_error();
        }
        if (X509_EXTENSION_get_critical(ext))
            name += QStringLiteral(" (critical)");
        info.extensions.append({name, value});
    }
    if (info.oidcIssuer.isEmpty())
        info.oidcIssuer = legacyIssuer;
    return info;
}

// ---------------------------------------------------------------------------------------------
// The verification

struct StoreFree {
    void operator()(X509_STORE* s) const { X509_STORE_free(s); }
};
using Store = std::unique_ptr<X509_STORE, StoreFree>;

struct Ctx {
    const Bundle& bundle;
    const Artifact& artifact;
    const TrustedRoot& root;
    const Policy& policy;
    VerificationResult& out;
    const TrustCache& cache;
    Cert leaf;
    Pkey key; // the key that must have signed: the leaf's or the policy's
    QByteArray keySpki;
    std::vector<qint64> verifiedTimes; // ms
    QByteArray issuerKeyHash;          // SHA-256 of the SPKI of the certificate that issued the leaf

    Step& add(const QString& name, StepState state, const QString& detail = {}) {
        out.steps.push_back(Step{name, state, detail, {}, {}});
        return out.steps.back();
    }
};

// The verifier in a tlog entry body ("publicKey" PEM, base64-wrapped) must be this bundle's key.
QString verifierMatches(Ctx& c, const QString& b64Pem) {
    const auto pem = decodeBase64Strict(b64Pem);
    if (!pem)
        return QStringLiteral("the logged verifier is not base64");
    if (pem->contains("BEGIN CERTIFICATE")) {
        // Compared as DER bytes: decoding the certificate only to compare it would cost more than the
        // signature checks.
        const qsizetype begin = pem->indexOf('\n', pem->indexOf("-----BEGIN CERTIFICATE-----"));
        const qsizetype end = pem->indexOf("-----END CERTIFICATE-----");
        if (begin < 0 || end < begin)
            return QStringLiteral("the logged certificate cannot be read");
        const QByteArray der = QByteArray::fromBase64(
            pem->mid(begin + 1, end - begin - 1).replace('\n', QByteArray()).replace('\r', QByteArray()));
        if (!c.leaf || der != c.bundle.leafDer())
            return QStringLiteral("the logged certificate is not this bundle's signing certificate");
        return {};
    }
    if (c.leaf)
        return QStringLiteral("the logged public key is not the verification key");
    // The same SubjectPublicKeyInfo bytes are the same key; only another encoding of it needs a
    // decode (which costs more than a signature check in OpenSSL 3.0).
    const qsizetype b = pem->indexOf("-----BEGIN PUBLIC KEY-----");
    const qsizetype e = pem->indexOf("-----END PUBLIC KEY-----");
    if (b >= 0 && e > b && !c.keySpki.isEmpty()) {
        const QByteArray body =
            pem->mid(b + 26, e - b - 26).replace('\n', QByteArray()).replace('\r', QByteArray());
        if (QByteArray::fromBase64(body) == c.keySpki)
            return {};
    }
    Pkey logged = pkeyFromPem(*pem);
    if (!logged)
        return QStringLiteral("the logged public key cannot be read");
    if (c.leaf || !c.key || EVP_PKEY_eq(logged.get(), c.key.get()) != 1)
        return QStringLiteral("the logged public key is not the verification key");
    return {};
}

// Rekor v1 body <-> bundle: the log must have recorded this signature, key and content.
QString checkV1Body(Ctx& c, const TlogEntry& e) {
    QJsonParseError perr;
    const QJsonObject body = QJsonDocument::fromJson(e.canonicalizedBody, &perr).object();
    if (perr.error != QJsonParseError::NoError)
        return QStringLiteral("canonicalizedBody is not JSON");
    if (body.value(QStringLiteral("kind")).toString() != e.kind ||
        body.value(QStringLiteral("apiVersion")).toString() != e.version)
        return QStringLiteral("the body is a %1 %2 entry, the bundle says %3 %4")
            .arg(body.value(QStringLiteral("kind")).toString(),
                 body.value(QStringLiteral("apiVersion")).toString(), e.kind, e.version);
    const QJsonObject spec = body.value(QStringLiteral("spec")).toObject();
    const Bundle& b = c.bundle;
    if (e.kind == QLatin1String("hashedrekord") && e.version == QLatin1String("0.0.1")) {
        if (b.isDsse)
            return QStringLiteral("a hashedrekord entry cannot log a DSSE envelope");
        const QJsonObject sig = spec.value(QStringLiteral("signature")).toObject();
        if (decodeBase64Strict(sig.value(QStringLiteral("content")).toString()) != b.signature)
            return QStringLiteral("the logged signature is not this bundle's signature");
        if (QString v = verifierMatches(c, sig.value(QStringLiteral("publicKey"))
                                               .toObject()
                                               .value(QStringLiteral("content"))
                                               .toString());
            !v.isEmpty())
            return v;
        const QJsonObject h =
            spec.value(QStringLiteral("data")).toObject().value(QStringLiteral("hash")).toObject();
        const QString alg = h.value(QStringLiteral("algorithm")).toString();
        const QString logged = h.value(QStringLiteral("value")).toString();
        if (!b.digestAlgorithm.isEmpty() && digestByName(alg) != digestByName(b.digestAlgorithm))
            return QStringLiteral("the logged digest is %1, the bundle's %2").arg(alg, b.digestAlgorithm);
        if (!b.messageDigest.isEmpty() && logged != hex(b.messageDigest))
            return QStringLiteral("the logged artifact digest %1 is not the bundle's %2")
                .arg(logged, hex(b.messageDigest));
        // The entry is bound to the artifact itself, whether or not the bundle states a message digest
        // (a bundle without one must not leave the logged digest compared with nothing).
        QString mine;
        if (c.artifact.bytes) {
            const EVP_MD* md = digestByName(alg);
            if (!md)
                return QStringLiteral("the logged digest algorithm '%1' is not supported").arg(alg);
            mine = hex(hash(md, *c.artifact.bytes));
        } else if (digestByName(alg) == EVP_sha256()) {
            mine = hex(c.artifact.sha256);
        } else {
            return QStringLiteral(
                       "the logged digest is %1; a SHA-256 digest of the artifact cannot be compared with it")
                .arg(alg);
        }
        if (logged != mine)
            return QStringLiteral("the logged artifact digest %1 is not the artifact's %2").arg(logged, mine);
        return {};
    }
    if (!b.isDsse)
        return QStringLiteral("a %1 entry logs a DSSE envelope, the bundle has a message signature")
            .arg(e.kind);
    const QString payloadHash = hex(hash(EVP_sha256(), b.payload));
    if (e.kind == QLatin1String("dsse") && e.version == QLatin1String("0.0.1")) {
        if (spec.value(QStringLiteral("payloadHash")).toObject().value(QStringLiteral("value")).toString() !=
            payloadHash)
            return QStringLiteral("the logged payload hash is not the hash of this envelope's payload");
        const QJsonArray sigs = spec.value(QStringLiteral("signatures")).toArray();
        for (const QJsonValue& s : sigs) {
            const QJsonObject so = s.toObject();
            if (decodeBase64Strict(so.value(QStringLiteral("signature")).toString()) == b.signature)
                return verifierMatches(c, so.value(QStringLiteral("verifier")).toString());
        }
        return QStringLiteral("the logged signatures do not include this envelope's signature");
    }
    if (e.kind == QLatin1String("intoto") && e.version == QLatin1String("0.0.2")) {
        const QJsonObject content = spec.value(QStringLiteral("content")).toObject();
        if (content.value(QStringLiteral("payloadHash"))
                .toObject()
                .value(QStringLiteral("value"))
                .toString() != payloadHash)
            return QStringLiteral("the logged payload hash is not the hash of this envelope's payload");
        const QJsonArray sigs = content.value(QStringLiteral("envelope"))
                                    .toObject()
                                    .value(QStringLiteral("signatures"))
                                    .toArray();
        for (const QJsonValue& s : sigs) {
            const QJsonObject so = s.toObject();
            // intoto 0.0.2 stores the signature base64 twice.
            const auto once = decodeBase64Strict(so.value(QStringLiteral("sig")).toString());
            const auto twice = once ? decodeBase64Strict(QString::fromLatin1(*once)) : std::nullopt;
            if (twice == b.signature)
                return verifierMatches(c, so.value(QStringLiteral("publicKey")).toString());
        }
        return QStringLiteral("the logged signatures do not include this envelope's signature");
    }
    return QStringLiteral("entry kind %1 %2 is not supported").arg(e.kind, e.version);
}

QString keyDetailsFor(EVP_PKEY* key, QString* digestName) {
    switch (keyKind(key)) {
    case KeyKind::EcP256:
        *digestName = QStringLiteral("SHA2_256");
        return QStringLiteral("PKIX_ECDSA_P256_SHA_256");
    case KeyKind::EcP384:
        *digestName = QStringLiteral("SHA2_384");
        return QStringLiteral("PKIX_ECDSA_P384_SHA_384");
    case KeyKind::EcP521:
        *digestName = QStringLiteral("SHA2_512");
        return QStringLiteral("PKIX_ECDSA_P521_SHA_512");
    case KeyKind::Rsa:
        *digestName = QStringLiteral("SHA2_256");
        return QStringLiteral("PKIX_RSA_PKCS1V15_%1_SHA256").arg(EVP_PKEY_get_bits(key));
    case KeyKind::Ed25519:
        *digestName = QStringLiteral("SHA2_512");
        return QStringLiteral("PKIX_ED25519_PH");
    default:
        return {};
    }
}

// Rekor v2 hashedrekord 0.0.2: the entry is rebuilt from the bundle (never trusted as given) in
// RFC 8785 form — keys sorted, compact — so the leaf hash binds signature, digest and key.
QByteArray rebuildV2Entry(Ctx& c) {
    QString digestName;
    const QString details = keyDetailsFor(c.key.get(), &digestName);
    QByteArray digest;
    if (c.bundle.isDsse) {
        digest = hash(digestByName(digestName), dssePae(c.bundle.payloadType.toUtf8(), c.bundle.payload));
    } else if (!c.bundle.messageDigest.isEmpty()) {
        digest = c.bundle.messageDigest;
        if (!c.bundle.digestAlgorithm.isEmpty())
            digestName = c.bundle.digestAlgorithm;
    } else if (c.artifact.bytes) {
        // No message digest in the bundle: the entry is rebuilt from the artifact's own digest, so
        // the log still binds what is verified.
        if (const EVP_MD* md = digestByName(digestName))
            digest = hash(md, *c.artifact.bytes);
    } else if (digestName == QLatin1String("SHA2_256")) {
        digest = c.artifact.sha256;
    }
    QByteArray verifier = c.leaf
                              ? "\"x509Certificate\":{\"rawBytes\":\"" + c.bundle.leafDer().toBase64() + "\"}"
                              : "\"publicKey\":{\"rawBytes\":\"" + c.keySpki.toBase64() + "\"}";
    return "{\"apiVersion\":\"0.0.2\",\"kind\":\"hashedrekord\",\"spec\":{\"hashedRekordV002\":{\"data\":{"
           "\"algorithm\":\"" +
           digestName.toLatin1() + "\",\"digest\":\"" + digest.toBase64() +
           "\"},\"signature\":{\"content\":\"" + c.bundle.signature.toBase64() +
           "\",\"verifier\":{\"keyDetails\":\"" + details.toLatin1() + "\"," + verifier + "}}}}}";
}

// Empty on success. As the C2SP signed-note format says, signature lines from keys the verifier
// does not know (witness cosignatures, other logs) are ignored wherever they appear; a line of the
// log's own key must verify, and at least one must be there. The log's key is known by its key hint
// (the first 4 bytes of the log id) and, for Rekor v2, also by its name (the log's host); Rekor v1
// notes name the log by "host[:port]", which the trusted root does not record, so v1 goes by the hint.
QString verifyCheckpoint(const Note& note, const TransparencyLog& log, EVP_PKEY* key, bool v2) {
    const QByteArray hint = log.logId.left(4);
    int verified = 0, ignored = 0;
    for (const NoteSignature& s : note.signatures) {
        const bool known = s.hint == hint && (!v2 || s.name == log.host().toUtf8());
        if (!known) {
            ++ignored;
            continue;
        }
        if (!verifyMessage(key, defaultDigest(key), note.text, s.signature))
            return QStringLiteral("the checkpoint signature by %1 does not verify")
                .arg(QString::fromUtf8(s.name));
        ++verified;
    }
    if (verified == 0)
        return QStringLiteral("the checkpoint carries no signature by %1 (key hint %2; %3 line(s) from other "
                              "keys ignored)")
            .arg(log.host(), hex(hint))
            .arg(ignored);
    if (v2 && note.origin != log.host().toUtf8())
        return QStringLiteral("the checkpoint origin '%1' is not the log '%2'")
            .arg(QString::fromUtf8(note.origin), log.host());
    return {};
}

// An entry's signed entry timestamp (the inclusion promise): signed by the log's key, at a time
// the key was valid. Empty when it verifies, else why not.
QString checkSignedEntryTimestamp(const TlogEntry& e, const TransparencyLog& log, EVP_PKEY* lk,
                                  const QString& label) {
    const QByteArray canonical = "{\"body\":\"" + e.canonicalizedBody.toBase64() +
                                 "\",\"integratedTime\":" + QByteArray::number(e.integratedTime) +
                                 ",\"logID\":\"" + e.logId.toHex() +
                                 "\",\"logIndex\":" + QByteArray::number(e.logIndex) + "}";
    if (!verifyMessage(lk, EVP_sha256(), canonical, *e.signedEntryTimestamp)) {
        return QStringLiteral("%1: the signed entry timestamp does not verify with the key of %2")
            .arg(label, log.baseUrl);
    }
    if (!log.validFor.contains(e.integratedTime * 1000)) {
        return QStringLiteral("%1: integrated time %2 is outside the validity of %3's key")
            .arg(label, formatMs(e.integratedTime * 1000), log.baseUrl);
    }
    return {};
}

// An entry's inclusion proof: the checkpoint signed by the log, the proof's tree that checkpoint's,
// and the entry's leaf (rebuilt from the bundle for Rekor v2) in it. Fills the checkpoint fields
// of `info`. Empty when it verifies, else why not.
QString checkInclusionProof(Ctx& c, const TlogEntry& e, const TransparencyLog& log, EVP_PKEY* lk, bool v2,
                            const QString& label, LogEntryInfo& info) {
    const InclusionProof& p = *e.inclusionProof;
    auto parsed = parseNote(p.checkpoint);
    if (const QString* err = std::get_if<QString>(&parsed)) {
        return QStringLiteral("%1: %2").arg(label, *err);
    }
    const Note& note = std::get<Note>(parsed);
    info.checkpointOrigin = QString::fromUtf8(note.origin);
    info.treeSize = note.size;
    info.rootHashHex = hex(note.root);
    if (QString err = verifyCheckpoint(note, log, lk, v2); !err.isEmpty()) {
        return QStringLiteral("%1: %2").arg(label, err);
    }
    if (note.root != p.rootHash || note.size != p.treeSize) {
        return QStringLiteral(
                   "%1: the checkpoint (size %2, root %3) is not the proof's tree (size %4, root %5)")
            .arg(label)
            .arg(note.size)
            .arg(hex(note.root).left(16))
            .arg(p.treeSize)
            .arg(hex(p.rootHash).left(16));
    }
    QByteArray leaf;
    qint64 index = p.logIndex;
    if (v2 && p.logIndex != e.logIndex) {
        // Rekor v2 has one index per entry: the proof must be for the entry's own.
        return QStringLiteral("%1: the inclusion proof is for index %2, the entry's log index is %3")
            .arg(label)
            .arg(p.logIndex)
            .arg(e.logIndex);
    }
    if (v2) {
        const QByteArray rebuilt = rebuildV2Entry(c);
        // The logged leaf is the entry rebuilt from the bundle; a body the bundle carries must be that
        // entry too (the same JSON), or the bundle says two things and is refused.
        if (!e.canonicalizedBody.isEmpty() && e.canonicalizedBody != rebuilt) {
            const QJsonDocument given = QJsonDocument::fromJson(e.canonicalizedBody);
            if (!given.isObject() || given != QJsonDocument::fromJson(rebuilt))
                return QStringLiteral("%1: the entry's canonicalizedBody is not the entry rebuilt from this "
                                      "bundle (the log holds the rebuilt one)")
                    .arg(label);
        }
        leaf = leafHash(rebuilt);
        index = e.logIndex;
    } else {
        leaf = leafHash(e.canonicalizedBody);
    }
    if (QString err = verifyInclusion(index, note.size, leaf, p.hashes, note.root); !err.isEmpty()) {
        return QStringLiteral("%1: inclusion proof: %2%3")
            .arg(label, err,
                 v2 ? QStringLiteral(" (the entry rebuilt from this bundle is not the logged leaf)")
                    : QString());
    }
    return {};
}

// The entry was integrated while the signing certificate was valid. Empty when so, else why not.
QString checkIntegratedInCertValidity(const Ctx& c, const TlogEntry& e, const QString& label) {
    if (e.integratedTime == 0 || !c.leaf)
        return {};
    const qint64 t = e.integratedTime * 1000;
    const qint64 nb = asn1TimeMs(X509_get0_notBefore(c.leaf.get())),
                 na = asn1TimeMs(X509_get0_notAfter(c.leaf.get()));
    if (t < nb || t > na) {
        return QStringLiteral("%1: integrated time %2 is outside the certificate's validity %3 to %4")
            .arg(label, formatMs(t), formatMs(nb), formatMs(na));
    }
    return {};
}

void stepTransparencyLog(Ctx& c) {
    const Bundle& b = c.bundle;
    if (b.tlogEntries.empty()) {
        if (c.policy.ignoreTlog)
            c.add(QStringLiteral("transparency log"), StepState::Skipped,
                  QStringLiteral("no entry; ignored by policy (--insecure-ignore-tlog)"));
        else
            c.add(QStringLiteral("transparency log"), StepState::Failed,
                  QStringLiteral("the bundle has no transparency-log entry"));
        return;
    }
    QStringList notes;
    QSet<QByteArray> verifiedLogs;
    QSet<QString> seen;
    QString fatal;
    for (const TlogEntry& e : b.tlogEntries) {
        LogEntryInfo info;
        info.kind = e.kind;
        info.version = e.version;
        info.logIndex = e.logIndex;
        info.integratedTime = e.integratedTime;
        const QString label = QStringLiteral("entry %1").arg(e.logIndex);
        const QString key = hex(e.logId) + QLatin1Char('/') + QString::number(e.logIndex);
        if (seen.contains(key)) {
            fatal = QStringLiteral("%1 appears twice").arg(label);
            break;
        }
        seen.insert(key);
        const TransparencyLog* log = c.root.tlogById(e.logId);
        if (!log) {
            notes << QStringLiteral("%1: log %2 is not in the trusted root (not counted)")
                         .arg(label, hex(e.logId).left(16));
            c.out.logEntries.push_back(info);
            continue;
        }
        info.logUrl = log->baseUrl;
        EVP_PKEY* lk = c.cache.tlogKeys[size_t(log - c.root.tlogs.data())].get();
        if (!lk) {
            fatal =
                QStringLiteral("%1: the trusted root's key for %2 cannot be read").arg(label, log->baseUrl);
            break;
        }
        const bool v2 = e.version == QLatin1String("0.0.2") &&
                        (e.kind == QLatin1String("hashedrekord") || e.kind == QLatin1String("dsse"));
        if (v2 && e.kind == QLatin1String("dsse")) {
            fatal = QStringLiteral("%1: Rekor v2 dsse 0.0.2 entries are no longer supported").arg(label);
            break;
        }
        if (v2 && !e.inclusionProof) {
            fatal =
                QStringLiteral("%1: a Rekor v2 entry needs an inclusion proof (no online lookup)").arg(label);
            break;
        }
        if (!e.signedEntryTimestamp && !e.inclusionProof) {
            fatal = QStringLiteral("%1: neither an inclusion promise nor an inclusion proof").arg(label);
            break;
        }
        bool setOk = false;
        if (e.signedEntryTimestamp) {
            if (QString err = checkSignedEntryTimestamp(e, *log, lk, label); !err.isEmpty()) {
                fatal = err;
                break;
            }
            setOk = true;
        }
        if (e.inclusionProof) {
            if (QString err = checkInclusionProof(c, e, *log, lk, v2, label, info); !err.isEmpty()) {
                fatal = err;
                break;
            }
        }
        if (!v2) {
            if (QString err = checkV1Body(c, e); !err.isEmpty()) {
                fatal = QStringLiteral("%1: %2").arg(label, err);
                break;
            }
        }
        if (QString err = checkIntegratedInCertValidity(c, e, label); !err.isEmpty()) {
            fatal = err;
            break;
        }
        if (setOk)
            c.verifiedTimes.push_back(e.integratedTime * 1000);
        info.verified = true;
        verifiedLogs.insert(e.logId);
        notes << QStringLiteral("%1 in %2: %3%4")
                     .arg(label, log->baseUrl, setOk ? QStringLiteral("signed entry timestamp, ") : QString(),
                          e.inclusionProof ? QStringLiteral("inclusion proof and checkpoint verified")
                                           : QStringLiteral("promise only"));
        c.out.logEntries.push_back(info);
    }
    if (!fatal.isEmpty()) {
        c.add(QStringLiteral("transparency log"), StepState::Failed, fatal);
        return;
    }
    if (verifiedLogs.isEmpty()) {
        c.add(
            QStringLiteral("transparency log"), StepState::Failed,
            QStringLiteral("no entry from a trusted log verified: %1").arg(notes.join(QStringLiteral("; "))));
        return;
    }
    c.add(QStringLiteral("transparency log"), StepState::Passed, notes.join(QStringLiteral("; ")));
}

// Empty when every certificate of the authority's chain from `from` up is valid at `ms`.
QString chainValidAt(const TrustCache::Authority& a, size_t from, qint64 ms) {
    for (size_t i = from; i < a.chain.size(); ++i) {
        X509* cert = a.chain[i].get();
        if (ms < asn1TimeMs(X509_get0_notBefore(cert)) || ms > asn1TimeMs(X509_get0_notAfter(cert)))
            return QStringLiteral("%1 is not valid at %2")
                .arg(nameText(X509_get_subject_name(cert)), formatMs(ms));
    }
    return {};
}

void stepTimestamps(Ctx& c) {
    const Bundle& b = c.bundle;
    if (b.rfc3161Timestamps.isEmpty()) {
        c.add(QStringLiteral("timestamps"), StepState::Skipped,
              QStringLiteral("the bundle has no RFC 3161 timestamp"));
        return;
    }
    if (c.root.timestampAuthorities.empty()) {
        c.add(QStringLiteral("timestamps"), StepState::Skipped,
              QStringLiteral("the trusted root has no timestamp authority"));
        return;
    }
    int verified = 0;
    QStringList notes;
    QSet<QString> countedTsas;
    for (int i = 0; i < b.rfc3161Timestamps.size(); ++i) {
        TimestampInfo info;
        const QByteArray& der = b.rfc3161Timestamps.at(i);
        const auto* p = reinterpret_cast<const unsigned char*>(der.constData());
        std::unique_ptr<TS_RESP, decltype(&TS_RESP_free)> resp(d2i_TS_RESP(nullptr, &p, der.size()),
                                                               &TS_RESP_free);
        if (!resp || !TS_RESP_get_tst_info(resp.get())) {
            ERR_clear_error();
            info.detail = QStringLiteral("not a granted TimeStampResp");
            notes << QStringLiteral("timestamp %1: %2").arg(i).arg(info.detail);
            c.out.timestamps.push_back(info);
            continue;
        }
        TS_TST_INFO* tst = TS_RESP_get_tst_info(resp.get());
        info.genTimeMs = asn1TimeMs(TS_TST_INFO_get_time(tst));
        const X509_ALGOR* alg = TS_MSG_IMPRINT_get_algo(TS_TST_INFO_get_msg_imprint(tst));
        const EVP_MD* md = nullptr;
        switch (OBJ_obj2nid(alg->algorithm)) {
        case NID_sha256:
            md = EVP_sha256();
            break;
        case NID_sha384:
            md = EVP_sha384();
            break;
        case NID_sha512:
            md = EVP_sha512();
            break;
        default:
            break;
        }
        if (!md) {
            info.detail = QStringLiteral("message imprint algorithm is not SHA-256/384/512");
            notes << QStringLiteral("timestamp %1: %2").arg(i).arg(info.detail);
            c.out.timestamps.push_back(info);
            continue;
        }
        const QByteArray imprint = hash(md, b.signature);
        QString lastFailure = QStringLiteral("no trusted timestamp authority signed it");
        for (size_t t = 0; t < c.root.timestampAuthorities.size(); ++t) {
            const CertificateAuthority& tsa = c.root.timestampAuthorities[t];
            const TrustCache::Authority& a = c.cache.tsas[t];
            if (!a.chainValid) {
                lastFailure = QStringLiteral("the trusted root's certificate chain for %1 does not verify")
                                  .arg(tsa.uri);
                continue;
            }
            // The TSA's certificate is the anchor (its chain to the root was checked when the root was
            // loaded); the certificates above it must still be valid at genTime.
            if (QString expired = chainValidAt(a, 1, info.genTimeMs); !expired.isEmpty()) {
                lastFailure = QStringLiteral("not verified by %1: %2").arg(tsa.uri, expired);
                continue;
            }
            Store store(X509_STORE_new());
            X509_STORE_add_cert(store.get(), a.chain.front().get());
            X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store.get()), time_t(info.genTimeMs / 1000));
            X509_STORE_set_flags(store.get(), X509_V_FLAG_PARTIAL_CHAIN);
            TS_VERIFY_CTX* ctx = TS_VERIFY_CTX_new();
            TS_VERIFY_CTX_set_flags(ctx, TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_IMPRINT);
            auto* buf =
                static_cast<unsigned char*>(OPENSSL_memdup(imprint.constData(), size_t(imprint.size())));
            TS_VERIFY_CTX_set_imprint(ctx, buf, long(imprint.size()));
            TS_VERIFY_CTX_set_store(ctx, store.release());
            STACK_OF(X509)* signer = sk_X509_new_null();
            X509_up_ref(a.chain.front().get());
            sk_X509_push(signer, a.chain.front().get());
            TS_VERIFY_CTX_set_certs(ctx, signer);
            const int rc = TS_RESP_verify_response(ctx, resp.get());
            TS_VERIFY_CTX_free(ctx);
            if (rc != 1) {
                lastFailure = QStringLiteral("not verified by %1: %2").arg(tsa.uri, lastError());
                continue;
            }
            if (!tsa.validFor.contains(info.genTimeMs)) {
                lastFailure = QStringLiteral("time %1 is outside the validity of %2")
                                  .arg(formatMs(info.genTimeMs), tsa.uri);
                continue;
            }
            info.tsaUri = tsa.uri;
            info.verified = true;
            break;
        }
        ERR_clear_error();
        if (info.verified) {
            if (!countedTsas.contains(info.tsaUri)) {
                countedTsas.insert(info.tsaUri);
                ++verified;
                c.verifiedTimes.push_back(info.genTimeMs);
            }
            info.detail = QStringLiteral("signed by %1 at %2").arg(info.tsaUri, formatMs(info.genTimeMs));
        } else {
            info.detail = lastFailure;
        }
        notes << QStringLiteral("timestamp %1: %2").arg(i).arg(info.detail);
        c.out.timestamps.push_back(info);
    }
    c.add(QStringLiteral("timestamps"), verified > 0 ? StepState::Passed : StepState::Failed,
          notes.join(QStringLiteral("; ")));
}

void stepCertificateChain(Ctx& c) {
    if (!c.leaf) {
        c.add(QStringLiteral("certificate chain"), StepState::Skipped,
              QStringLiteral("key mode: no certificate"));
        return;
    }
    if (c.verifiedTimes.empty()) {
        c.add(QStringLiteral("certificate chain"), StepState::Failed,
              QStringLiteral("no verified time to check the certificate at"));
        return;
    }
    QStringList checked;
    for (const qint64 t : c.verifiedTimes) {
        QString failure = QStringLiteral("no Fulcio certificate authority of the trusted root is valid at %1")
                              .arg(formatMs(t));
        bool ok = false;
        for (size_t i = 0; i < c.root.certificateAuthorities.size(); ++i) {
            const CertificateAuthority& ca = c.root.certificateAuthorities[i];
            const TrustCache::Authority& a = c.cache.cas[i];
            if (!ca.validFor.contains(t))
                continue;
            if (!a.chainValid) {
                failure =
                    QStringLiteral("the trusted root's certificate chain for %1 does not verify").arg(ca.uri);
                continue;
            }
            // The issuing certificate is the anchor (its chain to the root was checked when the root was
            // loaded); every certificate of that chain must be valid at t, the leaf's path is OpenSSL's.
            if (QString expired = chainValidAt(a, 0, t); !expired.isEmpty()) {
                failure = QStringLiteral("at %1, %2").arg(formatMs(t), expired);
                continue;
            }
            std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> sctx(X509_STORE_CTX_new(),
                                                                                 &X509_STORE_CTX_free);
            X509_STORE_CTX_init(sctx.get(), a.store.get(), c.leaf.get(), nullptr);
            X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(sctx.get());
            X509_VERIFY_PARAM_set_time(param, time_t(t / 1000));
            X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_PARTIAL_CHAIN);
            if (X509_verify_cert(sctx.get()) != 1) {
                failure = QStringLiteral("at %1, not issued by %2: %3")
                              .arg(formatMs(t), ca.uri,
                                   QString::fromLatin1(
                                       X509_verify_cert_error_string(X509_STORE_CTX_get_error(sctx.get()))));
                ERR_clear_error();
                continue;
            }
            if (c.issuerKeyHash.isEmpty())
                c.issuerKeyHash = a.issuerKeyHash;
            ok = true;
            checked << QStringLiteral("%1 via %2").arg(formatMs(t), ca.uri);
            break;
        }
        if (!ok) {
            c.add(QStringLiteral("certificate chain"), StepState::Failed, failure);
            return;
        }
    }
    if (!(X509_get_extension_flags(c.leaf.get()) & EXFLAG_XKUSAGE) ||
        !(X509_get_extended_key_usage(c.leaf.get()) & XKU_CODE_SIGN)) {
        c.add(QStringLiteral("certificate chain"), StepState::Failed,
              QStringLiteral("the certificate is not for code signing (EKU)"));
        return;
    }
    c.add(QStringLiteral("certificate chain"), StepState::Passed,
          QStringLiteral("chains to the trusted Fulcio root at %1; code-signing EKU")
              .arg(checked.join(QStringLiteral(", "))));
}

void stepSct(Ctx& c) {
    if (!c.leaf) {
        c.add(QStringLiteral("certificate transparency"), StepState::Skipped,
              QStringLiteral("key mode: no certificate"));
        return;
    }
    if (c.issuerKeyHash.isEmpty()) {
        c.add(QStringLiteral("certificate transparency"), StepState::Failed,
              QStringLiteral("no verified issuer to check the SCT against"));
        return;
    }
    auto* scts =
        static_cast<STACK_OF(SCT)*>(X509_get_ext_d2i(c.leaf.get(), NID_ct_precert_scts, nullptr, nullptr));
    ERR_clear_error();
    if (!scts || sk_SCT_num(scts) == 0) {
        SCT_LIST_free(scts);
        c.add(QStringLiteral("certificate transparency"), StepState::Failed,
              QStringLiteral("the certificate has no embedded SCT"));
        return;
    }
    // The precertificate TBS: the leaf without its SCT list, re-encoded. This is the last use of the
    // parsed leaf, so the extension is removed from it in place (a copy would cost a full decode).
    QByteArray tbs;
    {
        const int idx = X509_get_ext_by_NID(c.leaf.get(), NID_ct_precert_scts, -1);
        X509_EXTENSION_free(X509_delete_ext(c.leaf.get(), idx));
        unsigned char* buf = nullptr;
        const int len = i2d_re_X509_tbs(c.leaf.get(), &buf);
        if (len > 0)
            tbs = QByteArray(reinterpret_cast<const char*>(buf), len);
        OPENSSL_free(buf);
    }
    const QByteArray& issuerKeyHash = c.issuerKeyHash;
    QStringList notes;
    bool ok = false;
    for (int i = 0; i < sk_SCT_num(scts) && !ok; ++i) {
        SCT* sct = sk_SCT_value(scts, i);
        unsigned char* id = nullptr;
        const size_t idLen = SCT_get0_log_id(sct, &id);
        const QByteArray logIdBytes(reinterpret_cast<const char*>(id), int(idLen));
        const TransparencyLog* log = c.root.ctlogById(logIdBytes);
        if (!log) {
            notes << QStringLiteral("SCT %1: CT log %2 is not in the trusted root")
                         .arg(i)
                         .arg(hex(logIdBytes).left(16));
            continue;
        }
        const quint64 ts = SCT_get_timestamp(sct);
        unsigned char* ext = nullptr;
        const size_t extLen = SCT_get0_extensions(sct, &ext);
        unsigned char* sig = nullptr;
        const size_t sigLen = SCT_get0_signature(sct, &sig);
        QByteArray msg;
        msg.reserve(tbs.size() + 64 + int(extLen));
        msg += '\0';
        msg += '\0';
        for (int s = 56; s >= 0; s -= 8)
            msg += char((ts >> s) & 0xff);
        msg += '\0';
        msg += '\x01';
        msg += issuerKeyHash;
        msg += char((tbs.size() >> 16) & 0xff);
        msg += char((tbs.size() >> 8) & 0xff);
        msg += char(tbs.size() & 0xff);
        msg += tbs;
        msg += char((extLen >> 8) & 0xff);
        msg += char(extLen & 0xff);
        msg += QByteArray(reinterpret_cast<const char*>(ext), int(extLen));
        EVP_PKEY* key = c.cache.ctlogKeys[size_t(log - c.root.ctlogs.data())].get();
        if (!verifyMessage(key, defaultDigest(key), msg,
                           QByteArray(reinterpret_cast<const char*>(sig), int(sigLen)))) {
            notes << QStringLiteral("SCT %1 from %2 does not verify").arg(i).arg(log->baseUrl);
            continue;
        }
        if (!log->validFor.contains(qint64(ts))) {
            notes << QStringLiteral("SCT %1: time %2 is outside the validity of %3")
                         .arg(i)
                         .arg(formatMs(qint64(ts)), log->baseUrl);
            continue;
        }
        ok = true;
        notes << QStringLiteral("SCT from %1 at %2 verified").arg(log->baseUrl, formatMs(qint64(ts)));
    }
    SCT_LIST_free(scts);
    c.add(QStringLiteral("certificate transparency"), ok ? StepState::Passed : StepState::Failed,
          notes.join(QStringLiteral("; ")));
}

void stepSignature(Ctx& c) {
    const Bundle& b = c.bundle;
    EVP_PKEY* key = c.key.get();
    const EVP_MD* md = defaultDigest(key);
    const KeyKind kind = keyKind(key);
    bool ok = false;
    QString what;
    if (b.isDsse) {
        const QByteArray pae = dssePae(b.payloadType.toUtf8(), b.payload);
        ok = verifyMessage(key, md, pae, b.signature);
        if (!ok && (kind == KeyKind::EcP384 || kind == KeyKind::EcP521))
            ok = verifyMessage(key, EVP_sha256(), pae, b.signature);
        what = QStringLiteral("DSSE envelope (PAE of %1, %2 bytes)").arg(b.payloadType).arg(b.payload.size());
    } else if (kind == KeyKind::Ed25519) {
        c.add(QStringLiteral("signature"), StepState::Failed,
              QStringLiteral("Ed25519ph message signatures need OpenSSL 3.2 or later"));
        return;
    } else if (c.artifact.bytes) {
        ok = verifyMessage(key, md, *c.artifact.bytes, b.signature);
        if (!ok && (kind == KeyKind::EcP384 || kind == KeyKind::EcP521))
            ok = verifyMessage(key, EVP_sha256(), *c.artifact.bytes, b.signature);
        what = QStringLiteral("the artifact (%1 bytes)").arg(c.artifact.bytes->size());
    } else {
        // Digest mode: the signature over the prehash the caller gave (checked against the bundle's
        // message digest in the artifact step).
        ok = verifyPrehash(key, EVP_sha256(), c.artifact.sha256, b.signature);
        what = QStringLiteral("the SHA-256 digest %1").arg(hex(c.artifact.sha256));
    }
    const QString signer =
        c.leaf ? QStringLiteral("the certificate's key") : QStringLiteral("the given public key");
    c.add(QStringLiteral("signature"), ok ? StepState::Passed : StepState::Failed,
          ok ? QStringLiteral("%1 signed %2").arg(signer, what)
             : QStringLiteral("the signature over %1 does not verify with %2").arg(what, signer));
}

void stepArtifact(Ctx& c) {
    const Bundle& b = c.bundle;
    const QString given = hex(c.artifact.sha256);
    if (!b.isDsse) {
        if (b.messageDigest.isEmpty()) {
            c.add(QStringLiteral("artifact"), c.artifact.bytes ? StepState::Passed : StepState::Failed,
                  c.artifact.bytes
                      ? QStringLiteral(
                            "the bundle has no message digest; the signature covers the artifact bytes")
                      : QStringLiteral("the bundle has no message digest to compare the given digest with"));
            return;
        }
        QString found;
        if (c.artifact.bytes)
            found = hex(hash(digestByName(b.digestAlgorithm), *c.artifact.bytes));
        else if (b.digestAlgorithm == QLatin1String("SHA2_256"))
            found = given;
        else {
            c.add(QStringLiteral("artifact"), StepState::Failed,
                  QStringLiteral("the bundle's digest is %1; a SHA-256 digest cannot be compared with it")
                      .arg(b.digestAlgorithm));
            return;
        }
        Step& s = c.add(QStringLiteral("artifact"),
                        found == hex(b.messageDigest) ? StepState::Passed : StepState::Failed,
                        found == hex(b.messageDigest)
                            ? QStringLiteral("%1 of the artifact matches the bundle's message digest")
                                  .arg(b.digestAlgorithm)
                            : QStringLiteral("the artifact's %1 is not the bundle's message digest")
                                  .arg(b.digestAlgorithm));
        if (s.state == StepState::Failed) {
            s.expected = hex(b.messageDigest);
            s.found = found;
        }
        return;
    }
    if (b.payloadType.toUtf8() != kInToto) {
        c.add(QStringLiteral("artifact"), StepState::Failed,
              QStringLiteral("the envelope's payload type is '%1', not an in-toto statement")
                  .arg(b.payloadType));
        return;
    }
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(b.payload, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
        c.add(QStringLiteral("artifact"), StepState::Failed,
              QStringLiteral("the in-toto statement is not a JSON object"));
        return;
    }
    c.out.statement = doc.object();
    c.out.predicateType = c.out.statement.value(QStringLiteral("predicateType")).toString();
    const QJsonArray subjects = c.out.statement.value(QStringLiteral("subject")).toArray();
    QStringList listed;
    for (const QJsonValue& s : subjects) {
        const QJsonObject digests = s.toObject().value(QStringLiteral("digest")).toObject();
        for (auto it = digests.begin(); it != digests.end(); ++it) {
            const QString alg = it.key();
            const QString value = it.value().toString().toLower();
            listed << QStringLiteral("%1:%2").arg(alg, value);
            QString mine;
            if (c.artifact.bytes) {
                if (const EVP_MD* md = digestByName(alg))
                    mine = hex(hash(md, *c.artifact.bytes));
            } else if (alg == QLatin1String("sha256")) {
                mine = given;
            }
            if (!mine.isEmpty() && mine == value) {
                c.add(QStringLiteral("artifact"), StepState::Passed,
                      QStringLiteral("the statement's subject '%1' has the artifact's %2")
                          .arg(s.toObject().value(QStringLiteral("name")).toString(), alg));
                return;
            }
        }
    }
    Step& s = c.add(QStringLiteral("artifact"), StepState::Failed,
                    QStringLiteral("no subject of the in-toto statement has the artifact's digest"));
    s.expected = QStringLiteral("sha256:") + given;
    s.found = listed.join(QStringLiteral(", "));
}

bool matches(const QString& value, const QString& exact, const QString& pattern, QString* error) {
    if (!exact.isEmpty())
        return value == exact;
    try {
        const std::regex re(pattern.toStdString(), std::regex::ECMAScript);
        return std::regex_search(value.toStdString(), re);
    } catch (const std::regex_error& e) {
        *error =
            QStringLiteral("invalid regular expression '%1': %2").arg(pattern, QString::fromLatin1(e.what()));
        return false;
    }
}

void stepIdentity(Ctx& c) {
    if (!c.leaf) {
        c.add(QStringLiteral("identity"), StepState::Skipped,
              QStringLiteral("key mode: the signer is the given public key"));
        return;
    }
    const Policy& p = c.policy;
    const CertificateInfo& cert = *c.out.certificate;
    if ((p.identity.isEmpty() && p.identityRegexp.isEmpty()) ||
        (p.issuer.isEmpty() && p.issuerRegexp.isEmpty())) {
        Step& s =
            c.add(QStringLiteral("identity"), StepState::Failed,
                  QStringLiteral(
                      "no identity policy: give the certificate identity and OIDC issuer (exact or regexp)"));
        s.found = QStringLiteral("%1 from %2").arg(cert.san, cert.oidcIssuer);
        return;
    }
    QString err;
    const bool sanOk = matches(cert.san, p.identity, p.identityRegexp, &err);
    const bool issuerOk = err.isEmpty() && matches(cert.oidcIssuer, p.issuer, p.issuerRegexp, &err);
    const QString wantSan =
        p.identity.isEmpty() ? QStringLiteral("~ /%1/").arg(p.identityRegexp) : p.identity;
    const QString wantIssuer = p.issuer.isEmpty() ? QStringLiteral("~ /%1/").arg(p.issuerRegexp) : p.issuer;
    if (!err.isEmpty()) {
        c.add(QStringLiteral("identity"), StepState::Failed, err);
        return;
    }
    if (sanOk && issuerOk) {
        c.add(QStringLiteral("identity"), StepState::Passed,
              QStringLiteral("%1 %2 issued by %3").arg(cert.sanKind, cert.san, cert.oidcIssuer));
        return;
    }
    Step& s = c.add(QStringLiteral("identity"), StepState::Failed,
                    !sanOk && !issuerOk
                        ? QStringLiteral("neither the certificate identity nor the OIDC issuer matches")
                    : !sanOk ? QStringLiteral("the certificate identity does not match")
                             : QStringLiteral("the OIDC issuer does not match"));
    s.expected = QStringLiteral("identity: %1\nissuer: %2").arg(wantSan, wantIssuer);
    s.found = QStringLiteral("identity: %1\nissuer: %2").arg(cert.san, cert.oidcIssuer);
}

} // namespace

// ---------------------------------------------------------------------------------------------

QString stepStateName(StepState s) {
    switch (s) {
    case StepState::Passed:
        return QStringLiteral("passed");
    case StepState::Failed:
        return QStringLiteral("failed");
    case StepState::Skipped:
        break;
    }
    return QStringLiteral("skipped");
}

QStringList Policy::cosignFlags() const {
    QStringList out;
    if (keyMode()) {
        out << QStringLiteral("--key") << QStringLiteral("<public key>");
    } else {
        if (!identity.isEmpty())
            out << QStringLiteral("--certificate-identity") << identity;
        else if (!identityRegexp.isEmpty())
            out << QStringLiteral("--certificate-identity-regexp") << identityRegexp;
        if (!issuer.isEmpty())
            out << QStringLiteral("--certificate-oidc-issuer") << issuer;
        else if (!issuerRegexp.isEmpty())
            out << QStringLiteral("--certificate-oidc-issuer-regexp") << issuerRegexp;
    }
    if (ignoreTlog)
        out << QStringLiteral("--insecure-ignore-tlog=true");
    return out;
}

struct PreparedKey {
    QByteArray pem; // what it was decoded from
    Pkey key;
    QByteArray spki; // its SubjectPublicKeyInfo, DER
};

void Policy::prepare() {
    preparedKey.reset();
    if (!keyMode())
        return;
    Pkey key = pkeyFromPem(publicKeyPem);
    if (!key || keyKind(key.get()) == KeyKind::Unknown) {
        ERR_clear_error();
        return; // verifyBundle reports the unreadable key
    }
    auto p = std::make_shared<PreparedKey>();
    p->pem = publicKeyPem;
    p->spki = spkiDer(key.get());
    p->key = std::move(key);
    preparedKey = std::move(p);
}

QJsonObject Policy::toJson() const {
    QJsonObject o;
    if (keyMode()) {
        o.insert(QStringLiteral("mode"), QStringLiteral("key"));
        if (preparedKey && preparedKey->pem == publicKeyPem) {
            o.insert(QStringLiteral("keySha256"), sha256Hex(preparedKey->spki));
        } else {
            Pkey key = pkeyFromPem(publicKeyPem);
            o.insert(QStringLiteral("keySha256"), key ? sha256Hex(spkiDer(key.get())) : QString());
        }
    } else {
        o.insert(QStringLiteral("mode"), QStringLiteral("identity"));
        if (!identity.isEmpty())
            o.insert(QStringLiteral("identity"), identity);
        if (!identityRegexp.isEmpty())
            o.insert(QStringLiteral("identityRegexp"), identityRegexp);
        if (!issuer.isEmpty())
            o.insert(QStringLiteral("issuer"), issuer);
        if (!issuerRegexp.isEmpty())
            o.insert(QStringLiteral("issuerRegexp"), issuerRegexp);
    }
    if (ignoreTlog)
        o.insert(QStringLiteral("ignoreTlog"), true);
    return o;
}

Result<Artifact> Artifact::fromDigest(const QString& text) {
    QString h = text.trimmed().toLower();
    if (h.startsWith(QLatin1String("sha256:")))
        h = h.mid(7);
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[0-9a-f]{64}")));
    if (!re.match(h).hasMatch())
        return makeError(QStringLiteral("'%1' is not a SHA-256 digest (sha256:<64 hex>)").arg(text), {}, 0,
                         QStringLiteral("--digest"));
    Artifact a;
    a.sha256 = QByteArray::fromHex(h.toLatin1());
    return a;
}

Artifact Artifact::fromBytes(QByteArray data) {
    Artifact a;
    a.sha256 = pb::sha256(data);
    a.bytes = std::move(data);
    return a;
}

std::optional<CertificateInfo> describeCertificate(const QByteArray& der) {
    Cert c = certFromDer(der);
    if (!c)
        return std::nullopt;
    return describe(c.get());
}

VerificationResult verifyBundle(const QByteArray& bundleJson, const QString& bundleFile,
                                const Artifact& artifact, const TrustedRoot& root, const Policy& policy) {
    auto bundle = parseBundle(bundleJson, bundleFile);
    if (!bundle) {
        VerificationResult out;
        out.bundleFile = bundleFile;
        out.artifactDigest = QStringLiteral("sha256:") + hex(artifact.sha256);
        out.steps.push_back(
            Step{QStringLiteral("bundle"), StepState::Failed, bundle.error().toString(), {}, {}});
        return out;
    }
    return verifyBundle(*bundle, bundleFile, artifact, root, policy);
}

namespace {

// Key mode: the bundle carries a key hint and the policy's key is the one that must have signed.
// False when the material does not fit (the step says why).
bool stepKeyMaterial(Ctx& c) {
    if (c.bundle.material != Bundle::Material::PublicKey) {
        c.add(QStringLiteral("verification material"), StepState::Failed,
              QStringLiteral("a public key was given, but the bundle carries a certificate"));
        return false;
    }
    if (const PreparedKey* prepared = c.policy.preparedKey.get();
        prepared && prepared->pem == c.policy.publicKeyPem) {
        EVP_PKEY_up_ref(prepared->key.get());
        c.key.reset(prepared->key.get());
        c.keySpki = prepared->spki;
    } else {
        c.key = pkeyFromPem(c.policy.publicKeyPem);
        if (!c.key || keyKind(c.key.get()) == KeyKind::Unknown) {
            ERR_clear_error();
            c.add(QStringLiteral("verification material"), StepState::Failed,
                  QStringLiteral("the given public key cannot be read"));
            return false;
        }
        c.keySpki = spkiDer(c.key.get());
    }
    c.add(QStringLiteral("verification material"), StepState::Passed,
          QStringLiteral("public key sha256:%1 (the bundle's hint is not trusted)")
              .arg(sha256Hex(c.keySpki).left(16)));
    return true;
}

// Certificate mode: the leaf certificate from the bundle (no self-signed root in its chain) holds
// the key that must have signed. False when the material does not fit (the step says why).
bool stepCertificateMaterial(Ctx& c) {
    if (c.bundle.material == Bundle::Material::PublicKey) {
        c.add(QStringLiteral("verification material"), StepState::Failed,
              QStringLiteral(
                  "the bundle is signed with a key (hint '%1'), not a certificate: verify it with --key")
                  .arg(c.bundle.publicKeyHint));
        return false;
    }
    c.leaf = certFromDer(c.bundle.leafDer());
    if (!c.leaf) {
        ERR_clear_error();
        c.add(QStringLiteral("verification material"), StepState::Failed,
              QStringLiteral("the signing certificate is not valid DER"));
        return false;
    }
    for (int i = 1; i < c.bundle.certificates.size(); ++i) {
        Cert extra = certFromDer(c.bundle.certificates.at(i));
        if (extra && X509_self_signed(extra.get(), 0) == 1) {
            c.add(QStringLiteral("verification material"), StepState::Failed,
                  QStringLiteral("the bundle's chain includes a self-signed root (certificate %1): roots "
                                 "come from the trusted root only")
                      .arg(i));
            return false;
        }
    }
    ERR_clear_error();
    c.key.reset(X509_get_pubkey(c.leaf.get()));
    unsigned char* spki = nullptr;
    const int spkiLen = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(c.leaf.get()), &spki);
    if (spkiLen > 0)
        c.keySpki = QByteArray(reinterpret_cast<const char*>(spki), spkiLen);
    OPENSSL_free(spki);
    c.out.certificate = describe(c.leaf.get());
    c.add(QStringLiteral("verification material"), StepState::Passed,
          QStringLiteral("certificate %1 for %2")
              .arg(c.out.certificate->serialHex.left(16), c.out.certificate->san));
    return true;
}

// The verified signing times (log entry timestamps and RFC 3161 timestamps), each once, in order.
void stepVerifiedTime(Ctx& c) {
    std::sort(c.verifiedTimes.begin(), c.verifiedTimes.end());
    c.verifiedTimes.erase(std::unique(c.verifiedTimes.begin(), c.verifiedTimes.end()), c.verifiedTimes.end());
    for (const qint64 t : c.verifiedTimes)
        c.out.verifiedTimesMs << t;
    if (c.verifiedTimes.empty()) {
        if (c.leaf)
            c.add(QStringLiteral("verified time"), StepState::Failed,
                  QStringLiteral("no verified signing time: neither a signed log entry timestamp nor a "
                                 "trusted RFC 3161 timestamp"));
        else
            c.add(QStringLiteral("verified time"), StepState::Skipped,
                  QStringLiteral("key mode: no signing time is needed"));
    } else {
        QStringList times;
        for (const qint64 t : c.verifiedTimes)
            times << formatMs(t);
        c.add(QStringLiteral("verified time"), StepState::Passed, times.join(QStringLiteral(", ")));
    }
}

} // namespace

VerificationResult verifyBundle(const Bundle& bundle, const QString& bundleFile, const Artifact& artifact,
                                const TrustedRoot& root, const Policy& policy) {
    VerificationResult out;
    out.bundleFile = bundleFile;
    out.mediaType = bundle.mediaType;
    out.artifactDigest = QStringLiteral("sha256:") + hex(artifact.sha256);
    out.trustedRootSha256 = hex(root.sha256);
    const std::shared_ptr<const TrustCache> cache = root.cache ? root.cache : buildTrustCache(root);
    Ctx c{bundle, artifact, root, policy, out, *cache, {}, {}, {}, {}, {}};

    static const char* materials[] = {"public key hint", "x509 certificate chain", "certificate"};
    c.add(QStringLiteral("bundle"), StepState::Passed,
          QStringLiteral("v0.%1, %2, %3, %4 log entr%5, %6 timestamp(s)")
              .arg(bundle.minorVersion)
              .arg(QLatin1String(materials[int(bundle.material)]),
                   bundle.isDsse ? QStringLiteral("DSSE envelope") : QStringLiteral("message signature"))
              .arg(bundle.tlogEntries.size())
              .arg(bundle.tlogEntries.size() == 1 ? QStringLiteral("y") : QStringLiteral("ies"))
              .arg(bundle.rfc3161Timestamps.size()));
    c.add(QStringLiteral("trusted root"), StepState::Passed,
          QStringLiteral("sha256:%1: %2 log(s), %3 CA(s), %4 CT log(s), %5 TSA(s)")
              .arg(hex(root.sha256).left(16))
              .arg(root.tlogs.size())
              .arg(root.certificateAuthorities.size())
              .arg(root.ctlogs.size())
              .arg(root.timestampAuthorities.size()));

    // The verification material must fit the policy: a certificate for an identity, a key hint for a key.
    if (!(policy.keyMode() ? stepKeyMaterial(c) : stepCertificateMaterial(c)))
        return out;

    stepTransparencyLog(c);
    stepTimestamps(c);
    stepVerifiedTime(c);
    stepCertificateChain(c);
    stepSct(c);
    stepSignature(c);
    stepArtifact(c);
    stepIdentity(c);

    out.verified = std::none_of(out.steps.begin(), out.steps.end(),
                                [](const Step& s) { return s.state == StepState::Failed; });
    ERR_clear_error();
    return out;
}

// ---------------------------------------------------------------------------------------------

const Step* VerificationResult::firstFailure() const {
    for (const Step& s : steps)
        if (s.state == StepState::Failed)
            return &s;
    return nullptr;
}

QString VerificationResult::summary() const {
    if (verified)
        return QStringLiteral("verified");
    const Step* f = firstFailure();
    if (!f)
        return QStringLiteral("not verified");
    // Every refusal shows what was expected and what was found, side by side (one line here).
    if (f->expected.isEmpty() && f->found.isEmpty())
        return QStringLiteral("%1: %2").arg(f->name, f->detail);
    auto oneLine = [](QString t) { return t.replace(QLatin1Char('\n'), QStringLiteral(", ")); };
    return QStringLiteral("%1: %2 (expected %3; found %4)")
        .arg(f->name, f->detail, oneLine(f->expected), oneLine(f->found));
}

QJsonObject VerificationResult::toJson() const {
    QJsonArray stepsJ;
    for (const Step& s : steps) {
        QJsonObject o{{QStringLiteral("name"), s.name},
                      {QStringLiteral("status"), stepStateName(s.state)},
                      {QStringLiteral("detail"), s.detail}};
        if (!s.expected.isEmpty() || !s.found.isEmpty()) {
            o.insert(QStringLiteral("expected"), s.expected);
            o.insert(QStringLiteral("found"), s.found);
        }
        stepsJ.append(o);
    }
    QJsonObject o{{QStringLiteral("verified"), verified},
                  {QStringLiteral("summary"), summary()},
                  {QStringLiteral("bundle"), bundleFile},
                  {QStringLiteral("mediaType"), mediaType},
                  {QStringLiteral("artifactDigest"), artifactDigest},
                  {QStringLiteral("trustedRootSha256"), trustedRootSha256},
                  {QStringLiteral("steps"), stepsJ}};
    if (certificate) {
        QJsonArray exts;
        for (const auto& [name, value] : certificate->extensions)
            exts.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), value}});
        o.insert(QStringLiteral("certificate"),
                 QJsonObject{{QStringLiteral("subject"), certificate->subject},
                             {QStringLiteral("issuer"), certificate->issuer},
                             {QStringLiteral("serial"), certificate->serialHex},
                             {QStringLiteral("san"), certificate->san},
                             {QStringLiteral("sanKind"), certificate->sanKind},
                             {QStringLiteral("oidcIssuer"), certificate->oidcIssuer},
                             {QStringLiteral("notBefore"), formatMs(certificate->notBeforeMs)},
                             {QStringLiteral("notAfter"), formatMs(certificate->notAfterMs)},
                             {QStringLiteral("extensions"), exts}});
    }
    QJsonArray entries;
    for (const LogEntryInfo& e : logEntries)
        entries.append(QJsonObject{{QStringLiteral("log"), e.logUrl},
                                   {QStringLiteral("kind"), e.kind},
                                   {QStringLiteral("version"), e.version},
                                   {QStringLiteral("logIndex"), QString::number(e.logIndex)},
                                   {QStringLiteral("integratedTime"),
                                    e.integratedTime ? formatMs(e.integratedTime * 1000) : QString()},
                                   {QStringLiteral("checkpointOrigin"), e.checkpointOrigin},
                                   {QStringLiteral("treeSize"), QString::number(e.treeSize)},
                                   {QStringLiteral("rootHash"), e.rootHashHex},
                                   {QStringLiteral("verified"), e.verified}});
    o.insert(QStringLiteral("logEntries"), entries);
    QJsonArray stamps;
    for (const TimestampInfo& t : timestamps)
        stamps.append(
            QJsonObject{{QStringLiteral("tsa"), t.tsaUri},
                        {QStringLiteral("genTime"), t.genTimeMs ? formatMs(t.genTimeMs) : QString()},
                        {QStringLiteral("verified"), t.verified},
                        {QStringLiteral("detail"), t.detail}});
    o.insert(QStringLiteral("timestamps"), stamps);
    QJsonArray times;
    for (const qint64 t : verifiedTimesMs)
        times.append(formatMs(t));
    o.insert(QStringLiteral("verifiedTimes"), times);
    if (!predicateType.isEmpty())
        o.insert(QStringLiteral("predicateType"), predicateType);
    if (!statement.isEmpty())
        o.insert(QStringLiteral("statement"), statement);
    return o;
}

VerificationResult VerificationResult::fromJson(const QJsonObject& o) {
    auto ms = [](const QJsonValue& v) { return parseRfc3339Ms(v.toString()).value_or(0); };
    VerificationResult r;
    r.verified = o.value(QStringLiteral("verified")).toBool();
    r.bundleFile = o.value(QStringLiteral("bundle")).toString();
    r.mediaType = o.value(QStringLiteral("mediaType")).toString();
    r.artifactDigest = o.value(QStringLiteral("artifactDigest")).toString();
    r.trustedRootSha256 = o.value(QStringLiteral("trustedRootSha256")).toString();
    for (const QJsonValue& v : o.value(QStringLiteral("steps")).toArray()) {
        const QJsonObject s = v.toObject();
        const QString st = s.value(QStringLiteral("status")).toString();
        r.steps.push_back(Step{s.value(QStringLiteral("name")).toString(),
                               st == QLatin1String("passed")   ? StepState::Passed
                               : st == QLatin1String("failed") ? StepState::Failed
                                                               : StepState::Skipped,
                               s.value(QStringLiteral("detail")).toString(),
                               s.value(QStringLiteral("expected")).toString(),
                               s.value(QStringLiteral("found")).toString()});
    }
    if (o.value(QStringLiteral("certificate")).isObject()) {
        const QJsonObject c = o.value(QStringLiteral("certificate")).toObject();
        CertificateInfo ci;
        ci.subject = c.value(QStringLiteral("subject")).toString();
        ci.issuer = c.value(QStringLiteral("issuer")).toString();
        ci.serialHex = c.value(QStringLiteral("serial")).toString();
        ci.san = c.value(QStringLiteral("san")).toString();
        ci.sanKind = c.value(QStringLiteral("sanKind")).toString();
        ci.oidcIssuer = c.value(QStringLiteral("oidcIssuer")).toString();
        ci.notBeforeMs = ms(c.value(QStringLiteral("notBefore")));
        ci.notAfterMs = ms(c.value(QStringLiteral("notAfter")));
        for (const QJsonValue& e : c.value(QStringLiteral("extensions")).toArray())
            ci.extensions.append({e.toObject().value(QStringLiteral("name")).toString(),
                                  e.toObject().value(QStringLiteral("value")).toString()});
        r.certificate = ci;
    }
    for (const QJsonValue& v : o.value(QStringLiteral("logEntries")).toArray()) {
        const QJsonObject e = v.toObject();
        LogEntryInfo li;
        li.logUrl = e.value(QStringLiteral("log")).toString();
        li.kind = e.value(QStringLiteral("kind")).toString();
        li.version = e.value(QStringLiteral("version")).toString();
        li.logIndex = e.value(QStringLiteral("logIndex")).toString().toLongLong();
        li.integratedTime = ms(e.value(QStringLiteral("integratedTime"))) / 1000;
        li.checkpointOrigin = e.value(QStringLiteral("checkpointOrigin")).toString();
        li.treeSize = e.value(QStringLiteral("treeSize")).toString().toLongLong();
        li.rootHashHex = e.value(QStringLiteral("rootHash")).toString();
        li.verified = e.value(QStringLiteral("verified")).toBool();
        r.logEntries.push_back(li);
    }
    for (const QJsonValue& v : o.value(QStringLiteral("timestamps")).toArray()) {
        const QJsonObject t = v.toObject();
        r.timestamps.push_back(TimestampInfo{
            t.value(QStringLiteral("tsa")).toString(), ms(t.value(QStringLiteral("genTime"))),
            t.value(QStringLiteral("verified")).toBool(), t.value(QStringLiteral("detail")).toString()});
    }
    for (const QJsonValue& v : o.value(QStringLiteral("verifiedTimes")).toArray())
        r.verifiedTimesMs << ms(v);
    r.predicateType = o.value(QStringLiteral("predicateType")).toString();
    r.statement = o.value(QStringLiteral("statement")).toObject();
    return r;
}

QString VerificationResult::toText() const {
    QString out =
        QStringLiteral("%1: %2\n")
            .arg(bundleFile, verified ? QStringLiteral("VERIFIED") : QStringLiteral("NOT VERIFIED"));
    for (const Step& s : steps) {
        const QString mark = s.state == StepState::Passed   ? QStringLiteral("[ok]  ")
                             : s.state == StepState::Failed ? QStringLiteral("[FAIL]")
                                                            : QStringLiteral("[skip]");
        out += QStringLiteral("  %1 %2: %3\n").arg(mark, s.name, s.detail);
        if (!s.expected.isEmpty() || !s.found.isEmpty()) {
            out += QStringLiteral("         expected: %1\n")
                       .arg(QString(s.expected)
                                .replace(QLatin1Char('\n'), QStringLiteral("\n                   ")));
            out += QStringLiteral("         found:    %1\n")
                       .arg(QString(s.found).replace(QLatin1Char('\n'),
                                                     QStringLiteral("\n                   ")));
        }
    }
    if (certificate)
        out += QStringLiteral("  certificate: %1 %2, issuer %3, valid %4 to %5\n")
                   .arg(certificate->sanKind, certificate->san, certificate->oidcIssuer,
                        formatMs(certificate->notBeforeMs), formatMs(certificate->notAfterMs));
    for (const LogEntryInfo& e : logEntries)
        out += QStringLiteral("  log entry: %1 #%2 (%3 %4)%5\n")
                   .arg(e.logUrl.isEmpty() ? QStringLiteral("unknown log") : e.logUrl)
                   .arg(e.logIndex)
                   .arg(e.kind, e.version,
                        e.integratedTime ? QStringLiteral(", integrated ") + formatMs(e.integratedTime * 1000)
                                         : QString());
    for (const TimestampInfo& t : timestamps)
        out += QStringLiteral("  timestamp: %1\n").arg(t.detail);
    return out;
}

} // namespace pb::sigstore
