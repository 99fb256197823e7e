// The order of catalog versions: what "previous", "newest", "changes since" and every default
// baseline follow. Never the order of import.
//
//  - Labels that are semantic versions (v0.9.0, 1.2.3-rc.1) are ordered by SemVer 2.0 precedence
//    among themselves (v0.9.0 < v0.10.0 < v1.0.0; a pre-release before its release).
//  - Other labels are ordered among themselves by their source date: the commit date when the
//    version came from Git (or a folder inside a clone), else a date in the label (2026-07-09);
//    labels with neither come first, in natural order (sample-2 < sample-10).
//  - The two sequences are merged by date: a semantic version takes the date of its own commit, or
//    when it has none, the latest date of the semantic versions before it. So five AICR catalogs
//    labelled v0.11.1, v0.14.0, 2026-07-09, 2026-08-09, 2026-08-19 order as written.
//  - Sample data (the catalog compiled into the app) comes before every real version, so "newest"
//    and every default baseline is a real catalog as soon as there is one.
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pb::catalog {

struct SemVer {
    qint64 major = 0, minor = 0, patch = 0;
    QStringList prerelease; // dot-separated identifiers after '-'; empty for a release
};

// "v1.2.3", "1.2.3", "v1.2.3-rc.1+build" (build metadata ignored); nullopt for anything else.
std::optional<SemVer> parseSemVer(const QString& label);
// <0, 0, >0 by SemVer precedence.
int compareSemVer(const SemVer& a, const SemVer& b);

// A date written in the label as YYYY-MM-DD (anywhere in it), as midnight UTC; invalid if none.
QDateTime labelDate(const QString& label);

struct VersionOrderKey {
    QString label;
    QDateTime commitDate; // invalid when the version has no commit
    bool sample = false;  // Proofbench's sample catalog
};

// How a version is placed: "semantic version", "commit date", "date in label" or "label".
QString orderBasis(const VersionOrderKey& key);

// Indices of `keys`, oldest first.
std::vector<int> versionOrder(const std::vector<VersionOrderKey>& keys);

} // namespace pb::catalog
