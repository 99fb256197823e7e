#include "tuf/Update.h"

#include "core/Files.h"
#include "sigstore/TrustedRoot.h"

#include <QFile>

namespace pb::tuf {

Result<QByteArray> readAnchor(const QString& path) {
    if (path.startsWith(QLatin1String(":/"))) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("the shipped anchor is missing from this build"), path);
        return f.read(kRootMaxLength + 1);
    }
    return readFileLimited(path, kRootMaxLength, QStringLiteral("anchor root"));
}

namespace {

// The step that says the update restarts from the anchor as asked.
ClientStep fromAnchorNote(const std::optional<TrustedState>& trusted) {
    return ClientStep{
        QStringLiteral("trusted"), QString(),
        trusted
            ? QStringLiteral("started again from the anchor as asked: the trusted state (%1) is ignored, and "
                             "replaced by this update's if it succeeds")
                  .arg(trusted->summary())
            : QStringLiteral(
                  "started from the anchor as asked (no trusted state was stored for this anchor)"),
        true};
}

QString startTextOf(const UpdateRequest& request) {
    if (request.fromAnchor)
        return request.trusted
                   ? QStringLiteral("started again from the anchor as asked (--from-anchor), ignoring the "
                                    "trusted state (%1)")
                         .arg(request.trusted->summary())
                   : QStringLiteral(
                         "started from the anchor as asked (--from-anchor); no trusted state was stored");
    if (request.trusted)
        return QStringLiteral("continued from the trusted state (%1)").arg(request.trusted->summary());
    return QStringLiteral("first update from this anchor: started from it");
}

} // namespace

UpdateResult runUpdate(const UpdateRequest& request, const std::function<void(const ClientStep&)>& step,
                       const std::atomic_bool* cancel) {
    ClientRequest creq;
    creq.dir = request.repository;
    creq.anchor = request.anchor;
    creq.anchorName = request.anchorName;
    creq.at = request.at;
    creq.targetName = request.targetName;
    if (request.trusted && !request.fromAnchor)
        creq.trusted = request.trusted;
    std::optional<ClientStep> startNote;
    if (request.fromAnchor) {
        startNote = fromAnchorNote(request.trusted);
        step(*startNote);
    }
    UpdateResult out;
    out.verification = runClient(creq, step, cancel);
    ClientResult& v = out.verification;
    if (startNote)
        v.steps.insert(v.steps.begin(), *startNote);
    out.startText = startTextOf(request);

    // The target must also be a Sigstore trusted root this app can use.
    if (v.ok) {
        if (auto parsed = sigstore::parseTrustedRoot(v.targetBytes, v.targetFile); !parsed) {
            v.ok = false;
            v.failedRole = QStringLiteral("target");
            v.error = parsed.error();
            v.steps.push_back(
                ClientStep{QStringLiteral("target"), v.targetFile, parsed.error().toString(), false});
            step(v.steps.back());
        }
    }
    return out;
}

} // namespace pb::tuf
