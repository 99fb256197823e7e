// Offline Sigstore verification against the shared acceptance cases (every case, artifact mode and
// digest mode), plus the parsers' strictness on their own.
#include "SigstoreCases.h"
#include "sigstore/Verify.h"

#include <QCryptographicHash>
#include <QTest>

using namespace pb::sigstore;

class TestSigstore : public QObject {
    Q_OBJECT

  private:
    static Policy policyFor(const pbtest::SigstoreCase& c) {
        Policy p;
        if (c.mode == QLatin1String("key")) {
            p.publicKeyPem = pbtest::readAll(c.file(QStringLiteral("key.pub")));
        } else {
            p.identity = c.identity;
            p.issuer = c.issuer;
        }
        return p;
    }

    static void addCases() {
        QTest::addColumn<QString>("name");
        const auto cases = pbtest::sigstoreCases();
        for (const auto& c : cases)
            QTest::newRow(qPrintable(c.name)) << c.name;
    }

    static VerificationResult run(const QString& name, bool digestMode, pbtest::SigstoreCase* out = nullptr) {
        for (const auto& c : pbtest::sigstoreCases()) {
            if (c.name != name)
                continue;
            if (out)
                *out = c;
            auto root = loadTrustedRoot(c.file(QStringLiteral("trusted_root.json")));
            if (!root) {
                VerificationResult r;
                r.steps.push_back(Step{QStringLiteral("trusted root"), StepState::Failed, root.error().toString(), {}, {}});
                return r;
            }
            Artifact a;
            if (digestMode) {
                const QByteArray bytes = pbtest::readAll(c.file(QStringLiteral("artifact")));
                a = *Artifact::fromDigest(QStringLiteral("sha256:") + QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
            } else {
                a = Artifact::fromBytes(pbtest::readAll(c.file(QStringLiteral("artifact"))));
            }
            return verifyBundle(pbtest::readAll(c.file(QStringLiteral("bundle.sigstore.json"))), c.file(QStringLiteral("bundle.sigstore.json")),
                                a, *root, policyFor(c));
        }
        return {};
    }

  private slots:
    void manifestCase_data() { addCases(); }
    void manifestCase() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        QFETCH(QString, name);
        pbtest::SigstoreCase c;
        const VerificationResult r = run(name, false, &c);
        if (r.verified != c.pass())
            qWarning().noquote() << r.toText();
        QCOMPARE(r.verified, c.pass());
        if (!c.pass())
            QVERIFY2(r.firstFailure() != nullptr, "a refused bundle names the step that failed");
    }

    void manifestCaseDigestMode_data() { addCases(); }
    void manifestCaseDigestMode() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/MANIFEST.tsv"));
        QFETCH(QString, name);
        pbtest::SigstoreCase c;
        const VerificationResult r = run(name, true, &c);
        if (r.verified != c.pass())
            qWarning().noquote() << r.toText();
        QCOMPARE(r.verified, c.pass());
        // The manifest's artifact digest is the one verified against.
        if (c.digest.startsWith(QLatin1String("sha256:")) && c.name != QLatin1String("wrong-material_fail"))
            QCOMPARE(r.artifactDigest, c.digest);
    }
};

QTEST_GUILESS_MAIN(TestSigstore)
#include "tst_sigstore.moc"
