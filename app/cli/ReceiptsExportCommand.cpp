// proofbench receipts export: all receipts and the chain head (signed with --key)
#include "cli/ReceiptsSupport.h"

namespace pb::cli {

static int receiptsExport(const QCommandLineParser& p) {
    if (p.value(QStringLiteral("format")) != QLatin1String("json"))
        return usage(QStringLiteral("--format json is the only export format"),
                     QStringLiteral("receipts export"));
    const QString outPath = p.value(QStringLiteral("out"));
    const bool signHead = p.isSet(QStringLiteral("key"));
    QString headPath = p.value(QStringLiteral("head")), bundlePath = p.value(QStringLiteral("head-bundle"));
    if (signHead && headPath.isEmpty())
        headPath = outPath.isEmpty() ? QString() : outPath + QStringLiteral(".head.json");
    if (signHead && bundlePath.isEmpty())
        bundlePath = outPath.isEmpty() ? QString() : outPath + QStringLiteral(".head.sigstore.json");
    if (signHead && (headPath.isEmpty() || bundlePath.isEmpty()))
        return usage(QStringLiteral("with --key give --out FILE, or --head FILE and --head-bundle FILE"),
                     QStringLiteral("receipts export"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::ReceiptsExportRequest req;
    req.outPath = outPath;
    sigstore::crypto::Pkey key;
    if (signHead) {
        auto k = privateKeyFrom(p);
        if (!k)
            return fail(k.error());
        key = std::move(*k);
        req.key = key.get();
        req.headPath = headPath;
        req.bundlePath = bundlePath;
        req.databaseName = db::Database::shortName(dbPath(p));
    }
    auto exported = ops::exportReceipts(ops::Context(**db), req);
    if (!exported)
        return fail(exported.error());
    if (outPath.isEmpty()) {
        out() << QString::fromUtf8(exported->bytes);
        out().flush();
    }
    if (exported->signedHead)
        err() << "signed receipts head #" << exported->head.seq << " " << exported->head.hash << " -> "
              << bundlePath << Qt::endl;
    return kOk;
}

Command receiptsExportCommand() {
    Command p(
        QStringLiteral("receipts export"),
        QStringLiteral("all receipts and the chain head (signed with --key)"),
        QStringLiteral(
            "Export every receipt and the chain head as JSON. With --key the head statement is signed (a "
            "sign-blob bundle); check it with: proofbench verify --key KEY.pub --bundle HEAD_BUNDLE HEAD."));
    addDb(p);
    addPassphraseEnv(p);
    addFormat(p, QStringLiteral("json"), QStringLiteral("json"));
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("Write the export to FILE (default: standard output)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"),
                 QStringLiteral("Also sign the chain head with this encrypted private key."),
                 QStringLiteral("KEY")});
    p.addOption({QStringLiteral("head"),
                 QStringLiteral("With --key: where to write the head statement (default: OUT.head.json)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("head-bundle"),
                 QStringLiteral("With --key: where to write the Sigstore bundle over the head statement "
                                "(default: OUT.head.sigstore.json)."),
                 QStringLiteral("FILE")});
    p.handler = receiptsExport;
    return p;
}

} // namespace pb::cli
