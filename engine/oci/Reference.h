// OCI references as users write them: `registry/repo:tag`, `registry/repo@sha256:<hex>`, both, an
// optional `oci://` prefix, and Docker Hub's short forms (`ubuntu` -> docker.io/library/ubuntu:latest).
#pragma once

#include "core/Result.h"

#include <QString>

namespace pb::oci {

struct Reference {
    QString registry;   // "ghcr.io", "127.0.0.1:5000", "docker.io"
    QString repository; // "owner/aicr-evidence"
    QString tag;        // empty when none was written (and a digest was)
    QString digest;     // "sha256:<64 hex>", empty when unpinned

    bool isPinned() const { return !digest.isEmpty(); }
    // What a manifest request names: the digest when pinned, else the tag.
    QString reference() const { return digest.isEmpty() ? tag : digest; }
    // The host the Distribution API lives on (Docker Hub's API is not on docker.io itself).
    QString apiHost() const;
    // Canonical text: registry/repository[:tag][@digest].
    QString toString() const;
    // The same repository, pinned to `digest` (tag dropped).
    Reference withDigest(const QString& digest) const;
};

// Parses a reference; the error names the reference and the part that is wrong. A reference with
// neither tag nor digest gets the tag "latest".
Result<Reference> parseReference(const QString& text);

// "sha256:<64 lowercase hex>".
bool isValidDigest(const QString& digest);

// True for 127.0.0.0/8, ::1 and "localhost" (with or without a port).
bool isLoopbackRegistry(const QString& registry);

} // namespace pb::oci
