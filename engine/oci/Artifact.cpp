#include "oci/Artifact.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "evidence/Bundle.h"
#include "evidence/Sign.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <archive.h>
#include <archive_entry.h>

#include <memory>

namespace pb::oci {

namespace {

struct ArchiveDeleter {
    void operator()(archive* a) const { archive_write_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;
struct EntryDeleter {
    void operator()(archive_entry* e) const { archive_entry_free(e); }
};
using EntryPtr = std::unique_ptr<archive_entry, EntryDeleter>;

// The tar stream is hashed as it is produced and handed to the gzip writer (libarchive's raw format
// with a gzip filter), so one pass gives both the layer and the tar digest ORAS annotates.
struct TarSink {
    archive* gz = nullptr;
    Sha256 tarHash;
};

la_ssize_t tarWrite(archive*, void* user, const void* buf, size_t len) {
    auto* s = static_cast<TarSink*>(user);
    s->tarHash.add(static_cast<const char*>(buf), qsizetype(len));
    const la_ssize_t n = archive_write_data(s->gz, buf, len);
    return n < 0 ? -1 : la_ssize_t(len);
}

int tarOpen(archive*, void*) {
    return ARCHIVE_OK;
}
int tarClose(archive*, void*) {
    return ARCHIVE_OK;
}

QString randomName(const QString& prefix) {
    return prefix +
           QStringLiteral("%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
}

Result<Descriptor> hashFile(const QString& path) {
    QFile f(path);
    if (Status s = openInputFile(f); !s)
        return s.error();
    Sha256 h;
    QByteArray buf(1 << 20, Qt::Uninitialized);
    qint64 n = 0;
    while ((n = f.read(buf.data(), buf.size())) > 0)
        h.add(buf.constData(), qsizetype(n));
    Descriptor d;
    d.digest = QStringLiteral("sha256:") + QString::fromLatin1(h.result().toHex());
    d.size = f.size();
    return d;
}

QByteArray compact(const QJsonObject& o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

Result<Descriptor> putManifest(Layout& layout, const QJsonObject& manifest) {
    const QByteArray bytes = compact(manifest);
    Result<QString> dg = layout.writeBlob(bytes);
    if (!dg)
        return dg.error();
    Descriptor d;
    d.mediaType = QLatin1String(kImageManifest);
    d.digest = *dg;
    d.size = bytes.size();
    d.artifactType = manifest.value(QStringLiteral("artifactType")).toString();
    return d;
}

Result<Descriptor> emptyConfig(Layout& layout) {
    Result<QString> dg = layout.writeBlob("{}");
    if (!dg)
        return dg.error();
    Descriptor d;
    d.mediaType = QLatin1String(kEmptyConfig);
    d.digest = *dg;
    d.size = 2;
    return d;
}

// Moves a finished staging layout to its final place (replacing nothing that is already there).
QString settle(const QString& staged, const QString& finalDir) {
    if (QFileInfo::exists(finalDir)) {
        QDir(staged).removeRecursively();
        return finalDir;
    }
    QDir().mkpath(QFileInfo(finalDir).absolutePath());
    if (QDir().rename(staged, finalDir))
        return finalDir;
    return staged;
}

} // namespace

Result<Descriptor> packDirectory(const QString& dirArg, const QString& outFile, const QSet<QString>& exclude,
                                 int gzipLevel, const std::atomic_bool* cancel) {
    const QString dirIn = QFileInfo(dirArg).absoluteFilePath();
    const QDir dir(dirIn);
    if (!dir.exists())
        return makeError(QStringLiteral("no such directory"), dirIn);
    QStringList files, dirs;
    QDirIterator it(dirIn, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo fi = it.fileInfo();
        const QString rel = dir.relativeFilePath(fi.filePath());
        if (exclude.contains(rel))
            continue;
        if (fi.isSymLink() || (!fi.isFile() && !fi.isDir()))
            return makeError(
                QStringLiteral("only regular files and directories can be packed (symlink or special file)"),
                fi.filePath());
        (fi.isDir() ? dirs : files) << rel;
    }
    QStringList all = dirs + files;
    all.sort();

    ArchivePtr gz(archive_write_new());
    archive_write_set_format_raw(gz.get());
    archive_write_add_filter_gzip(gz.get());
    archive_write_set_filter_option(gz.get(), "gzip", "compression-level",
                                    QByteArray::number(qBound(1, gzipLevel, 9)).constData());
    archive_write_set_filter_option(gz.get(), "gzip", "timestamp", nullptr); // no mtime in the gzip header
    archive_write_set_bytes_in_last_block(gz.get(), 1);
    const QByteArray outName = QFile::encodeName(outFile);
    if (archive_write_open_filename(gz.get(), outName.constData()) != ARCHIVE_OK)
        return makeError(
            QStringLiteral("cannot create: %1").arg(QString::fromUtf8(archive_error_string(gz.get()))),
            outFile);
    EntryPtr rawEntry(archive_entry_new());
    archive_entry_set_pathname(rawEntry.get(), "layer.tar");
    archive_entry_set_filetype(rawEntry.get(), AE_IFREG);
    archive_entry_set_perm(rawEntry.get(), 0644);
    if (archive_write_header(gz.get(), rawEntry.get()) != ARCHIVE_OK)
        return makeError(QStringLiteral("cannot start the gzip stream: %1")
                             .arg(QString::fromUtf8(archive_error_string(gz.get()))),
                         outFile);

    TarSink sink;
    sink.gz = gz.get();
    ArchivePtr tar(archive_write_new());
    archive_write_set_format_pax_restricted(tar.get());
    archive_write_set_bytes_per_block(tar.get(), 10240);
    archive_write_set_bytes_in_last_block(tar.get(), 1);
    if (archive_write_open(tar.get(), &sink, &tarOpen, &tarWrite, &tarClose) != ARCHIVE_OK)
        return makeError(QStringLiteral("cannot start the tar stream"), outFile);
    auto fail = [&](const QString& why, const QString& where) -> Result<Descriptor> {
        tar.reset();
        gz.reset();
        QFile::remove(outFile);
        return makeError(why, where);
    };
    QByteArray buf(1 << 20, Qt::Uninitialized);
    for (const QString& rel : all) {
        if (cancel && cancel->load())
            return fail(QStringLiteral("packing cancelled"), dirIn);
        const QFileInfo fi(dir.filePath(rel));
        EntryPtr e(archive_entry_new());
        const QByteArray name = rel.toUtf8();
        archive_entry_set_pathname(e.get(), name.constData());
        archive_entry_set_mtime(e.get(), 0, 0);
        archive_entry_set_uid(e.get(), 0);
        archive_entry_set_gid(e.get(), 0);
        if (fi.isDir()) {
            archive_entry_set_filetype(e.get(), AE_IFDIR);
            archive_entry_set_perm(e.get(), 0755);
            if (archive_write_header(tar.get(), e.get()) != ARCHIVE_OK)
                return fail(QString::fromUtf8(archive_error_string(tar.get())), fi.filePath());
            continue;
        }
        QFile f(fi.filePath());
        if (Status s = openInputFile(f); !s)
            return fail(s.error().message, fi.filePath());
        archive_entry_set_filetype(e.get(), AE_IFREG);
        archive_entry_set_perm(e.get(), (fi.permissions() & QFile::ExeOwner) ? 0755 : 0644);
        archive_entry_set_size(e.get(), f.size());
        if (archive_write_header(tar.get(), e.get()) != ARCHIVE_OK)
            return fail(QString::fromUtf8(archive_error_string(tar.get())), fi.filePath());
        qint64 n = 0;
        while ((n = f.read(buf.data(), buf.size())) > 0)
            if (archive_write_data(tar.get(), buf.constData(), size_t(n)) < 0)
                return fail(QStringLiteral("cannot write the archive: %1")
                                .arg(QString::fromUtf8(archive_error_string(tar.get()))),
                            outFile);
    }
    if (archive_write_close(tar.get()) != ARCHIVE_OK)
        return fail(QStringLiteral("cannot finish the tar stream: %1")
                        .arg(QString::fromUtf8(archive_error_string(tar.get()))),
                    outFile);
    if (archive_write_close(gz.get()) != ARCHIVE_OK)
        return fail(QStringLiteral("cannot finish the gzip stream: %1")
                        .arg(QString::fromUtf8(archive_error_string(gz.get()))),
                    outFile);
    const QString tarDigest = QStringLiteral("sha256:") + QString::fromLatin1(sink.tarHash.result().toHex());
    Result<Descriptor> d = hashFile(outFile);
    if (!d)
        return d;
    d->mediaType = QLatin1String(kLayerTarGzip);
    d->annotations = QJsonObject{{QStringLiteral("org.opencontainers.image.title"), QStringLiteral(".")},
                                 {QStringLiteral("io.deis.oras.content.unpack"), QStringLiteral("true")},
                                 {QStringLiteral("io.deis.oras.content.digest"), tarDigest}};
    return d;
}

Result<Descriptor> stageArtifact(Layout& layout, const QString& layerFile, const Descriptor& layer,
                                 const QString& artifactType, const QJsonObject& annotations,
                                 const QString& refName) {
    if (Status s = layout.adoptBlob(layerFile, layer.digest); !s)
        return s.error();
    Result<Descriptor> cfg = emptyConfig(layout);
    if (!cfg)
        return cfg;
    QJsonObject manifest{{QStringLiteral("schemaVersion"), 2},
                         {QStringLiteral("mediaType"), QLatin1String(kImageManifest)},
                         {QStringLiteral("artifactType"), artifactType},
                         {QStringLiteral("config"), cfg->toJson()},
                         {QStringLiteral("layers"), QJsonArray{layer.toJson()}}};
    if (!annotations.isEmpty())
        manifest.insert(QStringLiteral("annotations"), annotations);
    Result<Descriptor> m = putManifest(layout, manifest);
    if (!m)
        return m;
    if (Status s = layout.addManifest(*m, refName); !s)
        return s.error();
    return m;
}

Result<Descriptor> stageReferrer(Layout& layout, const Descriptor& subject, const QByteArray& payload,
                                 const QString& payloadType) {
    Result<QString> pd = layout.writeBlob(payload);
    if (!pd)
        return pd.error();
    Result<Descriptor> cfg = emptyConfig(layout);
    if (!cfg)
        return cfg;
    Descriptor layer;
    layer.mediaType = payloadType;
    layer.digest = *pd;
    layer.size = payload.size();
    layer.annotations =
        QJsonObject{{QStringLiteral("org.opencontainers.image.title"), QStringLiteral("payload")}};
    Descriptor subj;
    subj.mediaType = subject.mediaType;
    subj.digest = subject.digest;
    subj.size = subject.size;
    const QJsonObject manifest{{QStringLiteral("schemaVersion"), 2},
                               {QStringLiteral("mediaType"), QLatin1String(kImageManifest)},
                               {QStringLiteral("artifactType"), payloadType},
                               {QStringLiteral("config"), cfg->toJson()},
                               {QStringLiteral("layers"), QJsonArray{layer.toJson()}},
                               {QStringLiteral("subject"), subj.toJson()}};
    return putManifest(layout, manifest);
}

QJsonObject EvidencePush::toJson() const {
    QJsonObject o = artifact.toJson();
    o.insert(QStringLiteral("signatureDigest"), signatureDigest);
    o.insert(QStringLiteral("pointer"), pointerPath);
    o.insert(QStringLiteral("layout"), layoutDir);
    return o;
}

QJsonObject EvidenceFetch::toJson() const {
    QJsonObject o = pull.toJson();
    o.insert(QStringLiteral("reference"), reference);
    o.insert(QStringLiteral("dir"), dir);
    o.insert(QStringLiteral("bundleDigest"), bundleDigest);
    o.insert(QStringLiteral("signaturePulled"), signaturePulled);
    return o;
}

namespace {

// An incomplete bundle (exit 3) may be pushed: its predicate says so, and signing one needs
// signIncomplete. An invalid one may not: the refusal names its failed steps.
Status checkPushable(const evidence::BundleCheck& check, const QString& sbDir) {
    if (check.exitCode != 2 && check.predicate)
        return {};
    QStringList failed;
    for (const evidence::CheckStep& s : check.steps)
        if (s.status == evidence::StepStatus::Failed)
            failed << QStringLiteral("%1: %2").arg(s.name, s.detail);
    return makeError(QStringLiteral("refused: the bundle fails its integrity checks (%1)")
                         .arg(failed.join(QStringLiteral("; "))),
                     sbDir);
}

// The evidence artifact's OCI annotations.
QJsonObject evidenceAnnotations(const evidence::Predicate& pred) {
    QString description = QStringLiteral("AICR recipe evidence summary bundle");
    return QJsonObject{
        {QStringLiteral("org.opencontainers.image.version"), pred.aicrVersion},
        {QStringLiteral("org.opencontainers.image.vendor"), QStringLiteral("NVIDIA")},
        {QStringLiteral("org.opencontainers.image.title"), QStringLiteral("AICR Recipe Evidence")},
        {QStringLiteral("org.opencontainers.image.source"), QStringLiteral("https://github.com/NVIDIA/aicr")},
        {QStringLiteral("org.opencontainers.image.description"),
         description + QStringLiteral(" (%1)").arg(pred.type)},
        // Reproducible: the attestation time, not the push time.
        {QStringLiteral("org.opencontainers.image.created"), pred.attestedAt}};
}

// The Sigstore bundle as a referrer of the pushed manifest; its digest.
Result<QString> pushSignatureReferrer(Client& client, Layout& layout, const Descriptor& manifest,
                                      const QByteArray& attestation, const Reference& to) {
    Result<Descriptor> ref = stageReferrer(layout, manifest, attestation, QLatin1String(kSigstoreBundle));
    if (!ref)
        return ref.error();
    Result<QByteArray> refBytes = layout.readBlob(ref->digest);
    if (!refBytes)
        return refBytes.error();
    for (const Descriptor& child : childrenOf(QJsonDocument::fromJson(*refBytes).object())) {
        Result<qint64> sent = client.pushBlob(to, child, layout.blobPath(child.digest));
        if (!sent)
            return sent.error();
    }
    Result<QString> rd = client.pushReferrer(to, *refBytes, QLatin1String(kImageManifest));
    if (!rd)
        return rd.error();
    if (Status s = layout.addManifest(*ref); !s)
        return s.error();
    return *rd;
}

// The pointer pins the manifest digest and names where it lives (AICR's schema 1.0), with the
// signer signEvidence's temporary pointer names; written under `root`, its path returned.
Result<QString> writeEvidencePointer(const evidence::Predicate& pred, const QString& manifestDigest,
                                     const Reference& to, const QString& tempPointer, const QString& root) {
    const evidence::Attestation* signedBy = nullptr;
    evidence::Pointer claimed;
    if (!tempPointer.isEmpty()) {
        if (Result<QByteArray> bytes =
                readFileLimited(tempPointer, limits::kSmallFile, QStringLiteral("pointer"));
            bytes)
            claimed = evidence::parsePointer(*bytes, tempPointer);
        signedBy = claimed.attestation();
    }
    const QString locator = to.registry + QLatin1Char('/') + to.repository +
                            (to.tag.isEmpty() ? QString() : QLatin1Char(':') + to.tag);
    QByteArray pointer = "attestations:\n  - attestedAt: " + pred.attestedAt.toUtf8() +
                         "\n    bundle:\n      digest: " + manifestDigest.toUtf8() +
                         "\n      oci: " + locator.toUtf8() + "\n      predicateType: " + pred.type.toUtf8() +
                         "\n";
    if (signedBy && signedBy->signer)
        pointer += "    signer:\n      identity: " + signedBy->signer->identity.toUtf8() +
                   "\n      issuer: " + signedBy->signer->issuer.toUtf8() + "\n";
    if (!pred.profileSelection.isEmpty())
        pointer += "profile: " + pred.profileSelection.toUtf8() + "\n";
    pointer += "recipe: " + pred.recipeName.toUtf8() + "\nschemaVersion: 1.0.0\n";
    const QString path =
        signedBy && signedBy->signer
            ? QStringLiteral("%1/%2/%3/sha256-%4.yaml")
                  .arg(root, pred.recipeName,
                       evidence::sourceSlug(signedBy->signer->issuer, signedBy->signer->identity),
                       manifestDigest.mid(7))
            : QStringLiteral("%1/%2.yaml").arg(root, pred.recipeName); // unsigned: flat pending pointer
    if (Status s = writeFileAtomically(path, pointer); !s)
        return s.error();
    return path;
}

} // namespace

Result<EvidencePush> pushEvidence(Client& client, const QString& bundleDirIn, const Reference& to,
                                  const EvidencePushOptions& options) {
    QString sbDir = QFileInfo(bundleDirIn).absoluteFilePath();
    if (QFileInfo::exists(sbDir + QStringLiteral("/summary-bundle/statement.intoto.json")))
        sbDir += QStringLiteral("/summary-bundle");
    Result<evidence::SummaryBundle> bundle = evidence::loadSummaryBundle(sbDir);
    if (!bundle)
        return bundle.error();
    QString tempPointer; // the manifest.json-pinned pointer signEvidence writes; replaced below
    if (options.key && !bundle->files.contains(QStringLiteral("attestation.intoto.jsonl"))) {
        Result<evidence::EvidenceSignature> sig =
            evidence::signEvidence(sbDir, options.key, options.pointerRoot, {}, options.signIncomplete);
        if (!sig)
            return sig.error();
        tempPointer = sig->pointerPath;
        bundle = evidence::loadSummaryBundle(sbDir);
        if (!bundle)
            return bundle.error();
    }
    const evidence::BundleCheck check = evidence::checkBundle(*bundle);
    if (Status st = checkPushable(check, sbDir); !st)
        return st.error();
    const evidence::Predicate& pred = *check.predicate;

    const QString cache = options.stagingDir.isEmpty() ? Layout::defaultCacheDir() : QString();
    const QString staging = options.stagingDir.isEmpty()
                                ? cache + QLatin1Char('/') + randomName(QStringLiteral("staging/evidence-"))
                                : options.stagingDir;
    Result<Layout> layout = Layout::open(staging);
    if (!layout)
        return layout.error();
    const QString layerTemp = layout->tempPath();
    Result<Descriptor> layer = packDirectory(sbDir, layerTemp, {QStringLiteral("attestation.intoto.jsonl")},
                                             9, client.options().cancel);
    if (!layer)
        return layer.error();
    QString description = QStringLiteral("AICR recipe evidence summary bundle");
    const QJsonObject annotations = evidenceAnnotations(pred);
    Result<Descriptor> manifest =
        stageArtifact(*layout, layerTemp, *layer, QLatin1String(kAicrArtifact), annotations, to.tag);
    if (!manifest)
        return manifest.error();

    EvidencePush out;
    Result<PushResult> pushed = client.push(*layout, *manifest, to);
    if (!pushed)
        return pushed.error();
    out.artifact = *pushed;

    const QByteArray attestation = bundle->files.value(QStringLiteral("attestation.intoto.jsonl"));
    if (!attestation.isEmpty()) {
        Result<QString> rd = pushSignatureReferrer(client, *layout, *manifest, attestation, to);
        if (!rd)
            return rd.error();
        out.signatureDigest = *rd;
    }

    const QString root =
        options.pointerRoot.isEmpty() ? QFileInfo(sbDir).absolutePath() : options.pointerRoot;
    Result<QString> pointerPath = writeEvidencePointer(pred, manifest->digest, to, tempPointer, root);
    if (!pointerPath)
        return pointerPath.error();
    out.pointerPath = *pointerPath;
    if (!tempPointer.isEmpty() && tempPointer != out.pointerPath)
        QFile::remove(tempPointer);

    out.layoutDir = layout->dir();
    if (options.stagingDir.isEmpty())
        out.layoutDir = settle(layout->dir(), cache + QStringLiteral("/evidence/") + manifest->digest.mid(7) +
                                                  QStringLiteral("/oci"));
    return out;
}

Result<EvidenceFetch> fetchEvidence(Client& client, const evidence::Pointer& pointer,
                                    const QString& cacheDir) {
    const evidence::Attestation* att = pointer.attestation();
    if (!att)
        return makeError(QStringLiteral("the pointer has no attestation"), pointer.file, 0,
                         QStringLiteral("attestations"));
    if (att->bundleOci.isEmpty())
        return makeError(QStringLiteral("the pointer names no OCI location"), pointer.file, 0,
                         QStringLiteral("attestations[0].bundle.oci"));
    if (!isValidDigest(att->bundleDigest))
        return makeError(
            QStringLiteral("'%1' is not a pinned sha256 digest; refusing to fetch an unpinned bundle")
                .arg(att->bundleDigest),
            pointer.file, 0, QStringLiteral("attestations[0].bundle.digest"));
    Result<Reference> ref = parseReference(att->bundleOci);
    if (!ref) {
        Error e = ref.error();
        e.file = pointer.file;
        e.field = QStringLiteral("attestations[0].bundle.oci");
        return e;
    }
    if (ref->isPinned() && ref->digest != att->bundleDigest)
        return makeError(
            QStringLiteral("bundle.oci pins %1 but bundle.digest is %2").arg(ref->digest, att->bundleDigest),
            pointer.file, 0, QStringLiteral("attestations[0].bundle"));
    const Reference pinned = ref->withDigest(att->bundleDigest);
    EvidenceFetch out;
    out.reference = pinned.toString();
    out.bundleDigest = att->bundleDigest;
    out.dir = cacheDir + QStringLiteral("/evidence/") + att->bundleDigest.mid(7);
    Result<Layout> layout = Layout::open(out.dir + QStringLiteral("/oci"));
    if (!layout)
        return layout.error();
    PullOptions po;
    po.referrers = true;
    po.referrerArtifactType = QLatin1String(kSigstoreBundle);
    Result<PullResult> pulled = client.pull(pinned, *layout, po);
    if (!pulled)
        return pulled.error();
    out.pull = *pulled;

    Result<evidence::SummaryBundle> bundle =
        evidence::loadOciLayout(layout->dir(), evidence::BundleContent::All);
    if (!bundle)
        return bundle.error();
    QMap<QString, QByteArray> files = bundle->files;
    for (const Descriptor& rd : pulled->referrers) {
        Result<QByteArray> mb = layout->readBlob(rd.digest);
        if (!mb)
            return mb.error();
        const QJsonArray layers =
            QJsonDocument::fromJson(*mb).object().value(QStringLiteral("layers")).toArray();
        if (layers.isEmpty())
            continue;
        Result<QByteArray> payload =
            layout->readBlob(layers.first().toObject().value(QStringLiteral("digest")).toString());
        if (!payload)
            return payload.error();
        files.insert(QStringLiteral("attestation.intoto.jsonl"), *payload);
        out.signaturePulled = true;
        break;
    }
    // Unpacked beside the layout, written whole before it replaces an older copy.
    const QString partial = out.dir + QLatin1Char('/') + randomName(QStringLiteral(".unpack-"));
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        if (Status s =
                writeFileAtomically(partial + QStringLiteral("/summary-bundle/") + it.key(), it.value());
            !s) {
            QDir(partial).removeRecursively();
            return s.error();
        }
    const QString target = out.dir + QStringLiteral("/summary-bundle");
    QDir(target).removeRecursively();
    if (!QDir().rename(partial + QStringLiteral("/summary-bundle"), target)) {
        QDir(partial).removeRecursively();
        return makeError(QStringLiteral("cannot move the unpacked bundle into place"), target);
    }
    QDir(partial).removeRecursively();
    return out;
}

Result<PushResult> pushDeploymentBundle(Client& client, const QString& dir, const Reference& to,
                                        const QString& stagingDir) {
    const bool temporary = stagingDir.isEmpty();
    const QString staging = temporary ? Layout::defaultCacheDir() + QLatin1Char('/') +
                                            randomName(QStringLiteral("staging/bundle-"))
                                      : stagingDir;
    Result<Layout> layout = Layout::open(staging);
    if (!layout)
        return layout.error();
    auto cleanup = [&] {
        if (temporary)
            QDir(staging).removeRecursively();
    };
    const QString layerTemp = layout->tempPath();
    Result<Descriptor> layer = packDirectory(dir, layerTemp, {}, 6, client.options().cancel);
    if (!layer) {
        cleanup();
        return layer.error();
    }
    const QJsonObject annotations{
        {QStringLiteral("org.opencontainers.image.title"), QStringLiteral("AICR deployment bundle")},
        {QStringLiteral("org.opencontainers.image.source"),
         QStringLiteral("https://github.com/NVIDIA/aicr")}};
    Result<Descriptor> manifest = stageArtifact(
        *layout, layerTemp, *layer, QLatin1String(kDeploymentBundleArtifact), annotations, to.tag);
    if (!manifest) {
        cleanup();
        return manifest.error();
    }
    Result<PushResult> pushed = client.push(*layout, *manifest, to);
    cleanup();
    return pushed;
}

} // namespace pb::oci
