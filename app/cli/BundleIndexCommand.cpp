// proofbench bundle index: write a digest index for a bundle (one payload per object, a platform digest) that
// 'records check' verifies
#include "bundle/TreeDigest.h"
#include "cli/BundleGenerateSupport.h"

namespace pb::cli {

static int bundleIndex(const QCommandLineParser& p) {
    const QString verb = QStringLiteral("bundle index");
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle directory"), verb);
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::BundleIndexRequest request;
    request.dir = p.positionalArguments().constFirst();
    Result<ops::BundleIndexOutcome> done = ops::bundleIndex(ops::Context(**db), request);
    if (!done)
        return fail(done.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(QJsonObject{{QStringLiteral("dir"), done->dir},
                              {QStringLiteral("platformDigest"), done->platformDigest},
                              {QStringLiteral("treeDigest"), QStringLiteral("sha256:") + done->treeDigest},
                              {QStringLiteral("deployer"), done->deployer},
                              {QStringLiteral("members"), done->members},
                              {QStringLiteral("files"), done->bundleFiles},
                              {QStringLiteral("generateReceipt"), done->generateReceipt},
                              {QStringLiteral("written"), QJsonArray::fromStringList(done->written)},
                              {QStringLiteral("receipt"), done->receiptSeq}});
    } else {
        out() << "indexed " << done->dir << ": " << done->members << " objects in " << done->bundleFiles
              << " files, platform digest " << done->platformDigest << ", "
              << pb::bundle::treeDigestText(done->treeDigest) << Qt::endl;
        if (done->generateReceipt > 0)
            out() << "inputs from the bundle.generate receipt #" << done->generateReceipt << Qt::endl;
        else
            out() << "no bundle.generate receipt in this database has this tree digest: the index's source "
                     "names the tree only"
                  << Qt::endl;
    }
    return kOk;
}

Command bundleIndexCommand() {
    Command p(
        QStringLiteral("bundle index"),
        QStringLiteral("write a digest index for a bundle (one payload per object, a platform digest) that "
                       "'records check' verifies"),
        QStringLiteral(
            "Write a ConfigHub-style digest index for a deployment bundle: one payload per rendered object "
            "and a "
            "platform digest over the inputs, the recipe and every object (digest-index/, checksums.txt). "
            "Check it with 'records check DIR'."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The deployment bundle."));
    p.handler = bundleIndex;
    return p;
}

} // namespace pb::cli
