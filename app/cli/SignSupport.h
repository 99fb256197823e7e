// What the Sign commands share (one command per file: KeygenCommand.cpp, SignBlobCommand.cpp,
// AttestCommand.cpp, EvidenceSignCommand.cpp, BundleSignCommand.cpp, BundleVerifyCommand.cpp).
#pragma once

#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "db/Database.h"
#include "ops/Attest.h"
#include "ops/Keygen.h"
#include "ops/SealBundle.h"
#include "ops/SignBlob.h"
#include "ops/SignEvidence.h"
#include "ops/VerifyBundle.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace pb::cli {

// The --key file and its passphrase (from the terminal or --passphrase-env); the operation decrypts it.
inline Result<ops::SigningKey> signingKeyFrom(const QCommandLineParser& p) {
    auto pass =
        passphraseFrom(p, QStringLiteral("Passphrase for %1: ").arg(p.value(QStringLiteral("key"))), false);
    if (!pass)
        return pass.error();
    return ops::SigningKey{p.value(QStringLiteral("key")), std::move(*pass)};
}

} // namespace pb::cli
