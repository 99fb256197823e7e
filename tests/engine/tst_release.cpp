// Issue #19 sections 1 and 2: AICR releases verified offline (ops::verifyRelease, engine/release)
// and catalog versions bound to a release, against the real release bundles and catalog in
// ../shared/data/aicr (no mock of the bundles, the verifier or OpenSSL). The release tarballs, SBOMs
// and binaries are NOT in the shared data (only their digests are): extraction and its failure
// paths run on tarballs this test builds with libarchive, labelled as such. What stores a verdict
// or a binding runs on both engines (DbFixture.h); the pure parsing on SQLite's half.
#include "../SigstoreCases.h"
#include "DbFixture.h"
#include "TestUtil.h"

#include "core/Hash.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "ops/ReleaseVerify.h"
#include "release/Release.h"
#include "release/Verify.h"
#include "sigstore/TrustedRoot.h"
#include "store/CatalogStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>

using namespace pb;

namespace {

QString releaseDir(const QString& v) {
    return pbtest::sharedData(QStringLiteral("aicr/releases/") + v);
}
QString trustedRoot() {
    return pbtest::sharedData(QStringLiteral("sigstore/trusted_root.production.json"));
}

void copyDir(const QString& from, const QString& to) {
    QDir().mkpath(to);
    for (const QFileInfo& fi : QDir(from).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (fi.isDir())
            copyDir(fi.filePath(), to + QLatin1Char('/') + fi.fileName());
        else {
            QFile::copy(fi.filePath(), to + QLatin1Char('/') + fi.fileName());
            QFile::setPermissions(to + QLatin1Char('/') + fi.fileName(),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        }
    }
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile::remove(path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

struct Entry {
    QString path;
    QByteArray bytes;
    bool symlink = false;
};

// A gzip'ed tar built here (the real release tarballs are not in the shared data).
QByteArray makeTarball(const std::vector<Entry>& entries) {
    std::vector<char> buf(4 * 1024 * 1024);
    size_t used = 0;
    archive* a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    archive_write_open_memory(a, buf.data(), buf.size(), &used);
    for (const Entry& e : entries) {
        archive_entry* en = archive_entry_new();
        archive_entry_set_pathname(en, e.path.toUtf8().constData());
        if (e.symlink) {
            archive_entry_set_filetype(en, AE_IFLNK);
            archive_entry_set_symlink(en, "/etc/passwd");
            archive_entry_set_size(en, 0);
        } else {
            archive_entry_set_filetype(en, AE_IFREG);
            archive_entry_set_size(en, e.bytes.size());
        }
        archive_entry_set_perm(en, 0755);
        archive_write_header(a, en);
        if (!e.symlink)
            archive_write_data(a, e.bytes.constData(), static_cast<size_t>(e.bytes.size()));
        archive_entry_free(en);
    }
    archive_write_close(a);
    archive_write_free(a);
    return QByteArray(buf.data(), qsizetype(used));
}

const ops::ReleaseAsset* row(const ops::ReleaseVerifyOutcome& o, const QString& name) {
    for (const ops::ReleaseAsset& a : o.assets)
        if (a.name == name)
            return &a;
    return nullptr;
}

QString describe(const ops::ReleaseVerifyOutcome& o) {
    return o.toText();
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(120000);
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

constexpr char kSubject0190[] = "2e461ba522d0b81eaee836347395257d8eb15982f9e5dc911ff7b62887722912";

} // namespace

class TestRelease : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};
    int m_n = 0;

    std::unique_ptr<db::Database> openDb() {
        auto db = m_dbs.open(QStringLiteral("db%1.sqlite").arg(++m_n));
        if (!db)
            qFatal("%s", qPrintable(m_dbs.error()));
        return db;
    }
    QString copyRelease(const QString& v) {
        const QString to = m_tmp.filePath(QStringLiteral("rel%1-%2").arg(++m_n).arg(v));
        copyDir(releaseDir(v), to);
        return to;
    }
    ops::ReleaseVerifyRequest request(const QString& dir, const QString& version) {
        ops::ReleaseVerifyRequest r;
        r.dir = dir;
        r.version = version;
        r.trustedRootPath = trustedRoot();
        return r;
    }

  private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    // ---- pure logic ---------------------------------------------------------------------------
    void checksumListParses() {
        PB_NO_DATABASE_ON_POSTGRES();
        PB_REQUIRE_SHARED("aicr/releases/v0.19.0");
        auto rows = release::parseChecksums(
            pbtest::readAll(releaseDir(QStringLiteral("v0.19.0")) + QStringLiteral("/aicr_checksums.txt")),
            QStringLiteral("aicr_checksums.txt"));
        QVERIFY2(rows, qPrintable(rows ? QString() : rows.error().toString()));
        QCOMPARE(int(rows->size()), 10);
        const release::ChecksumRow* r =
            release::findRow(*rows, QStringLiteral("aicr_0.19.0_linux_amd64.tar.gz"));
        QVERIFY(r);
        QCOMPARE(r->sha256,
                 QStringLiteral("17a62373046892a37599c6d9279dde3e9c72784aa5d95acc76d63d0b8418c93a"));
        QCOMPARE(r->line, 6);
    }

    void checksumListRefusesBadRows_data() {

        PB_NO_DATABASE_ON_POSTGRES();
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("reason");
        const QByteArray hex(64, 'a');
        QTest::newRow("short digest")
            << QByteArray("abcd  x.tar.gz\n") << QStringLiteral("expected 'SHA256  NAME'");
        QTest::newRow("not hex") << (QByteArray(64, 'z') + "  x.tar.gz\n")
                                 << QStringLiteral("not a sha256 digest");
        QTest::newRow("path") << (hex + "  ../etc/passwd\n") << QStringLiteral("not a plain file name");
        QTest::newRow("twice") << (hex + "  a\n" + hex + "  a\n")
                               << QStringLiteral("listed twice (first on line 1)");
        QTest::newRow("empty") << QByteArray("\n\n") << QStringLiteral("no rows");
    }
    void checksumListRefusesBadRows() {
        QFETCH(QByteArray, text);
        QFETCH(QString, reason);
        auto rows = release::parseChecksums(text, QStringLiteral("list.txt"));
        QVERIFY(!rows);
        QVERIFY2(rows.error().toString().contains(reason), qPrintable(rows.error().toString()));
        QVERIFY(rows.error().toString().startsWith(QStringLiteral("list.txt")));
    }

    void versionsAndIdentity() {

        PB_NO_DATABASE_ON_POSTGRES();
        QCOMPARE(*release::normalizeVersion(QStringLiteral("0.19.0")), QStringLiteral("v0.19.0"));
        QVERIFY(!release::normalizeVersion(QStringLiteral("v0.19")));
        QVERIFY(!release::normalizeVersion(QStringLiteral("v0.19.0; rm")));
        QCOMPARE(
            release::tagIdentity(QStringLiteral("v0.20.0")),
            QStringLiteral("https://github.com/NVIDIA/aicr/.github/workflows/on-tag.yaml@refs/tags/v0.20.0"));
        QCOMPARE(release::versionFromFolderName(QStringLiteral("v0.19.0")), QStringLiteral("v0.19.0"));
        QCOMPARE(release::versionFromFolderName(QStringLiteral("aicr_0.20.0")), QStringLiteral("v0.20.0"));
        QCOMPARE(release::versionFromFolderName(QStringLiteral("downloads")), QString());
    }

    void recipeCatalogSubjectFromSharedCatalog() {

        PB_NO_DATABASE_ON_POSTGRES();
        PB_REQUIRE_SHARED("aicr/catalogs/2026-08-09/recipes");
        const QString root = pbtest::realCatalog(QStringLiteral("2026-08-09"));
        const QString subject =
            release::recipeCatalogSubject(pbtest::readAll(root + QStringLiteral("/registry.yaml")),
                                          pbtest::readAll(root + QStringLiteral("/validators/catalog.yaml")));
        QCOMPARE(subject, QLatin1String(kSubject0190));
    }

    void tarballExtraction() {
        const QByteArray binary = QByteArrayLiteral("\x7f"
                                                    "ELF test binary built by tst_release, not AICR");
        auto ok = release::readTarball(
            makeTarball({{QStringLiteral("LICENSE"), "text"}, {QStringLiteral("aicr"), binary}}),
            QStringLiteral("t.tar.gz"));
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().toString()));
        QCOMPARE(ok->binary, binary);
        QCOMPARE(ok->binaryPath, QStringLiteral("aicr"));
        QVERIFY(ok->attestation.isEmpty());

        auto traversal = release::readTarball(makeTarball({{QStringLiteral("../aicr"), binary}}),
                                              QStringLiteral("t.tar.gz"));
        QVERIFY(!traversal);
        QVERIFY2(traversal.error().toString().contains(QStringLiteral("path traversal")),
                 qPrintable(traversal.error().toString()));
        auto absolute = release::readTarball(makeTarball({{QStringLiteral("/usr/bin/aicr"), binary}}),
                                             QStringLiteral("t.tar.gz"));
        QVERIFY(!absolute);
        auto link = release::readTarball(makeTarball({{QStringLiteral("aicr"), {}, true}}),
                                         QStringLiteral("t.tar.gz"));
        QVERIFY(!link);
        QVERIFY2(link.error().toString().contains(QStringLiteral("link")),
                 qPrintable(link.error().toString()));
        auto twice = release::readTarball(
            makeTarball({{QStringLiteral("aicr"), binary}, {QStringLiteral("dir/aicr"), binary}}),
            QStringLiteral("t.tar.gz"));
        QVERIFY(!twice);
        auto none = release::readTarball(makeTarball({{QStringLiteral("README.md"), "x"}}),
                                         QStringLiteral("t.tar.gz"));
        QVERIFY(!none);
        QVERIFY(none.error().toString().contains(QStringLiteral("no 'aicr' binary")));
        auto garbage = release::readTarball(QByteArray(1000, 'x'), QStringLiteral("t.tar.gz"));
        QVERIFY(!garbage);
    }

    // ---- the operation on the real bundles --------------------------------------------------------
    void v0190VerifiesWithPinnedIdentity() {
        PB_REQUIRE_SHARED("aicr/releases/v0.19.0");
        auto db = openDb();
        auto r = ops::verifyRelease(
            ops::Context(*db), request(releaseDir(QStringLiteral("v0.19.0")), QStringLiteral("v0.19.0")));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QVERIFY2(r->ok(), qPrintable(describe(*r)));
        QCOMPARE(
            r->policy.identity,
            QStringLiteral("https://github.com/NVIDIA/aicr/.github/workflows/on-tag.yaml@refs/tags/v0.19.0"));
        const ops::ReleaseAsset* bin = row(*r, QStringLiteral("aicr"));
        QVERIFY(bin && bin->signature && bin->signature->verified);
        QCOMPARE(bin->status, ops::AssetStatus::DigestOnly); // no tarball in the shared data
        QCOMPARE(bin->expectedSha256,
                 QStringLiteral("03cd1800f5a9743162043e17fbe0244a86f2392cbbe8937057becf070e2bd9f6"));
        const ops::ReleaseAsset* cat = row(*r, QStringLiteral("recipe-catalog"));
        QVERIFY(cat && cat->signature && cat->signature->verified);
        QCOMPARE(cat->status, ops::AssetStatus::DigestOnly); // no catalog in the release folder
        QCOMPARE(cat->expectedSha256, QLatin1String(kSubject0190));
        const ops::ReleaseAsset* tar = row(*r, QStringLiteral("aicr_0.19.0_linux_amd64.tar.gz"));
        QVERIFY(tar);
        QCOMPARE(tar->status, ops::AssetStatus::DigestOnly);
        QVERIFY(r->receiptSeq > 0);
        QVERIFY(r->signatureId > 0); // the recipe-catalog signature is kept
        auto kept = store::CatalogStore(*db).releaseSignature(QStringLiteral("v0.19.0"));
        QVERIFY(kept && *kept);
        QCOMPARE((*kept)->subjectSha256, QLatin1String(kSubject0190));
        QCOMPARE((*kept)->bundle, pbtest::readAll(releaseDir(QStringLiteral("v0.19.0")) +
                                                  QStringLiteral("/recipe-catalog.sigstore.json")));
        QVERIFY((*kept)->verification.value(QStringLiteral("verified")).toBool());
    }

    // The release domain alone (release::verifyFolder, no database): the same rows as the
    // operation, the recipe-catalog signature to keep, and the inputs a receipt names.
    void domainVerifiesTheFolderAsTheOperation() {
        PB_REQUIRE_SHARED("aicr/releases/v0.19.0");
        const QString dir = releaseDir(QStringLiteral("v0.19.0"));
        auto root = sigstore::parseTrustedRoot(pbtest::readAll(trustedRoot()), trustedRoot());
        QVERIFY(root.ok());
        auto files = release::listReleaseFolder(dir);
        QVERIFY(files.ok());
        release::FolderRequest req;
        req.dir = dir;
        req.files = *files;
        req.version = QStringLiteral("v0.19.0");
        req.policy = ops::releasePolicy(request(dir, req.version), req.version);
        req.root = &*root;
        const release::FolderResult checked = release::verifyFolder(req);
        QVERIFY(!checked.cancelled);
        QVERIFY(checked.catalogSignature);
        QCOMPARE(checked.catalogSignature->subjectSha256, QLatin1String(kSubject0190));
        QCOMPARE(checked.inputs.front().first, QDir(dir).filePath(QStringLiteral("aicr_checksums.txt")));
        auto db = openDb();
        auto op = ops::verifyRelease(ops::Context(*db), request(dir, req.version));
        QVERIFY(op.ok());
        QCOMPARE(checked.assets.size(), op->assets.size());
        for (size_t i = 0; i < op->assets.size(); ++i) {
            QCOMPARE(checked.assets[i].name, op->assets[i].name);
            QCOMPARE(checked.assets[i].status, op->assets[i].status);
            QCOMPARE(checked.assets[i].reason, op->assets[i].reason);
        }
        QVERIFY(!release::listReleaseFolder(dir + QStringLiteral("/no-such")).ok());
    }

    void v0200VerifiesSbomSignature() {
        PB_REQUIRE_SHARED("aicr/releases/v0.20.0");
        auto db = openDb();
        auto r = ops::verifyRelease(ops::Context(*db),
                                    request(releaseDir(QStringLiteral("v0.20.0")), QStringLiteral("0.20.0")));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QVERIFY2(r->ok(), qPrintable(describe(*r)));
        const ops::ReleaseAsset* sbom = row(*r, QStringLiteral("aicr_0.20.0_darwin_arm64.sbom.json"));
        QVERIFY(sbom && sbom->signature && sbom->signature->verified);
        QCOMPARE(sbom->status, ops::AssetStatus::DigestOnly);
        QVERIFY2(sbom->reason.contains(QStringLiteral("checksum-list row agrees")), qPrintable(sbom->reason));
        const ops::ReleaseAsset* list = row(*r, QStringLiteral("aicr_checksums.txt"));
        QVERIFY(list);
        QCOMPARE(list->status, ops::AssetStatus::Listed); // consistent with a signature, not signed
        QVERIFY2(list->reason.contains(QStringLiteral("1 of its rows")), qPrintable(list->reason));
        QCOMPARE(row(*r, QStringLiteral("recipe-catalog"))->expectedSha256,
                 QStringLiteral("f4414971c97abd9339985cdb3827f6e668e88d3c85604f88d132ebc35f9df4d5"));
    }

    void wrongIdentityFails() {
        PB_REQUIRE_SHARED("aicr/releases/v0.19.0");
        auto db = openDb();
        // v0.19.0's bundles checked as v0.20.0: the pinned tag identity is not theirs.
        auto r = ops::verifyRelease(
            ops::Context(*db), request(releaseDir(QStringLiteral("v0.19.0")), QStringLiteral("v0.20.0")));
        QVERIFY(r);
        QVERIFY(!r->ok());
        const ops::ReleaseAsset* bin = row(*r, QStringLiteral("aicr"));
        QCOMPARE(bin->status, ops::AssetStatus::Failed);
        QVERIFY2(bin->reason.contains(QStringLiteral("identity")), qPrintable(bin->reason));
        // Issue 30: expected and found side by side, as verify shows them: the v0.20.0 tag asked for,
        // the v0.19.0 tag the certificate names.
        QVERIFY2(bin->reason.contains(QStringLiteral("expected identity: ")) &&
                     bin->reason.contains(QStringLiteral("found identity: ")) &&
                     bin->reason.contains(QStringLiteral("v0.20.0")) &&
                     bin->reason.contains(QStringLiteral("v0.19.0")),
                 qPrintable(bin->reason));
        QCOMPARE(row(*r, QStringLiteral("recipe-catalog"))->status, ops::AssetStatus::Failed);
        QCOMPARE(r->signatureId, 0); // nothing kept
        // An explicit wrong issuer fails too; a regexp that matches the tag workflow passes.
        auto req = request(releaseDir(QStringLiteral("v0.19.0")), QStringLiteral("v0.19.0"));
        req.issuer = QStringLiteral("https://accounts.google.com");
        auto wrongIssuer = ops::verifyRelease(ops::Context(*db), req);
        QVERIFY(wrongIssuer && !wrongIssuer->ok());
        QVERIFY2(row(*wrongIssuer, QStringLiteral("aicr"))->reason.contains(QStringLiteral("issuer")),
                 qPrintable(row(*wrongIssuer, QStringLiteral("aicr"))->reason));
        req.issuer.clear();
        req.identityRegexp = QStringLiteral(
            "^https://github\\.com/NVIDIA/aicr/\\.github/workflows/on-tag\\.yaml@refs/tags/.+$");
        auto regexp = ops::verifyRelease(ops::Context(*db), req);
        QVERIFY(regexp);
        QVERIFY2(regexp->ok(), qPrintable(describe(*regexp)));
    }

    void changedByteInBundleFails() {
        PB_REQUIRE_SHARED("aicr/releases/v0.19.0");
        const QString dir = copyRelease(QStringLiteral("v0.19.0"));
        const QString path = dir + QStringLiteral("/recipe-catalog.sigstore.json");
        QJsonObject b = QJsonDocument::fromJson(pbtest::readAll(path)).object();
        QJsonObject env = b.value(QStringLiteral("dsseEnvelope")).toObject();
        QJsonArray sigs = env.value(QStringLiteral("signatures")).toArray();
        QByteArray sig =
            QByteArray::fromBase64(sigs.at(0).toObject().value(QStringLiteral("sig")).toString().toLatin1());
        sig[sig.size() / 2] = char(sig[sig.size() / 2] ^ 0x01);
        QJsonObject s0 = sigs.at(0).toObject();
        s0.insert(QStringLiteral("sig"), QString::fromLatin1(sig.toBase64()));
        sigs[0] = s0;
        env.insert(QStringLiteral("signatures"), sigs);
        b.insert(QStringLiteral("dsseEnvelope"), env);
        writeFile(path, QJsonDocument(b).toJson());
        auto db = openDb();
        auto r = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.19.0")));
        QVERIFY(r);
        QVERIFY(!r->ok());
        const ops::ReleaseAsset* cat = row(*r, QStringLiteral("recipe-catalog"));
        QCOMPARE(cat->status, ops::AssetStatus::Failed);
        QVERIFY2(cat->reason.startsWith(QStringLiteral("signature not verified")), qPrintable(cat->reason));
        QCOMPARE(row(*r, QStringLiteral("aicr"))->status,
                 ops::AssetStatus::DigestOnly); // the other bundle is intact
        QCOMPARE(r->signatureId, 0);
    }

    void changedByteInAssetFails() {
        PB_REQUIRE_SHARED("aicr/releases/v0.20.0");
        const QString dir = copyRelease(QStringLiteral("v0.20.0"));
        // A file named as the signed SBOM but not it, and one named as a listed SBOM but not it.
        writeFile(dir + QStringLiteral("/aicr_0.20.0_darwin_arm64.sbom.json"),
                  "{\"spdxVersion\":\"SPDX-2.3\"}\n");
        writeFile(dir + QStringLiteral("/aicr_0.20.0_linux_amd64.sbom.json"),
                  "{\"spdxVersion\":\"SPDX-2.3\"}\n");
        auto db = openDb();
        auto r = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.20.0")));
        QVERIFY(r);
        QVERIFY(!r->ok());
        const ops::ReleaseAsset* signedSbom = row(*r, QStringLiteral("aicr_0.20.0_darwin_arm64.sbom.json"));
        QCOMPARE(signedSbom->status, ops::AssetStatus::Failed);
        QVERIFY2(signedSbom->reason.contains(QStringLiteral("the signed subject is sha256:0db257")),
                 qPrintable(signedSbom->reason));
        const ops::ReleaseAsset* listed = row(*r, QStringLiteral("aicr_0.20.0_linux_amd64.sbom.json"));
        QCOMPARE(listed->status, ops::AssetStatus::Failed);
        QVERIFY2(listed->reason.contains(QStringLiteral("aicr_checksums.txt line")),
                 qPrintable(listed->reason));
        QCOMPARE(r->count(ops::AssetStatus::Failed), 2);
    }

    // Issue 28: a folder that lies. A row of the unsigned checksum list rewritten to match a fake file
    // is "listed, not signed", never counted as verified; listed names that are a symbolic link (to
    // /etc/passwd), a FIFO or a directory, and a symlinked signature bundle, fail by name and kind.
    void aFolderThatLiesIsNotVerified() {
        PB_REQUIRE_SHARED("aicr/releases/v0.20.0");
        const QString dir = copyRelease(QStringLiteral("v0.20.0"));
        const QByteArray fake = "{\"spdxVersion\":\"SPDX-2.3\",\"name\":\"not the release's\"}\n";
        writeFile(dir + QStringLiteral("/aicr_0.20.0_linux_amd64.sbom.json"), fake);
        const QString list = dir + QStringLiteral("/aicr_checksums.txt");
        QByteArray text = pbtest::readAll(list);
        text.replace("9cb4aceff212d64c4c1e21c6561d562c664c4d2057dd9c7f509d527b43b45a00",
                     sha256Hex(fake).toLatin1());
        writeFile(list, text);
        auto db = openDb();
        auto honest = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.20.0")));
        QVERIFY(honest);
        const ops::ReleaseAsset* listed = row(*honest, QStringLiteral("aicr_0.20.0_linux_amd64.sbom.json"));
        QCOMPARE(listed->status, ops::AssetStatus::Listed);
        QVERIFY2(listed->reason.contains(QLatin1String("not verified")), qPrintable(listed->reason));
        QCOMPARE(release::assetStatusName(listed->status), QStringLiteral("listed, not signed"));
        for (const ops::ReleaseAsset& a : honest->assets)
            QVERIFY2(a.status != ops::AssetStatus::Verified || a.signature,
                     qPrintable(a.name + QLatin1String(": ") + a.reason));
        QVERIFY2(honest->summary().contains(QLatin1String("2 listed (not signed)")),
                 qPrintable(honest->summary()));
        // The fake asset and the list itself, which matches the one signed SBOM yet is not signed.
        QCOMPARE(honest->toJson().value(QStringLiteral("listedNotSigned")).toInt(), 2);
        QCOMPARE(row(*honest, QStringLiteral("aicr_checksums.txt"))->status, ops::AssetStatus::Listed);

        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"),
                            dir + QStringLiteral("/aicr_0.20.0_linux_arm64.sbom.json")));
        QCOMPARE(
            ::mkfifo(
                QFile::encodeName(dir + QStringLiteral("/aicrd_0.20.0_linux_amd64.sbom.json")).constData(),
                0600),
            0);
        QVERIFY(QDir(dir).mkdir(QStringLiteral("aicrd_0.20.0_linux_arm64.sbom.json")));
        const QString catalogBundle = dir + QStringLiteral("/recipe-catalog.sigstore.json");
        QVERIFY(QFile::rename(catalogBundle, dir + QStringLiteral("/elsewhere.json")));
        QVERIFY(QFile::link(dir + QStringLiteral("/elsewhere.json"), catalogBundle));
        auto r = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.20.0")));
        QVERIFY(r);
        QVERIFY(!r->ok());
        for (const auto& [name, kind] : {std::pair{"aicr_0.20.0_linux_arm64.sbom.json", "a symbolic link"},
                                         std::pair{"aicrd_0.20.0_linux_amd64.sbom.json", "a named pipe"},
                                         std::pair{"aicrd_0.20.0_linux_arm64.sbom.json", "a directory"}}) {
            const ops::ReleaseAsset* a = row(*r, QString::fromLatin1(name));
            QVERIFY(a);
            QCOMPARE(a->status, ops::AssetStatus::Failed);
            QVERIFY2(a->reason.contains(QLatin1String(kind)) &&
                         a->reason.contains(QLatin1String("not a regular file")),
                     qPrintable(a->reason));
        }
        const ops::ReleaseAsset* cat = row(*r, QStringLiteral("recipe-catalog"));
        QCOMPARE(cat->status, ops::AssetStatus::Failed);
        QVERIFY2(cat->reason.contains(QLatin1String("a symbolic link")), qPrintable(cat->reason));
    }

    void checksumRowMismatchFails() {
        PB_REQUIRE_SHARED("aicr/releases/v0.20.0");
        const QString dir = copyRelease(QStringLiteral("v0.20.0"));
        const QString list = dir + QStringLiteral("/aicr_checksums.txt");
        QByteArray text = pbtest::readAll(list);
        const qsizetype at = text.indexOf("0db257dbb2758b81f51c3adf90fd513f78217b4c87b7676445c5a386852d0eda");
        QVERIFY(at >= 0);
        text[at] = '1';
        writeFile(list, text);
        auto db = openDb();
        auto r = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.20.0")));
        QVERIFY(r);
        QVERIFY(!r->ok());
        const ops::ReleaseAsset* sbom = row(*r, QStringLiteral("aicr_0.20.0_darwin_arm64.sbom.json"));
        QCOMPARE(sbom->status, ops::AssetStatus::Failed);
        QVERIFY2(sbom->reason.contains(QStringLiteral("lists sha256:1db257")), qPrintable(sbom->reason));
        QCOMPARE(row(*r, QStringLiteral("aicr_checksums.txt"))->status, ops::AssetStatus::Failed);
    }

    void tarballBinaryCheckedAgainstProvenance() {
        PB_REQUIRE_SHARED("aicr/releases/v0.19.0");
        // A tarball built here, listed in the checksum list: its aicr binary is not the one the
        // release's provenance covers, so the tarball fails with that reason.
        const QString dir = copyRelease(QStringLiteral("v0.19.0"));
        const QByteArray tar =
            makeTarball({{QStringLiteral("README.md"), "test tarball, not an AICR release"},
                         {QStringLiteral("aicr"), "not the AICR binary"}});
        const QString name = QStringLiteral("aicr_0.19.0_linux_amd64.tar.gz");
        writeFile(dir + QLatin1Char('/') + name, tar);
        const QString list = dir + QStringLiteral("/aicr_checksums.txt");
        QByteArray text = pbtest::readAll(list);
        text.replace("17a62373046892a37599c6d9279dde3e9c72784aa5d95acc76d63d0b8418c93a",
                     sha256Hex(tar).toLatin1());
        writeFile(list, text);
        auto db = openDb();
        auto r = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.19.0")));
        QVERIFY(r);
        const ops::ReleaseAsset* t = row(*r, name);
        QCOMPARE(t->status, ops::AssetStatus::Failed);
        QVERIFY2(t->reason.contains(QStringLiteral("no verified provenance covers")), qPrintable(t->reason));
        QCOMPARE(row(*r, QStringLiteral("aicr"))->status, ops::AssetStatus::DigestOnly);
        // The same tarball without its checksum row updated: the list row does not match.
        writeFile(list, pbtest::readAll(releaseDir(QStringLiteral("v0.19.0")) +
                                        QStringLiteral("/aicr_checksums.txt")));
        auto r2 = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.19.0")));
        QVERIFY(r2);
        QVERIFY2(row(*r2, name)->reason.contains(QStringLiteral("lists sha256:17a623")),
                 qPrintable(row(*r2, name)->reason));
        // A hostile tarball is refused with the reason.
        const QByteArray evil = makeTarball({{QStringLiteral("../../aicr"), "x"}});
        writeFile(dir + QLatin1Char('/') + name, evil);
        text = pbtest::readAll(list);
        text.replace("17a62373046892a37599c6d9279dde3e9c72784aa5d95acc76d63d0b8418c93a",
                     sha256Hex(evil).toLatin1());
        writeFile(list, text);
        auto r3 = ops::verifyRelease(ops::Context(*db), request(dir, QStringLiteral("v0.19.0")));
        QVERIFY(r3);
        QCOMPARE(row(*r3, name)->status, ops::AssetStatus::Failed);
        QVERIFY2(row(*r3, name)->reason.contains(QStringLiteral("path traversal")),
                 qPrintable(row(*r3, name)->reason));
    }

    void catalogFromFolderAndDifferingFile() {
        PB_REQUIRE_SHARED("aicr/catalogs/2026-08-09/recipes");
        auto db = openDb();
        auto req = request(releaseDir(QStringLiteral("v0.19.0")), QStringLiteral("v0.19.0"));
        req.catalogDir = pbtest::realCatalog(QStringLiteral("2026-08-09"));
        auto r = ops::verifyRelease(ops::Context(*db), req);
        QVERIFY(r);
        QVERIFY2(r->ok(), qPrintable(describe(*r)));
        const ops::ReleaseAsset* cat = row(*r, QStringLiteral("recipe-catalog"));
        QCOMPARE(cat->status, ops::AssetStatus::Verified);
        QCOMPARE(cat->foundSha256, QLatin1String(kSubject0190));
        // A copy whose validator catalog differs by one byte: named.
        const QString copy = m_tmp.filePath(QStringLiteral("cat-copy"));
        QDir().mkpath(copy + QStringLiteral("/validators"));
        writeFile(copy + QStringLiteral("/registry.yaml"),
                  pbtest::readAll(req.catalogDir + QStringLiteral("/registry.yaml")));
        writeFile(copy + QStringLiteral("/validators/catalog.yaml"),
                  pbtest::readAll(req.catalogDir + QStringLiteral("/validators/catalog.yaml")) + "\n");
        req.catalogDir = copy;
        auto bad = ops::verifyRelease(ops::Context(*db), req);
        QVERIFY(bad);
        QVERIFY(!bad->ok());
        const ops::ReleaseAsset* c = row(*bad, QStringLiteral("recipe-catalog"));
        QCOMPARE(c->status, ops::AssetStatus::Failed);
        QVERIFY2(c->reason.contains(QStringLiteral("validators/catalog.yaml differs")),
                 qPrintable(c->reason));
        QVERIFY2(!c->reason.contains(QStringLiteral("registry.yaml differs")), qPrintable(c->reason));
        // Against v0.20.0's signature the 2026-08-09 registry differs too.
        auto req20 = request(releaseDir(QStringLiteral("v0.20.0")), QStringLiteral("v0.20.0"));
        req20.catalogDir = pbtest::realCatalog(QStringLiteral("2026-08-09"));
        auto other = ops::verifyRelease(ops::Context(*db), req20);
        QVERIFY(other);
        QVERIFY2(row(*other, QStringLiteral("recipe-catalog"))
                     ->reason.contains(QStringLiteral("registry.yaml differs")),
                 qPrintable(row(*other, QStringLiteral("recipe-catalog"))->reason));
    }

    void importedVersionIsBound() {
        PB_REQUIRE_SHARED("aicr/catalogs/2026-08-09/recipes");
        auto db = openDb();
        ops::Context ctx(*db);
        ops::ImportCatalogRequest imp;
        imp.label = QStringLiteral("2026-08-09");
        imp.dir = pbtest::realCatalog(QStringLiteral("2026-08-09"));
        auto imported = ops::importCatalog(ctx, imp);
        QVERIFY2(imported, qPrintable(imported ? QString() : imported.error().toString()));
        QVERIFY(imported->signedByReleases.isEmpty()); // no signature kept yet
        auto req = request(releaseDir(QStringLiteral("v0.19.0")), QStringLiteral("v0.19.0"));
        req.catalogVersion = QStringLiteral("2026-08-09");
        auto r = ops::verifyRelease(ctx, req);
        QVERIFY(r);
        QVERIFY2(r->ok(), qPrintable(describe(*r)));
        QCOMPARE(row(*r, QStringLiteral("recipe-catalog"))->status, ops::AssetStatus::Verified);
        QCOMPARE(r->catalogSource, QStringLiteral("catalog version 2026-08-09"));
        QCOMPARE(r->boundVersions, QStringList{QStringLiteral("2026-08-09")});
        store::CatalogStore store(*db);
        auto v = store.version(QStringLiteral("2026-08-09"));
        QVERIFY(v);
        QCOMPARE(v->signedByReleases, QStringList{QStringLiteral("v0.19.0")});
        QCOMPARE(v->releaseBindingText(),
                 QStringLiteral("registry and validator catalog signed by AICR v0.19.0"));
        auto bindings = store.releaseBindings(v->id);
        QVERIFY(bindings && bindings->size() == 1);
        QVERIFY(bindings->front().signature.verification.value(QStringLiteral("verified")).toBool());
        // Running it again binds nothing twice.
        auto again = ops::verifyRelease(ctx, req);
        QVERIFY(again && again->ok());
        QCOMPARE(store.releaseBindings(v->id)->size(), std::size_t(1));
        // An unknown catalog version is an error, not a verdict.
        req.catalogVersion = QStringLiteral("nope");
        QVERIFY(!ops::verifyRelease(ctx, req));
        // The receipt is on record with the kind's parameters.
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM receipts WHERE kind = 'release.verify'")) &&
                q.next());
        QCOMPARE(q.value(0).toInt(), 2);
    }

    void errorsBeforeAnyVerdict() {
        auto db = openDb();
        auto req = request(m_tmp.filePath(QStringLiteral("missing")), QStringLiteral("v0.19.0"));
        auto r = ops::verifyRelease(ops::Context(*db), req);
        QVERIFY(!r);
        QVERIFY(r.error().toString().contains(QStringLiteral("no such directory")));
        req.dir = m_tmp.path();
        req.version = QStringLiteral("latest");
        QVERIFY(!ops::verifyRelease(ops::Context(*db), req));
        req.version = QStringLiteral("v0.19.0");
        req.trustedRootPath.clear(); // none stored
        auto noRoot = ops::verifyRelease(ops::Context(*db), req);
        QVERIFY(!noRoot);
        QVERIFY(noRoot.error().toString().contains(QStringLiteral("no trusted root")));
    }

    // ---- the CLI ------------------------------------------------------------------------------
    void cliVerifyExpectReleaseAndList() {
        PB_REQUIRE_SHARED("aicr/catalogs/2026-08-09/recipes");
        const QString db = m_dbs.spec(QStringLiteral("cli.sqlite"));
        const QString rel = releaseDir(QStringLiteral("v0.19.0"));
        Run usage = proofbench(
            {QStringLiteral("--db"), db, QStringLiteral("release"), QStringLiteral("verify"), rel});
        QCOMPARE(usage.code, 2);
        Run wrong = proofbench(
            {QStringLiteral("--db"), db, QStringLiteral("release"), QStringLiteral("verify"), rel,
             QStringLiteral("--version"), QStringLiteral("v0.19.0"), QStringLiteral("--trusted-root"),
             trustedRoot(), QStringLiteral("--certificate-identity"),
             QStringLiteral(
                 "https://github.com/NVIDIA/aicr/.github/workflows/on-tag.yaml@refs/tags/v0.18.0")});
        QCOMPARE(wrong.code, 1);
        QVERIFY2(wrong.out.contains("failed"), wrong.out.constData());
        QVERIFY(wrong.err.contains("release not verified"));

        // No kept signature yet: --expect-release refuses and says what to run.
        const QString catalog = pbtest::realCatalog(QStringLiteral("2026-08-09"));
        Run early =
            proofbench({QStringLiteral("--db"), db, QStringLiteral("catalog"), QStringLiteral("import"),
                        QStringLiteral("--version"), QStringLiteral("early"),
                        QStringLiteral("--expect-release"), QStringLiteral("v0.19.0"), catalog});
        QCOMPARE(early.code, 1);
        QVERIFY2(early.err.contains("release verify"), early.err.constData());

        Run ok = proofbench({QStringLiteral("--db"), db, QStringLiteral("release"), QStringLiteral("verify"),
                             rel, QStringLiteral("--version"), QStringLiteral("v0.19.0"),
                             QStringLiteral("--trusted-root"), trustedRoot(), QStringLiteral("--format"),
                             QStringLiteral("json")});
        QVERIFY2(ok.code == 0, ok.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(ok.out).object();
        QCOMPARE(j.value(QStringLiteral("version")).toString(), QStringLiteral("v0.19.0"));
        QCOMPARE(j.value(QStringLiteral("failed")).toInt(), 0);
        QVERIFY(
            j.value(QStringLiteral("catalogScope")).toString().contains(QStringLiteral("not the overlays")));

        // A catalog whose registry differs: refused, naming registry.yaml; nothing imported.
        const QString changed = m_tmp.filePath(QStringLiteral("changed-catalog"));
        copyDir(catalog, changed);
        writeFile(changed + QStringLiteral("/registry.yaml"),
                  pbtest::readAll(catalog + QStringLiteral("/registry.yaml")) + "# changed\n");
        Run refused =
            proofbench({QStringLiteral("--db"), db, QStringLiteral("catalog"), QStringLiteral("import"),
                        QStringLiteral("--version"), QStringLiteral("changed"),
                        QStringLiteral("--expect-release"), QStringLiteral("v0.19.0"), changed});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("registry.yaml differs"), refused.err.constData());
        QVERIFY2(!refused.err.contains("validators/catalog.yaml differs"), refused.err.constData());

        Run accepted =
            proofbench({QStringLiteral("--db"), db, QStringLiteral("catalog"), QStringLiteral("import"),
                        QStringLiteral("--version"), QStringLiteral("2026-08-09"),
                        QStringLiteral("--expect-release"), QStringLiteral("v0.19.0"), catalog});
        QVERIFY2(accepted.code == 0, accepted.err.constData());
        QVERIFY2(accepted.out.contains("signed by AICR v0.19.0"), accepted.out.constData());

        Run list =
            proofbench({QStringLiteral("--db"), db, QStringLiteral("catalog"), QStringLiteral("list")});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains("registry and validator catalog signed by AICR v0.19.0"),
                 list.out.constData());
        QVERIFY2(list.out.contains("not the overlays"), list.out.constData());
        QVERIFY(!list.out.contains("changed"));
        Run listJson =
            proofbench({QStringLiteral("--db"), db, QStringLiteral("catalog"), QStringLiteral("list"),
                        QStringLiteral("--format"), QStringLiteral("json")});
        const QJsonArray versions = QJsonDocument::fromJson(listJson.out).array();
        bool found = false;
        for (const QJsonValue& v : versions)
            if (v.toObject().value(QStringLiteral("version")).toString() == QLatin1String("2026-08-09"))
                found = v.toObject().value(QStringLiteral("signedByReleases")).toArray() ==
                        QJsonArray{QStringLiteral("v0.19.0")};
        QVERIFY2(found, listJson.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestRelease)
#include "tst_release.moc"
