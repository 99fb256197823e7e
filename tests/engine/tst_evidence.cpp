// Evidence pointers and the allowlist: AICR's layouts, rules and slugs, on real pointers and on
// small fixtures of our own that break one rule each.
#include "TestUtil.h"
#include "evidence/Evidence.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using namespace pb::evidence;

namespace {

const char* const kAllowlist = R"(schemaVersion: 1.0.0
firstParty:
  - label: uat
    issuer: https://token.actions.githubusercontent.com
    identityPattern: '^https://github\.com/NVIDIA/aicr/\.github/workflows/uat-aws\.yaml@refs/heads/.+$'
community:
  - issuer: https://github.com/login/oauth
    source: 7c4c0edc8c765a95a0f3afdb3bbb8e91
    label: yuan
partner: []
)";

QByteArray pointer(const QString& recipe, const QString& digest, const QString& predicate,
                   const QString& issuer, const QString& identity, const QString& profile = {}) {
    QByteArray y =
        "attestations:\n  - attestedAt: 2026-09-20T00:01:05Z\n    bundle:\n      digest: " + digest.toUtf8() +
        "\n      oci: ghcr.io/example/aicr-evidence:" + recipe.toUtf8() +
        "\n      predicateType: " + predicate.toUtf8() + "\n";
    if (!issuer.isEmpty())
        y += "    signer:\n      identity: " + identity.toUtf8() + "\n      issuer: " + issuer.toUtf8() +
             "\n      rekorLogIndex: 42\n";
    if (!profile.isEmpty())
        y += "profile: " + profile.toUtf8() + "\n";
    y += "recipe: " + recipe.toUtf8() + "\nschemaVersion: 1.0.0\n";
    return y;
}

const QString kDigest =
    QStringLiteral("sha256:65f26ae0ea39dce14de4acaa88e5d131180848ae278d287edac6650aab5dfd35");
const QString kOauth = QStringLiteral("https://github.com/login/oauth");
const QString kYuan = QStringLiteral("yuanchen97@gmail.com");
const QString kYuanSlug = QStringLiteral("7c4c0edc8c765a95a0f3afdb3bbb8e91");
const QString kV1 = QStringLiteral("https://aicr.run/recipe-evidence/v1");
const QString kV2 = QStringLiteral("https://aicr.run/recipe-evidence/v2");
const QString kV3 = QStringLiteral("https://aicr.run/recipe-evidence/v3");

QString perSourcePath(const QString& recipe, const QString& slug) {
    return recipe + QLatin1Char('/') + slug + QStringLiteral("/sha256-") + kDigest.mid(7) +
           QStringLiteral(".yaml");
}

Allowlist allowlist() {
    Result<Allowlist> a = parseAllowlist(kAllowlist, QStringLiteral("allowlist.yaml"));
    if (!a)
        qFatal("%s", qPrintable(a.error().toString()));
    return *std::move(a);
}

bool hasProblem(const Pointer& p, const QString& text) {
    for (const QString& s : p.problems)
        if (s.contains(text))
            return true;
    return false;
}

} // namespace

class TestEvidence : public QObject {
    Q_OBJECT
  private slots:
    // Published pairs (AICR's source.go tests and real evidence directories).
    void sourceSlugs_data() {
        QTest::addColumn<QString>("issuer");
        QTest::addColumn<QString>("identity");
        QTest::addColumn<QString>("slug");
        QTest::addRow("github actions")
            << "https://token.actions.githubusercontent.com"
            << "https://github.com/yuanchen8911/aicr/.github/workflows/evidence-publish.yaml"
               "@refs/heads/evidence/aks-h100-training-inference"
            << "5bf9e82f0e90a11528ac85f4bcb866c8";
        QTest::addRow("oauth email") << "https://github.com/login/oauth"
                                     << "yuanchen97@gmail.com"
                                     << "7c4c0edc8c765a95a0f3afdb3bbb8e91";
        QTest::addRow("noreply 1") << "https://github.com/login/oauth"
                                   << "10677309+atif1996@users.noreply.github.com"
                                   << "728b071aed7124418b1fa9c7f0521e24";
        QTest::addRow("noreply 2") << "https://github.com/login/oauth"
                                   << "1082845+mikecook@users.noreply.github.com"
                                   << "2e85f8702c6214cafcc0ed714d928720";
    }
    void sourceSlugs() {
        QFETCH(QString, issuer);
        QFETCH(QString, identity);
        QFETCH(QString, slug);
        QCOMPARE(sourceSlug(issuer, identity), slug);
    }

    void realCatalogEvidenceTree() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19/recipes/evidence"));
        Result<EvidenceTree> tree =
            scanEvidence(pbtest::realCatalog(QStringLiteral("2026-08-19")) + QStringLiteral("/evidence"));
        QVERIFY2(tree.ok(), qPrintable(tree.ok() ? QString() : tree.error().toString()));
        QVERIFY(tree->allowlist);
        QCOMPARE(tree->allowlist->entries.size(), size_t(6)); // 4 first-party patterns, 2 community slugs
        QVERIFY(tree->pointers.size() >= 5);
        for (const Pointer& p : tree->pointers) {
            QCOMPARE(p.layout, PointerLayout::PerSource);
            QVERIFY2(p.isValid(),
                     qPrintable(p.file + QStringLiteral(": ") + p.problems.join(QStringLiteral("; "))));
            QCOMPARE(p.claimedSlug(), p.dirSource); // every slug recomputed and matched
            QCOMPARE(p.signerClass, std::optional<SignerClass>(SignerClass::Community));
            QVERIFY(p.attestation()->attestedAt.isValid());
        }
    }

    void realVariants() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/samples/evidence-variants"));
        const QString base = pbtest::sharedData(QStringLiteral("aicr/samples/evidence-variants"));
        // Legacy flat signed pointer (June 2026, aicr.nvidia.com predicate).
        Result<EvidenceTree> legacy = scanEvidence(base + QStringLiteral("/NVIDIA@de5edd64"));
        QVERIFY(legacy.ok());
        QCOMPARE(legacy->pointers.size(), size_t(1));
        const Pointer& l = legacy->pointers.front();
        QCOMPARE(l.layout, PointerLayout::LegacyFlat);
        QCOMPARE(predicateVersionOf(l.attestation()->predicateType), PredicateVersion::LegacyV1);
        QVERIFY2(l.isValid(), qPrintable(l.problems.join(QStringLiteral("; "))));
        // Flat, unsigned, pending pointer of a profiled recipe (v3).
        Result<EvidenceTree> pending = scanEvidence(base + QStringLiteral("/yuanchen8911@14a280c3"));
        QVERIFY(pending.ok());
        const Pointer& f = pending->pointers.front();
        QCOMPARE(f.layout, PointerLayout::FlatPending);
        QVERIFY(!f.isSigned());
        QCOMPARE(f.profile, QStringLiteral("gpuStack=azure-managed"));
        QVERIFY2(f.isValid(), qPrintable(f.problems.join(QStringLiteral("; "))));
        // Signed profiled v3 pointer and the newer allowlist with labels.
        Result<EvidenceTree> signedV3 =
            scanEvidence(base + QStringLiteral("/yuanchen8911@c5a8dc1f"),
                         base + QStringLiteral("/yuanchen8911@4ecde2d6/recipes/evidence/allowlist.yaml"));
        QVERIFY2(signedV3.ok(), qPrintable(signedV3.ok() ? QString() : signedV3.error().toString()));
        const Pointer& s = signedV3->pointers.front();
        QCOMPARE(s.layout, PointerLayout::PerSource);
        QVERIFY2(s.isValid(), qPrintable(s.problems.join(QStringLiteral("; "))));
        const AllowlistEntry* atif =
            signedV3->allowlist->match(kOauth, QStringLiteral("10677309+atif1996@users.noreply.github.com"));
        QVERIFY(atif);
        QCOMPARE(atif->label, QStringLiteral("atif1996"));
        QCOMPARE(atif->cls, SignerClass::Community);
        // A first-party identity matches its anchored pattern.
        QCOMPARE(signedV3->allowlist->classify(
                     QStringLiteral("https://token.actions.githubusercontent.com"),
                     QStringLiteral(
                         "https://github.com/NVIDIA/aicr/.github/workflows/uat-gcp.yaml@refs/heads/main")),
                 SignerClass::FirstParty);
        QCOMPARE(signedV3->allowlist->classify(kOauth, QStringLiteral("someone@example.com")),
                 SignerClass::Reported);
    }

    void rulesBrokenOneAtATime_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem"); // empty: valid
        const QString rec = QStringLiteral("h100-eks-ubuntu-training");
        QTest::addRow("valid per-source")
            << perSourcePath(rec, kYuanSlug) << pointer(rec, kDigest, kV1, kOauth, kYuan) << "";
        QTest::addRow("wrong source directory")
            << perSourcePath(rec, QStringLiteral("0123456789abcdef0123456789abcdef"))
            << pointer(rec, kDigest, kV1, kOauth, kYuan) << "does not match the signer's slug " + kYuanSlug;
        QTest::addRow("recipe differs from directory")
            << perSourcePath(rec, kYuanSlug)
            << pointer(QStringLiteral("gb200-eks-ubuntu-training"), kDigest, kV1, kOauth, kYuan)
            << "lies under";
        QTest::addRow("unsigned under a source")
            << perSourcePath(rec, kYuanSlug) << pointer(rec, kDigest, kV1, {}, {}) << "must be signed";
        QTest::addRow("file not named by digest")
            << rec + QLatin1Char('/') + kYuanSlug + QStringLiteral("/pointer.yaml")
            << pointer(rec, kDigest, kV1, kOauth, kYuan) << "file name should be sha256-";
        QTest::addRow("v1 with profile") << perSourcePath(rec + QStringLiteral("-gpustack-x"), kYuanSlug)
                                         << pointer(rec + QStringLiteral("-gpustack-x"), kDigest, kV1, kOauth,
                                                    kYuan, QStringLiteral("gpuStack=x"))
                                         << "must not carry a profile";
        QTest::addRow("v2 without profile")
            << perSourcePath(rec, kYuanSlug) << pointer(rec, kDigest, kV2, kOauth, kYuan)
            << "requires a profile";
        QTest::addRow("profile suffix missing")
            << perSourcePath(rec, kYuanSlug)
            << pointer(rec, kDigest, kV3, kOauth, kYuan, QStringLiteral("gpuStack=x"))
            << "does not end with '-gpustack-x'";
        QTest::addRow("unknown predicate")
            << perSourcePath(rec, kYuanSlug)
            << pointer(rec, kDigest, QStringLiteral("https://example.com/v9"), kOauth, kYuan)
            << "unknown type";
        QTest::addRow("digest without sha256")
            << rec + QLatin1Char('/') + kYuanSlug + QStringLiteral("/md5-abc.yaml")
            << pointer(rec, QStringLiteral("md5:abc"), kV1, kOauth, kYuan) << "must start with sha256:";
        QByteArray two = pointer(rec, kDigest, kV1, kOauth, kYuan);
        two.replace("recipe:", "  - attestedAt: 2026-09-21T00:00:00Z\n    bundle: {digest: sha256:00, "
                               "predicateType: x}\nrecipe:");
        QTest::addRow("two attestations") << perSourcePath(rec, kYuanSlug) << two << "schema 2.0";
        QByteArray schema = pointer(rec, kDigest, kV1, kOauth, kYuan);
        schema.replace("schemaVersion: 1.0.0", "schemaVersion: 2.1.0");
        QTest::addRow("schema 2.1") << perSourcePath(rec, kYuanSlug) << schema << "is not supported";
        const QString uat =
            QStringLiteral("https://github.com/NVIDIA/aicr/.github/workflows/uat-aws.yaml@refs/heads/main");
        const QString actions = QStringLiteral("https://token.actions.githubusercontent.com");
        QTest::addRow("first party commits a pointer")
            << perSourcePath(rec, sourceSlug(actions, uat)) << pointer(rec, kDigest, kV3, actions, uat)
            << "must not commit";
        QTest::addRow("signer not listed")
            << perSourcePath(rec, sourceSlug(kOauth, QStringLiteral("x@example.com")))
            << pointer(rec, kDigest, kV3, kOauth, QStringLiteral("x@example.com")) << "not in the allowlist";
        QTest::addRow("valid pending")
            << rec + QStringLiteral(".yaml") << pointer(rec, kDigest, kV3, {}, {}) << "";
        QTest::addRow("signed flat pointer")
            << rec + QStringLiteral(".yaml") << pointer(rec, kDigest, kV3, kOauth, kYuan)
            << "must be unsigned";
        QTest::addRow("pending misnamed")
            << QStringLiteral("other.yaml") << pointer(rec, kDigest, kV3, {}, {})
            << "must be named " + rec + ".yaml";
        QTest::addRow("too deep") << QStringLiteral("a/b/c/d.yaml") << pointer(rec, kDigest, kV3, {}, {})
                                  << "exactly two levels deep";
        QTest::addRow("not YAML") << perSourcePath(rec, kYuanSlug) << QByteArray("recipe: [unclosed\n")
                                  << "malformed YAML";
        QTest::addRow("not a pointer")
            << perSourcePath(rec, kYuanSlug) << QByteArray("- a\n- b\n") << "not a pointer";
    }
    void rulesBrokenOneAtATime() {
        QFETCH(QString, path);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        const Allowlist a = allowlist();
        Pointer p = parsePointer(bytes, path);
        checkPointer(p, &a);
        if (problem.isEmpty()) {
            QVERIFY2(p.isValid(), qPrintable(p.problems.join(QStringLiteral("; "))));
        } else {
            QVERIFY2(hasProblem(p, problem),
                     qPrintable(QStringLiteral("expected '%1', got: %2")
                                    .arg(problem, p.problems.join(QStringLiteral("; ")))));
        }
    }

    void scanKeepsInvalidPointers() {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("recipes/evidence"));
        auto write = [&](const QString& rel, const QByteArray& bytes) {
            QDir().mkpath(QFileInfo(root + QLatin1Char('/') + rel).absolutePath());
            QFile f(root + QLatin1Char('/') + rel);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(QStringLiteral("allowlist.yaml"), kAllowlist);
        const QString rec = QStringLiteral("h100-eks-ubuntu-training");
        write(perSourcePath(rec, kYuanSlug), pointer(rec, kDigest, kV1, kOauth, kYuan));
        write(perSourcePath(rec, QStringLiteral("ffffffffffffffffffffffffffffffff")),
              pointer(rec, kDigest, kV1, kOauth, kYuan));
        write(QStringLiteral("broken.yaml"), "::: not yaml [");
        Result<EvidenceTree> tree = scanEvidence(tmp.path());
        QVERIFY(tree.ok());
        QCOMPARE(tree->pointers.size(), size_t(3)); // nothing dropped
        int valid = 0;
        for (const Pointer& p : tree->pointers)
            valid += p.isValid() ? 1 : 0;
        QCOMPARE(valid, 1);
    }

    void allowlistErrors_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::addRow("identity is PII")
            << QByteArray("community:\n  - issuer: x\n    identity: a@b.c\n") << "may not name an identity";
        QTest::addRow("both keys") << QByteArray(
                                          "community:\n  - issuer: x\n    source: "
                                          "7c4c0edc8c765a95a0f3afdb3bbb8e91\n    identityPattern: '^a$'\n")
                                   << "exactly one of source or identityPattern";
        QTest::addRow("unanchored") << QByteArray("firstParty:\n  - issuer: x\n    identityPattern: 'a.*'\n")
                                    << "anchored";
        QTest::addRow("short slug") << QByteArray("community:\n  - issuer: x\n    source: abc\n")
                                    << "32 lower-case hex";
        QTest::addRow("no issuer") << QByteArray("partner:\n  - source: 7c4c0edc8c765a95a0f3afdb3bbb8e91\n")
                                   << "issuer is required";
        QTest::addRow("overlap")
            << QByteArray("community:\n  - {issuer: x, source: 7c4c0edc8c765a95a0f3afdb3bbb8e91}\n"
                          "partner:\n  - {issuer: x, source: 7c4c0edc8c765a95a0f3afdb3bbb8e91}\n")
            << "listed twice";
    }
    void allowlistErrors() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        Result<Allowlist> a = parseAllowlist(bytes, QStringLiteral("allowlist.yaml"));
        QVERIFY(!a.ok());
        QVERIFY2(a.error().message.contains(reason), qPrintable(a.error().toString()));
        QCOMPARE(a.error().file, QStringLiteral("allowlist.yaml"));
    }
};

QTEST_GUILESS_MAIN(TestEvidence)
#include "tst_evidence.moc"
