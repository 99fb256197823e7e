// The generated evidence of the health benchmarks (issue 5; issue 31 on PostgreSQL): N recipe
// coordinates of one catalog version and 20 pointers per coordinate from 50 community signers, with
// the allowlist that names them. Shared by bench_health (SQLite) and bench_postgres (both engines).
#pragma once

#include "core/Hash.h"
#include "db/Database.h"
#include "evidence/Evidence.h"

#include <QSqlQuery>
#include <QString>

#include <utility>
#include <vector>

namespace pb::bench {

inline int coordinateCount() {
    const int n = qEnvironmentVariableIntValue("PB_BENCH_COORDINATES");
    return n > 0 ? n : 10000;
}
inline constexpr int kPointersPerCoordinate = 20;
inline constexpr int kSigners = 50;

inline QString recipeName(int i) {
    static const char* const acc[] = {"h100", "h200", "gb200", "gb300", "b200"};
    static const char* const svc[] = {"eks", "gke", "aks", "oke"};
    return QStringLiteral("%1-%2-ubuntu-training-r%3")
        .arg(QLatin1String(acc[i % 5]), QLatin1String(svc[i % 4]))
        .arg(i, 5, 10, QLatin1Char('0'));
}

struct GeneratedEvidence {
    evidence::Allowlist allowlist;
    std::vector<std::pair<QString, QByteArray>> files; // pointer path -> YAML bytes
};

inline GeneratedEvidence generateEvidence(int coordinates) {
    QByteArray allowlist = "community:\n";
    std::vector<std::pair<QString, QString>> signers;
    for (int s = 0; s < kSigners; ++s) {
        const QString identity = QStringLiteral("signer%1@example.com").arg(s);
        const QString issuer = QStringLiteral("https://github.com/login/oauth");
        signers.emplace_back(issuer, identity);
        allowlist += "  - issuer: " + issuer.toUtf8() +
                     "\n    source: " + evidence::sourceSlug(issuer, identity).toUtf8() + "\n";
    }
    GeneratedEvidence out{*evidence::parseAllowlist(allowlist, QStringLiteral("allowlist.yaml")), {}};
    out.files.reserve(size_t(coordinates) * kPointersPerCoordinate);
    for (int i = 0; i < coordinates; ++i) {
        const QString recipe = recipeName(i);
        for (int k = 0; k < kPointersPerCoordinate; ++k) {
            const auto& [issuer, identity] = signers[static_cast<size_t>((i + k) % kSigners)];
            const QString digest = sha256Hex(QStringLiteral("%1/%2").arg(i).arg(k).toUtf8());
            const QByteArray yaml =
                "attestations:\n  - attestedAt: 2026-10-" + QByteArray::number(1 + k) +
                "T10:00:00Z\n    bundle:\n      digest: sha256:" + digest.toUtf8() +
                "\n      oci: ghcr.io/example/aicr-evidence:" + recipe.toUtf8() +
                "\n      predicateType: https://aicr.run/recipe-evidence/v3\n    signer:\n      identity: " +
                identity.toUtf8() + "\n      issuer: " + issuer.toUtf8() +
                "\n      rekorLogIndex: " + QByteArray::number(i * 100 + k) + "\nrecipe: " + recipe.toUtf8() +
                "\nschemaVersion: 1.0.0\n";
            out.files.emplace_back(recipe + QLatin1Char('/') + evidence::sourceSlug(issuer, identity) +
                                       QStringLiteral("/sha256-") + digest + QStringLiteral(".yaml"),
                                   yaml);
        }
    }
    return out;
}

// Every pointer parsed and checked against the allowlist: what an import does before it writes.
inline evidence::EvidenceTree parseEvidence(const GeneratedEvidence& g) {
    evidence::EvidenceTree tree;
    tree.allowlist = g.allowlist;
    tree.pointers.reserve(g.files.size());
    for (const auto& [path, bytes] : g.files) {
        evidence::Pointer p = evidence::parsePointer(bytes, path);
        evidence::checkPointer(p, &g.allowlist);
        tree.pointers.push_back(std::move(p));
    }
    return tree;
}

// A catalog version "scale" holding the coordinates' recipes (rows written directly); false on error.
inline bool insertCoordinates(db::Database& database, int coordinates) {
    QSqlDatabase& sql = database.sql();
    QSqlQuery q(sql);
    if (!sql.transaction() ||
        !q.exec(QStringLiteral(
            "INSERT INTO catalog_versions (label, source, content_digest, api_versions, imported_at) "
            "VALUES ('scale', 'generated', '', '', '2026-11-30T00:00:00Z')")) ||
        !q.exec(QStringLiteral("SELECT id FROM catalog_versions WHERE label = 'scale'")) || !q.next())
        return false;
    const qint64 cv = q.value(0).toLongLong();
    q.finish();
    q.prepare(QStringLiteral(
        "INSERT INTO recipes (catalog_version_id, name, leaf_overlay, service, accelerator, os, "
        "intent, platform, api_version, applied_overlays, component_count, canonical_yaml, digest) "
        "VALUES (?, ?, ?, ?, ?, 'ubuntu', 'training', 'kubeflow', 'aicr.run/v1', '[]', 10, ?, ?)"));
    for (int i = 0; i < coordinates; ++i) {
        const QString name = recipeName(i);
        q.addBindValue(cv);
        q.addBindValue(name);
        q.addBindValue(name);
        q.addBindValue(name.section(QLatin1Char('-'), 1, 1));
        q.addBindValue(name.section(QLatin1Char('-'), 0, 0));
        q.addBindValue(QByteArray("kind: RecipeResult\n"));
        q.addBindValue(sha256Hex(name.toUtf8()));
        if (!q.exec())
            return false;
    }
    return sql.commit();
}

} // namespace pb::bench
