// The Sigstore conformance cases of ../shared/data/sigstore for the GUI and model tests, on top of
// the shared ../SigstoreCases.h: a case's files and its MANIFEST.tsv row (verdict, identity, issuer,
// artifact digest), and the engine's verdict on it, computed directly (what the views must show).
#pragma once

#include "../SigstoreCases.h"
#include "TestUtil.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"

#include <optional>

namespace pbgui {

struct SigstoreCase {
    QString name, verdict, mode, identity, issuer, trustedRootKind, artifactDigest;

    QString dir() const { return pbtest::sharedData(QStringLiteral("sigstore/cases/") + name); }
    QString bundle() const { return dir() + QStringLiteral("/bundle.sigstore.json"); }
    QString artifact() const { return dir() + QStringLiteral("/artifact"); }
    QString trustedRoot() const { return dir() + QStringLiteral("/trusted_root.json"); }
    QString key() const { return dir() + QStringLiteral("/key.pub"); }
    bool passes() const { return verdict == QLatin1String("PASS"); }
};

// The MANIFEST.tsv row of `name` (read by the shared pbtest::sigstoreCases(), "-" read as empty);
// empty when the shared data or the case is absent.
inline std::optional<SigstoreCase> sigstoreCase(const QString& name) {
    auto dash = [](const QString& s) { return s == QLatin1String("-") ? QString() : s; };
    for (const pbtest::SigstoreCase& c : pbtest::sigstoreCases())
        if (c.name == name)
            return SigstoreCase{c.name,         c.verdict,     c.mode,  dash(c.identity),
                                dash(c.issuer), c.trustedRoot, c.digest};
    return std::nullopt;
}

using pbtest::readAll;

// The engine's result for a case, with its manifest identity (or `identity` instead) or its key.
inline pb::sigstore::VerificationResult verifyCase(const SigstoreCase& c, const QString& identity = {}) {
    pb::sigstore::Policy policy;
    if (c.mode == QLatin1String("key")) {
        policy.publicKeyPem = readAll(c.key());
    } else {
        policy.identity = identity.isEmpty() ? c.identity : identity;
        policy.issuer = c.issuer;
    }
    pb::Result<pb::sigstore::TrustedRoot> root = pb::sigstore::loadTrustedRoot(c.trustedRoot());
    if (!root)
        return {};
    return pb::sigstore::verifyBundle(readAll(c.bundle()), c.bundle(),
                                      pb::sigstore::Artifact::fromBytes(readAll(c.artifact())), *root,
                                      policy);
}

} // namespace pbgui
