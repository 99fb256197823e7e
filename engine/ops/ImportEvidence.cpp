#include "ops/ImportEvidence.h"
#include "core/Plural.h"

#include "core/Hash.h"
#include "db/Database.h"
#include "receipts/Kinds.h"

#include <QJsonObject>
#include <QSqlError>

namespace pb::ops {

std::vector<const evidence::Pointer*> ImportEvidenceOutcome::invalidPointers() const {
    std::vector<const evidence::Pointer*> out;
    for (const evidence::Pointer& p : tree.pointers)
        if (!p.isValid())
            out.push_back(&p);
    return out;
}

namespace {

receipts::ReceiptDraft importDraft(const evidence::EvidenceTree& tree,
                                   const store::EvidenceImportReport& report) {
    // The tree as it was read: sha256sum-style lines over every pointer's bytes.
    QByteArray list;
    qint64 total = 0;
    for (const evidence::Pointer& p : tree.pointers) {
        list += sha256Hex(p.raw).toLatin1() + "  " + p.file.toUtf8() + '\n';
        total += p.raw.size();
    }
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::EvidenceImport;
    d.parameters = QJsonObject{{QStringLiteral("pointers"), static_cast<int>(tree.pointers.size())}};
    if (report.invalid > 0)
        d.parameters.insert(QStringLiteral("invalid"), report.invalid);
    d.inputs.push_back(receipts::Artifact::digest(tree.root, sha256Hex(list), total));
    if (tree.allowlist) {
        d.parameters.insert(QStringLiteral("allowlist"), tree.allowlist->file);
        d.inputs.push_back(receipts::Artifact::file(tree.allowlist->file));
    }
    d.outputs.push_back(receipts::Artifact{QStringLiteral("evidence_pointers"), QString(), -1});
    d.result = report.invalid > 0 ? receipts::Outcome::Partial : receipts::Outcome::Ok;
    d.message = QStringLiteral("%1 added, %2 updated, %3 unchanged, %4 invalid")
                    .arg(report.added)
                    .arg(report.updated)
                    .arg(report.unchanged)
                    .arg(report.invalid);
    return d;
}

} // namespace

Result<ImportEvidenceOutcome> importEvidence(const Context& ctx, const ImportEvidenceRequest& request) {
    if (Status s = require(ctx, db::Capability::ImportEvidence); !s)
        return s.error();
    ImportEvidenceOutcome out;
    if (request.scanned) {
        out.tree = *request.scanned;
    } else {
        ctx.progress(0, 0, QStringLiteral("reading %1").arg(request.dir));
        Result<evidence::EvidenceTree> tree = evidence::scanEvidence(request.dir, request.allowlist);
        if (!tree)
            return tree.error();
        out.tree = std::move(*tree);
    }
    if (ctx.cancelled())
        return makeError(QStringLiteral("cancelled: nothing was imported"), request.dir);
    ctx.progress(0, static_cast<qint64>(out.tree.pointers.size()),
                 QStringLiteral("importing %1")
                     .arg(counted(qint64(out.tree.pointers.size()), QStringLiteral("pointer"),
                                  QStringLiteral("pointers"))));
    ReceiptTransaction tx(ctx);
    if (Status s = tx.started(); !s)
        return s.error();
    Result<store::EvidenceImportReport> report = store::EvidenceStore(ctx.db()).importTree(out.tree);
    if (!report)
        return report.error();
    out.report = *report;
    Result<receipts::Receipt> receipt =
        tx.commit(importDraft(out.tree, out.report), nullptr, QStringLiteral("evidence import"));
    if (!receipt)
        return receipt.error();
    out.receiptSeq = receipt->seq;
    ctx.progress(static_cast<qint64>(out.tree.pointers.size()), static_cast<qint64>(out.tree.pointers.size()),
                 QStringLiteral("imported"));
    return out;
}

Result<ImportEvidenceBundlesOutcome> importEvidenceBundles(const Context& ctx,
                                                           const ImportEvidenceBundlesRequest& request) {
    ctx.progress(0, 0, QStringLiteral("reading the bundles below %1").arg(request.dir));
    ReceiptTransaction tx(ctx);
    if (Status s = tx.started(); !s)
        return s.error();
    Result<store::BundleImportReport> report = store::EvidenceStore(ctx.db()).importBundleDir(
        request.dir, request.signature ? &*request.signature : nullptr);
    if (!report)
        return report.error();
    ImportEvidenceBundlesOutcome out;
    out.report = *report;
    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::EvidenceImportBundles;
    d.parameters =
        QJsonObject{{QStringLiteral("dir"), request.dir}, {QStringLiteral("bundles"), out.bundles()}};
    for (const QString& s : std::as_const(out.report.sources))
        d.inputs.push_back(receipts::Artifact::directory(s));
    d.outputs.push_back(receipts::Artifact{QStringLiteral("evidence_bundles"), QString(), -1});
    if (out.report.invalid > 0)
        d.parameters.insert(QStringLiteral("invalid"), out.report.invalid);
    if (out.report.incomplete > 0)
        d.parameters.insert(QStringLiteral("incomplete"), out.report.incomplete);
    d.result = out.report.invalid > 0 || out.report.incomplete > 0 ? receipts::Outcome::Partial
                                                                   : receipts::Outcome::Ok;
    d.message = QStringLiteral("%1 read, %2 invalid, %3 incomplete")
                    .arg(counted(qint64(out.bundles()), QStringLiteral("bundle"), QStringLiteral("bundles")))
                    .arg(out.report.invalid)
                    .arg(out.report.incomplete);
    Result<receipts::Receipt> receipt = tx.commit(d, nullptr, QStringLiteral("bundle import"));
    if (!receipt)
        return receipt.error();
    out.receiptSeq = receipt->seq;
    return out;
}

} // namespace pb::ops
