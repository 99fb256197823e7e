// The tree digest: the one name Proofbench gives a deployment bundle's content, printed as
// "tree digest sha256:<hex>" by bundle generate, show, diff, index and sign, in their receipts and in
// the window. Defined once, here, so that anyone can recompute it with coreutils:
//
//   every regular file of the bundle, except what Proofbench adds after writing it (checksums.txt,
//   digest-index/ and attestation/), as one line "<sha256 of its bytes, hex>  <path>\n" (sha256sum's
//   format, the path '/'-separated and relative to the bundle), the lines in byte order of the UTF-8
//   paths; the tree digest is the SHA-256 of those lines.
//
//   cd BUNDLE; find . -type f ! -path ./checksums.txt ! -path './digest-index/*'
//     ! -path './attestation/*' | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum
//   (one command line; the tree digest is the hex before " -")
//
// (Before this definition, `bundle generate` and `bundle index` hashed path, mode, size and bytes,
// and `bundle show`/`diff` the listing with checksums.txt in it: two digests under one name.)
#pragma once

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace pb::bundle {

// False for the files the tree digest leaves out (checksums.txt, digest-index/..., attestation/...).
bool partOfTreeDigest(const QString& path);

// `files`: each file's path and the lowercase hex SHA-256 of its bytes, in any order; files
// partOfTreeDigest refuses are left out. Returns the digest's hex.
QString treeDigestOfFiles(std::vector<std::pair<QString, QString>> files);

// "tree digest sha256:<hex>", as every output names it.
inline QString treeDigestText(const QString& hex) {
    return QStringLiteral("tree digest sha256:") + hex;
}

} // namespace pb::bundle
