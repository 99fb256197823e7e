// proofbench keys list: the signing keys the database knows (public halves and fingerprints)
#include "cli/SignSupport.h"

#include <QJsonArray>

namespace pb::cli {

static int keysList(const QCommandLineParser& p) {
    // Reading needs no write rights: an auditor, or a read-only replica, lists them too.
    auto db = openDbAsIs(p);
    if (!db)
        return fail(db.error());
    auto keys = ops::publicKeys(ops::Context(**db));
    if (!keys)
        return fail(keys.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const store::StoredKey& k : *keys)
            a.append(QJsonObject{{QStringLiteral("fingerprint"), k.fingerprint},
                                 {QStringLiteral("label"), k.label},
                                 {QStringLiteral("createdAt"), k.createdAt.toString(Qt::ISODateWithMs)},
                                 {QStringLiteral("publicKeyPem"), k.publicPem}});
        printJson(a);
        return kOk;
    }
    if (keys->empty())
        out() << "no signing keys (proofbench keygen --out NAME)\n";
    for (const store::StoredKey& k : *keys)
        out() << k.fingerprint << "  " << k.label << "  " << k.createdAt.toString(Qt::ISODate) << "\n";
    out().flush();
    return kOk;
}

Command keysListCommand() {
    Command p(
        QStringLiteral("keys list"),
        QStringLiteral("the signing keys in the database: fingerprints and public keys"),
        QStringLiteral(
            "The signing keys the database knows: each key's fingerprint (sha256:<hex> of its DER public "
            "key, as keygen, verify and the window print it), label and creation time; --format json adds "
            "the public key "
            "PEM. Private keys never reach the database. Any role may list them."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = keysList;
    return p;
}

} // namespace pb::cli
