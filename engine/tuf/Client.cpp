#include "tuf/Client.h"
#include "core/Plural.h"

#include "core/Files.h"
#include "core/Hash.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace pb::tuf {

QJsonObject ClientStep::toJson() const {
    return QJsonObject{{QStringLiteral("role"), role},
                       {QStringLiteral("file"), file},
                       {QStringLiteral("detail"), detail},
                       {QStringLiteral("ok"), ok}};
}

namespace {

QJsonObject roleJson(const RoleState& r) {
    QJsonObject o{{QStringLiteral("version"), r.version}, {QStringLiteral("file"), r.file}};
    if (r.expires.isValid())
        o.insert(QStringLiteral("expires"), formatTime(r.expires));
    return o;
}

// What identifies a role's keys in a root: its threshold and each key's type, scheme and value
// (ids alone may be renamed; 5.3.11 is about the keys).
QString roleKeys(const Root& root, const QString& role) {
    const RoleKeys rk = root.roles.value(role);
    QStringList keys;
    for (const QString& id : rk.keyids) {
        const Key k = root.keys.value(id);
        keys << k.type + QLatin1Char('|') + k.scheme + QLatin1Char('|') + k.publicValue.trimmed();
    }
    keys.sort();
    return QString::number(rk.threshold) + QLatin1Char(';') + keys.join(QLatin1Char(';'));
}

// The version number a root metadata file name carries ("15.root.json" -> 15), or 0.
qint64 numberedRoot(const QString& fileName) {
    if (!fileName.endsWith(QLatin1String(".root.json")))
        return 0;
    bool ok = false;
    const qint64 n = fileName.left(fileName.size() - 10).toLongLong(&ok);
    return ok && n > 0 ? n : 0;
}

class Run {
  public:
    Run(const ClientRequest& req, ClientResult& res, const std::function<void(const ClientStep&)>& onStep,
        const std::atomic_bool* cancel)
        : m_req(req), m_res(res), m_onStep(onStep), m_cancel(cancel) {}

    bool run();

  private:
    bool locate();
    bool loadAnchor();
    bool loadTrustedState();
    bool updateRoot();
    bool checkRootNotRolledBack(qint64 trustedVersion);
    bool loadTimestamp();
    bool loadSnapshot();
    bool loadTopTargets();
    bool findTarget();
    bool loadDelegated(const QString& parentName, const Targets& parent, const DelegatedRole& role);
    bool fetchTarget(const TargetFile& target, const QString& signedBy);

    void step(const QString& role, const QString& file, const QString& detail) {
        ClientStep s{role, file, detail, true};
        m_res.steps.push_back(s);
        if (m_onStep)
            m_onStep(s);
    }
    bool fail(const QString& role, Error e) {
        if (!e.file.isEmpty())
            e.file = rel(e.file);
        m_res.ok = false;
        m_res.failedRole = role;
        ClientStep s{role, e.file, e.toString(), false};
        m_res.error = std::move(e);
        m_res.steps.push_back(s);
        if (m_onStep)
            m_onStep(s);
        return false;
    }
    bool cancelled() {
        if (m_cancel && m_cancel->load())
            return fail(QStringLiteral("cancelled"), makeError(QStringLiteral("cancelled")));
        return true;
    }
    QString rel(const QString& path) const {
        if (!QFileInfo(path).isAbsolute())
            return path;
        const QString r = m_base.relativeFilePath(path);
        return r.startsWith(QLatin1String("..")) ? path : r;
    }
    // The first of `candidates` (file names in `dir`) that exists, or empty.
    QString firstExisting(const QDir& dir, const QStringList& candidates) const {
        for (const QString& c : candidates) {
            const QString p = dir.filePath(c);
            if (QFileInfo::exists(p))
                return p;
        }
        return {};
    }
    Result<QByteArray> read(const QString& path, qint64 max, const QString& what) {
        auto bytes = readFileLimited(path, max, what);
        if (!bytes) {
            Error e = bytes.error();
            if (e.file.isEmpty())
                e.file = path;
            return e;
        }
        return bytes;
    }
    // A root metadata file read within its bound and parsed.
    Result<Root> readRoot(const QString& path) {
        auto bytes = read(path, kRootMaxLength, QStringLiteral("root metadata"));
        if (!bytes)
            return bytes.error();
        return parseRoot(*bytes, path);
    }
    // Length and hashes as the referring metadata states them.
    Status checkMeta(const QByteArray& bytes, const MetaFile& m, const QString& path,
                     const QString& referrer) {
        if (m.length >= 0 && bytes.size() != m.length)
            return makeError(
                QStringLiteral("%1 bytes, %2 says %3").arg(bytes.size()).arg(referrer).arg(m.length), path);
        if (Status s = checkHashes(bytes, m.hashes, path); !s)
            return makeError(s.error().message + QStringLiteral(" (in %1)").arg(referrer), path);
        return {};
    }
    // Fails when `env` has expired at the verification time.
    bool checkExpiry(const QString& role, const Envelope& env) {
        if (!env.expires.isValid())
            return fail(role, makeError(QStringLiteral("'%1' is not a time").arg(env.expiresText), env.file,
                                        0, QStringLiteral("signed.expires")));
        if (env.expires <= m_res.verificationTime)
            return fail(role, makeError(QStringLiteral("%1 v%2 expired %3 (verification time %4)")
                                            .arg(role)
                                            .arg(env.version)
                                            .arg(formatTime(env.expires), formatTime(m_res.verificationTime)),
                                        env.file, 0, QStringLiteral("signed.expires")));
        return true;
    }
    RoleState state(const Envelope& env) const { return RoleState{env.version, env.expires, rel(env.file)}; }
    // "(trusted since 2026-12-02T04:30:00Z)"
    QString since() const {
        const TrustedState& t = *m_req.trusted;
        return t.updatedAt.isValid() ? QStringLiteral("trusted since %1").arg(formatTime(t.updatedAt))
                                     : QStringLiteral("trusted before");
    }
    // A rollback failure: `what` says it with %1 the new version and %2 the trusted one ("version %1
    // is older than the trusted version %2"); " (trusted since …): a rollback, refused" follows.
    bool rollback(const QString& role, const QString& file, const QString& field, const QString& what,
                  qint64 got, qint64 trusted) {
        return fail(role, makeError(what.arg(got).arg(trusted) +
                                        QStringLiteral(" (%1): a rollback, refused").arg(since()),
                                    file, 0, field));
    }
    bool useTrusted() const { return m_req.trusted.has_value(); }
    // The trusted timestamp and snapshot versions count unless their keys changed (5.3.11).
    bool useTrustedTimestampSnapshot() const { return useTrusted() && !m_res.timestampSnapshotDropped; }

    const ClientRequest& m_req;
    ClientResult& m_res;
    const std::function<void(const ClientStep&)>& m_onStep;
    const std::atomic_bool* m_cancel;
    QDir m_base, m_meta, m_targetsDir;
    Root m_root;
    Timestamp m_timestamp;
    Snapshot m_snapshot;
    QMap<QString, Targets> m_targets; // "targets" and delegated roles, as loaded
};

bool Run::run() {
    m_res.verificationTime = m_req.at ? m_req.at->toUTC() : QDateTime::currentDateTimeUtc();
    m_res.timeGiven = m_req.at.has_value();
    m_res.anchorName = m_req.anchorName;
    m_res.targetName = m_req.targetName;
    m_res.trustedBefore = m_req.trusted;
    if (!(locate() && loadAnchor() && loadTrustedState() && updateRoot() && loadTimestamp() &&
          loadSnapshot() && loadTopTargets() && findTarget()))
        return false;
    TrustedState& t = m_res.trustedAfter;
    t.anchorSha256 = m_res.anchorSha256;
    t.anchorName = m_res.anchorName;
    t.repository = m_res.repository;
    t.rootBytes = m_root.env.bytes;
    t.root = m_res.root;
    t.timestamp = m_res.timestamp;
    t.snapshot = m_res.snapshot;
    t.targets = m_res.targets;
    for (auto it = m_snapshot.meta.begin(); it != m_snapshot.meta.end(); ++it)
        t.snapshotMeta.insert(it.key(), it.value().version);
    t.delegations = m_res.delegations;
    t.verificationTime = m_res.verificationTime;
    t.timeGiven = m_res.timeGiven;
    return true;
}

bool Run::loadTrustedState() {
    if (!useTrusted())
        return true;
    const QString role = QStringLiteral("trusted");
    const TrustedState& t = *m_req.trusted;
    const QString name = QStringLiteral("trusted state");
    if (t.anchorSha256 != m_res.anchorSha256)
        return fail(
            role,
            makeError(
                QStringLiteral(
                    "the trusted state descends from the anchor with sha256 %1, not from %2 (sha256 %3)")
                    .arg(t.anchorSha256.left(16), m_req.anchorName, m_res.anchorSha256.left(16)),
                name));
    if (t.rootBytes.size() > kRootMaxLength)
        return fail(role, makeError(QStringLiteral("its root is %1 bytes, more than the %2 a root may have")
                                        .arg(t.rootBytes.size())
                                        .arg(kRootMaxLength),
                                    name));
    auto root = parseRoot(t.rootBytes, QStringLiteral("trusted root v%1").arg(t.root.version));
    if (!root)
        return fail(role, root.error());
    auto self = verifyThreshold(root->env, root->keys, root->roles.value(QStringLiteral("root")),
                                QStringLiteral("its own root keys"));
    if (!self)
        return fail(role, self.error());
    if (root->env.version != t.root.version)
        return fail(role, makeError(QStringLiteral("its root is v%1, the state says v%2")
                                        .arg(root->env.version)
                                        .arg(t.root.version),
                                    name));
    if (root->env.version < m_root.env.version)
        return fail(role, makeError(QStringLiteral("its root v%1 is older than the anchor v%2")
                                        .arg(root->env.version)
                                        .arg(m_root.env.version),
                                    name));
    m_root = std::move(*root);
    QString detail = QStringLiteral("trusted state: %1").arg(t.summary());
    if (!t.repository.isEmpty() && t.repository != m_res.repository)
        detail += QStringLiteral(" (last updated from %1)").arg(t.repository);
    detail += QStringLiteral("; the root chain continues from root v%1 and nothing older is accepted")
                  .arg(m_root.env.version);
    step(role, QString(), detail);
    return true;
}

// After the chain: the repository's newest root (root.json, else the highest numbered file) must not
// be older than the root trusted before this update (a copy whose history stops earlier).
bool Run::checkRootNotRolledBack(qint64 trustedVersion) {
    const QString role = QStringLiteral("root");
    QString newestFile;
    qint64 newest = 0;
    const QString current = m_meta.filePath(QStringLiteral("root.json"));
    if (QFileInfo::exists(current)) {
        auto parsed = readRoot(current);
        if (!parsed)
            return fail(role, parsed.error());
        newest = parsed->env.version;
        newestFile = current;
    } else {
        for (const QDir& d : {m_meta, QDir(m_meta.filePath(QStringLiteral("root_history")))}) {
            const QStringList names = d.entryList({QStringLiteral("*.root.json")}, QDir::Files);
            for (const QString& n : names)
                if (const qint64 v = numberedRoot(n); v > newest) {
                    newest = v;
                    newestFile = d.filePath(n);
                }
        }
    }
    if (newest > 0 && newest < trustedVersion)
        return rollback(
            role, newestFile, QStringLiteral("signed.version"),
            QStringLiteral(
                "the repository's newest root is version %1, older than the trusted root version %2"),
            newest, trustedVersion);
    return true;
}

bool Run::locate() {
    const QFileInfo dir(m_req.dir);
    if (!dir.isDir())
        return fail(QStringLiteral("repository"), makeError(dir.exists() ? QStringLiteral("not a folder")
                                                                         : QStringLiteral("no such folder"),
                                                            m_req.dir));
    m_base = QDir(dir.absoluteFilePath());
    m_res.repository = m_base.absolutePath();
    if (QFileInfo(m_base.filePath(QStringLiteral("metadata"))).isDir()) {
        m_meta = QDir(m_base.filePath(QStringLiteral("metadata")));
        m_targetsDir = QDir(m_base.filePath(QStringLiteral("targets")));
    } else {
        m_meta = m_base;
        m_targetsDir = QFileInfo(m_base.filePath(QStringLiteral("targets"))).isDir()
                           ? QDir(m_base.filePath(QStringLiteral("targets")))
                           : QDir(m_base.filePath(QStringLiteral("../targets")));
    }
    if (!QFileInfo::exists(m_meta.filePath(QStringLiteral("timestamp.json"))))
        return fail(
            QStringLiteral("repository"),
            makeError(QStringLiteral("not a TUF repository copy: no timestamp.json in %1").arg(m_meta.path()),
                      m_req.dir));
    return true;
}

bool Run::loadAnchor() {
    if (m_req.anchor.size() > kRootMaxLength)
        return fail(QStringLiteral("anchor"),
                    makeError(QStringLiteral("%1 bytes, more than the %2 a root may have")
                                  .arg(m_req.anchor.size())
                                  .arg(kRootMaxLength),
                              m_req.anchorName));
    auto anchor = parseRoot(m_req.anchor, m_req.anchorName);
    if (!anchor)
        return fail(QStringLiteral("anchor"), anchor.error());
    auto self = verifyThreshold(anchor->env, anchor->keys, anchor->roles.value(QStringLiteral("root")),
                                QStringLiteral("its own root keys"));
    if (!self)
        return fail(QStringLiteral("anchor"), self.error());
    m_root = std::move(*anchor);
    m_res.anchorSha256 = sha256Hex(m_req.anchor);
    m_res.anchorVersion = m_root.env.version;
    step(QStringLiteral("anchor"), m_req.anchorName,
         QStringLiteral(
             "trusted root v%1 (sha256 %2): %3 valid signature(s) by its own root keys, %4 required")
             .arg(m_root.env.version)
             .arg(m_res.anchorSha256.left(16))
             .arg(*self)
             .arg(m_root.roles.value(QStringLiteral("root")).threshold));
    return true;
}

bool Run::updateRoot() {
    const QString role = QStringLiteral("root");
    const QString startTimestampKeys = roleKeys(m_root, QStringLiteral("timestamp"));
    const QString startSnapshotKeys = roleKeys(m_root, QStringLiteral("snapshot"));
    const qint64 startVersion = m_root.env.version;
    for (int i = 0; i < kMaxRootRotations; ++i) {
        if (!cancelled())
            return false;
        const qint64 next = m_root.env.version + 1;
        const QString name = QStringLiteral("%1.root.json").arg(next);
        QString path = firstExisting(m_meta, {name, QStringLiteral("root_history/") + name});
        if (path.isEmpty()) {
            // No numbered file: the unnumbered current root may still be the next one, or reveal a gap.
            const QString current = m_meta.filePath(QStringLiteral("root.json"));
            if (!QFileInfo::exists(current))
                break;
            auto parsed = readRoot(current);
            if (!parsed)
                return fail(role, parsed.error());
            if (parsed->env.version <= m_root.env.version)
                break;
            if (parsed->env.version != next)
                return fail(
                    role,
                    makeError(
                        QStringLiteral(
                            "is root v%1, but root v%2 is missing: root versions must follow one another")
                            .arg(parsed->env.version)
                            .arg(next),
                        current, 0, QStringLiteral("signed.version")));
            path = current;
        }
        auto parsed = readRoot(path);
        if (!parsed)
            return fail(role, parsed.error());
        if (parsed->env.version != next)
            return fail(
                role,
                makeError(QStringLiteral(
                              "is root v%1 where v%2 was expected: root versions must follow one another")
                              .arg(parsed->env.version)
                              .arg(next),
                          path, 0, QStringLiteral("signed.version")));
        const QString previous = QStringLiteral("root v%1's root keys").arg(m_root.env.version);
        auto byPrevious = verifyThreshold(parsed->env, m_root.keys, m_root.roles.value(role), previous);
        if (!byPrevious)
            return fail(role, byPrevious.error());
        auto byItself = verifyThreshold(parsed->env, parsed->keys, parsed->roles.value(role),
                                        QStringLiteral("its own root keys"));
        if (!byItself)
            return fail(role, byItself.error());
        step(role, rel(path),
             QStringLiteral("root v%1 -> v%2: %3 by v%1's root keys (%4 required), %5 by "
                            "its own (%6 required)")
                 .arg(m_root.env.version)
                 .arg(next)
                 .arg(counted(qint64(*byPrevious), QStringLiteral("valid signature"),
                              QStringLiteral("valid signatures")))
                 .arg(m_root.roles.value(role).threshold)
                 .arg(*byItself)
                 .arg(parsed->roles.value(role).threshold));
        m_root = std::move(*parsed);
        m_res.rootChain.push_back(next);
        if (i + 1 == kMaxRootRotations)
            return fail(
                role,
                makeError(QStringLiteral("more than %1 root rotations in one update").arg(kMaxRootRotations),
                          m_req.dir));
    }
    if (useTrusted() && !checkRootNotRolledBack(m_req.trusted->root.version))
        return false;
    m_res.root = state(m_root.env);
    m_res.consistentSnapshot = m_root.consistentSnapshot;
    if (!checkExpiry(role, m_root.env))
        return false;
    if (useTrusted() && (roleKeys(m_root, QStringLiteral("timestamp")) != startTimestampKeys ||
                         roleKeys(m_root, QStringLiteral("snapshot")) != startSnapshotKeys)) {
        m_res.timestampSnapshotDropped = true;
        step(role, rel(m_root.env.file),
             QStringLiteral("the timestamp or snapshot keys changed between root v%1 and v%2: the trusted "
                            "timestamp v%3 and snapshot v%4 "
                            "are not carried over (specification 5.3.11)")
                 .arg(startVersion)
                 .arg(m_root.env.version)
                 .arg(m_req.trusted->timestamp.version)
                 .arg(m_req.trusted->snapshot.version));
    }
    step(
        role, rel(m_root.env.file),
        QStringLiteral("trusted root v%1, valid until %2%3")
            .arg(m_root.env.version)
            .arg(formatTime(m_root.env.expires))
            .arg(m_res.rootChain.empty() ? QStringLiteral(" (no newer root in the repository)") : QString()));
    return true;
}

bool Run::loadTimestamp() {
    const QString role = QStringLiteral("timestamp");
    if (!cancelled())
        return false;
    const QString path = m_meta.filePath(QStringLiteral("timestamp.json"));
    auto bytes = read(path, kTimestampMaxLength, QStringLiteral("timestamp metadata"));
    if (!bytes)
        return fail(role, bytes.error());
    auto parsed = parseTimestamp(*bytes, path);
    if (!parsed)
        return fail(role, parsed.error());
    auto sigs = verifyThreshold(parsed->env, m_root.keys, m_root.roles.value(role),
                                QStringLiteral("root v%1's timestamp keys").arg(m_root.env.version));
    if (!sigs)
        return fail(role, sigs.error());
    QString against;
    if (useTrustedTimestampSnapshot()) {
        const TrustedState& t = *m_req.trusted;
        if (parsed->env.version < t.timestamp.version)
            return rollback(role, path, QStringLiteral("signed.version"),
                            QStringLiteral("version %1 is older than the trusted version %2"),
                            parsed->env.version, t.timestamp.version);
        if (parsed->snapshot.version < t.snapshot.version)
            return rollback(
                role, path, QStringLiteral("signed.meta.snapshot.json.version"),
                QStringLiteral(
                    "timestamp v%1 names snapshot version %2, older than the trusted snapshot version %3")
                    .arg(parsed->env.version)
                    .arg(QStringLiteral("%1"), QStringLiteral("%2")),
                parsed->snapshot.version, t.snapshot.version);
        against = parsed->env.version == t.timestamp.version
                      ? QStringLiteral(" (the trusted version, unchanged)")
                      : QStringLiteral(" (newer than the trusted v%1)").arg(t.timestamp.version);
    }
    m_timestamp = std::move(*parsed);
    m_res.timestamp = state(m_timestamp.env);
    if (!checkExpiry(role, m_timestamp.env))
        return false;
    step(role, rel(path),
         QStringLiteral(
             "timestamp v%1%6: %2 valid signature(s) (%3 required), valid until %4; names snapshot v%5")
             .arg(m_timestamp.env.version)
             .arg(*sigs)
             .arg(m_root.roles.value(role).threshold)
             .arg(formatTime(m_timestamp.env.expires))
             .arg(m_timestamp.snapshot.version)
             .arg(against));
    return true;
}

bool Run::loadSnapshot() {
    const QString role = QStringLiteral("snapshot");
    if (!cancelled())
        return false;
    const MetaFile& meta = m_timestamp.snapshot;
    QStringList names{QStringLiteral("snapshot.json")};
    if (m_root.consistentSnapshot)
        names.prepend(QStringLiteral("%1.snapshot.json").arg(meta.version));
    const QString path = firstExisting(m_meta, names);
    if (path.isEmpty())
        return fail(role,
                    makeError(QStringLiteral("missing (looked for %1)").arg(names.join(QStringLiteral(", "))),
                              rel(m_meta.filePath(names.first()))));
    auto bytes =
        read(path, meta.length >= 0 ? meta.length : kSnapshotMaxLength, QStringLiteral("snapshot metadata"));
    if (!bytes)
        return fail(role, bytes.error());
    if (Status s =
            checkMeta(*bytes, meta, path, QStringLiteral("timestamp v%1").arg(m_timestamp.env.version));
        !s)
        return fail(role, s.error());
    auto parsed = parseSnapshot(*bytes, path);
    if (!parsed)
        return fail(role, parsed.error());
    auto sigs = verifyThreshold(parsed->env, m_root.keys, m_root.roles.value(role),
                                QStringLiteral("root v%1's snapshot keys").arg(m_root.env.version));
    if (!sigs)
        return fail(role, sigs.error());
    if (parsed->env.version != meta.version)
        return fail(role, makeError(QStringLiteral("is snapshot v%1, timestamp v%2 names v%3")
                                        .arg(parsed->env.version)
                                        .arg(m_timestamp.env.version)
                                        .arg(meta.version),
                                    path, 0, QStringLiteral("signed.version")));
    QString against;
    if (useTrustedTimestampSnapshot()) {
        // Every targets file the trusted snapshot listed stays listed, at its version or newer (5.5.5).
        const TrustedState& t = *m_req.trusted;
        for (auto it = t.snapshotMeta.begin(); it != t.snapshotMeta.end(); ++it) {
            const QString field = QStringLiteral("signed.meta.%1").arg(it.key());
            if (!parsed->meta.contains(it.key()))
                return fail(role, makeError(QStringLiteral("snapshot v%1 no longer lists %2, which the "
                                                           "trusted snapshot v%3 listed at version %4 (%5): "
                                                           "a rollback, refused")
                                                .arg(parsed->env.version)
                                                .arg(it.key())
                                                .arg(t.snapshot.version)
                                                .arg(it.value())
                                                .arg(since()),
                                            path, 0, field));
            const qint64 v = parsed->meta.value(it.key()).version;
            if (v < it.value())
                return rollback(
                    role, path, field + QStringLiteral(".version"),
                    QStringLiteral("snapshot v%1 lists %2 at version %3, older than the trusted version %4")
                        .arg(parsed->env.version)
                        .arg(it.key(), QStringLiteral("%1"), QStringLiteral("%2")),
                    v, it.value());
        }
        against = QStringLiteral("; no targets file older than the trusted snapshot v%1 lists")
                      .arg(t.snapshot.version);
    }
    m_snapshot = std::move(*parsed);
    m_res.snapshot = state(m_snapshot.env);
    if (!checkExpiry(role, m_snapshot.env))
        return false;
    step(role, rel(path),
         QStringLiteral("snapshot v%1: %2 (%3 required), the version timestamp v%4 names, "
                        "valid until %5%6")
             .arg(m_snapshot.env.version)
             .arg(counted(qint64(*sigs), QStringLiteral("valid signature"),
                          QStringLiteral("valid signatures")))
             .arg(m_root.roles.value(role).threshold)
             .arg(m_timestamp.env.version)
             .arg(formatTime(m_snapshot.env.expires))
             .arg(against));
    return true;
}

bool Run::loadTopTargets() {
    const QString role = QStringLiteral("targets");
    if (!cancelled())
        return false;
    const MetaFile meta = m_snapshot.meta.value(QStringLiteral("targets.json"));
    QStringList names{QStringLiteral("targets.json")};
    if (m_root.consistentSnapshot)
        names.prepend(QStringLiteral("%1.targets.json").arg(meta.version));
    const QString path = firstExisting(m_meta, names);
    if (path.isEmpty())
        return fail(role,
                    makeError(QStringLiteral("missing (looked for %1)").arg(names.join(QStringLiteral(", "))),
                              rel(m_meta.filePath(names.first()))));
    auto bytes =
        read(path, meta.length >= 0 ? meta.length : kTargetsMaxLength, QStringLiteral("targets metadata"));
    if (!bytes)
        return fail(role, bytes.error());
    if (Status s = checkMeta(*bytes, meta, path, QStringLiteral("snapshot v%1").arg(m_snapshot.env.version));
        !s)
        return fail(role, s.error());
    auto parsed = parseTargets(*bytes, path);
    if (!parsed)
        return fail(role, parsed.error());
    auto sigs = verifyThreshold(parsed->env, m_root.keys, m_root.roles.value(role),
                                QStringLiteral("root v%1's targets keys").arg(m_root.env.version));
    if (!sigs)
        return fail(role, sigs.error());
    if (parsed->env.version != meta.version)
        return fail(role, makeError(QStringLiteral("is targets v%1, snapshot v%2 names v%3")
                                        .arg(parsed->env.version)
                                        .arg(m_snapshot.env.version)
                                        .arg(meta.version),
                                    path, 0, QStringLiteral("signed.version")));
    m_res.targets = state(parsed->env);
    if (!checkExpiry(role, parsed->env))
        return false;
    step(
        role, rel(path),
        QStringLiteral("targets v%1: %2 (%3 required), the version snapshot v%4 names, "
                       "valid until %5; %6, %7")
            .arg(parsed->env.version)
            .arg(
                counted(qint64(*sigs), QStringLiteral("valid signature"), QStringLiteral("valid signatures")))
            .arg(m_root.roles.value(role).threshold)
            .arg(m_snapshot.env.version)
            .arg(formatTime(parsed->env.expires))
            .arg(counted(qint64(parsed->targets.size()), QStringLiteral("target"), QStringLiteral("targets")))
            .arg(counted(qint64(parsed->delegations.size()), QStringLiteral("delegation"),
                         QStringLiteral("delegations"))));
    m_targets.insert(role, std::move(*parsed));
    return true;
}

bool Run::loadDelegated(const QString& parentName, const Targets& parent, const DelegatedRole& d) {
    if (!cancelled())
        return false;
    const QString metaName = d.name + QStringLiteral(".json");
    if (!m_snapshot.meta.contains(metaName))
        return fail(
            d.name,
            makeError(QStringLiteral("does not describe %1, which %2 delegates to").arg(metaName, parentName),
                      m_snapshot.env.file, 0, QStringLiteral("signed.meta")));
    const MetaFile meta = m_snapshot.meta.value(metaName);
    QStringList names{metaName};
    if (m_root.consistentSnapshot)
        names.prepend(QStringLiteral("%1.%2").arg(meta.version).arg(metaName));
    const QString path = firstExisting(m_meta, names);
    if (path.isEmpty())
        return fail(d.name,
                    makeError(QStringLiteral("missing (looked for %1)").arg(names.join(QStringLiteral(", "))),
                              rel(m_meta.filePath(names.first()))));
    auto bytes = read(path, meta.length >= 0 ? meta.length : kTargetsMaxLength,
                      QStringLiteral("delegated targets metadata"));
    if (!bytes)
        return fail(d.name, bytes.error());
    if (Status s = checkMeta(*bytes, meta, path, QStringLiteral("snapshot v%1").arg(m_snapshot.env.version));
        !s)
        return fail(d.name, s.error());
    auto parsed = parseTargets(*bytes, path);
    if (!parsed)
        return fail(d.name, parsed.error());
    auto sigs = verifyThreshold(parsed->env, parent.delegationKeys, d.keys,
                                QStringLiteral("the keys %1 delegates '%2' to").arg(parentName, d.name));
    if (!sigs)
        return fail(d.name, sigs.error());
    if (parsed->env.version != meta.version)
        return fail(d.name, makeError(QStringLiteral("is %1 v%2, snapshot v%3 names v%4")
                                          .arg(d.name)
                                          .arg(parsed->env.version)
                                          .arg(m_snapshot.env.version)
                                          .arg(meta.version),
                                      path, 0, QStringLiteral("signed.version")));
    m_res.delegations.emplace_back(d.name, state(parsed->env));
    if (!checkExpiry(d.name, parsed->env))
        return false;
    step(d.name, rel(path),
         QStringLiteral("delegated by %1: %2 v%3, %4 (%5 required), valid until %6")
             .arg(parentName, d.name)
             .arg(parsed->env.version)
             .arg(counted(qint64(*sigs), QStringLiteral("valid signature"),
                          QStringLiteral("valid signatures")))
             .arg(d.keys.threshold)
             .arg(formatTime(parsed->env.expires)));
    m_targets.insert(d.name, std::move(*parsed));
    return true;
}

bool Run::findTarget() {
    const QString& name = m_req.targetName;
    const QStringList parts = name.split(QLatin1Char('/'));
    if (name.isEmpty() || name.startsWith(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) ||
        parts.contains(QStringLiteral("..")) || parts.contains(QStringLiteral(".")) ||
        parts.contains(QString()))
        return fail(QStringLiteral("target"),
                    makeError(QStringLiteral("'%1' is not a target path inside the repository").arg(name)));
    // Pre-order depth-first search of the delegation tree (specification 5.6.7).
    std::vector<QString> toVisit{QStringLiteral("targets")};
    QSet<QString> visited;
    while (!toVisit.empty() && visited.size() <= kMaxDelegations) {
        const QString roleName = toVisit.back();
        toVisit.pop_back();
        if (visited.contains(roleName))
            continue;
        visited.insert(roleName);
        const Targets role = m_targets.value(roleName);
        if (role.targets.contains(name))
            return fetchTarget(role.targets.value(name), roleName);
        std::vector<QString> children;
        for (const DelegatedRole& d : role.delegations) {
            if (!d.covers(name))
                continue;
            if (!m_targets.contains(d.name) && !loadDelegated(roleName, role, d))
                return false;
            children.push_back(d.name);
            if (d.terminating) {
                toVisit.clear();
                break;
            }
        }
        toVisit.insert(toVisit.end(), children.rbegin(), children.rend());
    }
    return fail(QStringLiteral("target"),
                makeError(QStringLiteral("no targets role of the repository lists '%1'").arg(name),
                          rel(m_targets[QStringLiteral("targets")].env.file)));
}

bool Run::fetchTarget(const TargetFile& target, const QString& signedBy) {
    const QString role = QStringLiteral("target");
    if (!cancelled())
        return false;
    if (target.length > kTargetMaxLength)
        return fail(role, makeError(QStringLiteral("%1 bytes, more than the %2 a target may have here")
                                        .arg(target.length)
                                        .arg(kTargetMaxLength),
                                    m_targetsDir.filePath(target.path)));
    const QString dir = target.path.contains(QLatin1Char('/'))
                            ? target.path.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/')
                            : QString();
    const QString base = target.path.section(QLatin1Char('/'), -1);
    QStringList names;
    if (m_root.consistentSnapshot) {
        for (const QString& algo :
             {QStringLiteral("sha256"), QStringLiteral("sha512"), QStringLiteral("sha384")})
            if (target.hashes.contains(algo))
                names << dir + target.hashes.value(algo) + QLatin1Char('.') + base;
    }
    names << target.path;
    const QString path = firstExisting(m_targetsDir, names);
    if (path.isEmpty())
        return fail(role, makeError(QStringLiteral("missing (looked for %1 in %2)")
                                        .arg(names.join(QStringLiteral(", ")), rel(m_targetsDir.path())),
                                    rel(m_targetsDir.filePath(target.path))));
    const QString signer = QStringLiteral("%1 v%2").arg(signedBy).arg(m_targets[signedBy].env.version);
    const qint64 size = QFileInfo(path).size();
    if (size != target.length)
        return fail(role,
                    makeError(QStringLiteral("%1 bytes, %2 says %3").arg(size).arg(signer).arg(target.length),
                              rel(path)));
    auto bytes = read(path, target.length, QStringLiteral("target"));
    if (!bytes)
        return fail(role, bytes.error());
    if (bytes->size() != target.length)
        return fail(
            role,
            makeError(
                QStringLiteral("%1 bytes, %2 says %3").arg(bytes->size()).arg(signer).arg(target.length),
                rel(path)));
    if (Status s = checkHashes(*bytes, target.hashes, rel(path)); !s)
        return fail(role, makeError(s.error().message + QStringLiteral(" (in %1)").arg(signer), rel(path)));
    m_res.targetFile = rel(path);
    m_res.targetBytes = *bytes;
    m_res.targetSha256 = sha256Hex(*bytes);
    m_res.targetLength = bytes->size();
    m_res.targetSignedBy = signedBy;
    step(role, rel(path),
         QStringLiteral("%1: %2 bytes, %3 as %4 lists it")
             .arg(target.path)
             .arg(bytes->size())
             .arg(QStringList(target.hashes.keys()).join(QStringLiteral(" and ")), signer));
    m_res.ok = true;
    return true;
}

} // namespace

QString TrustedState::summary() const {
    QStringList parts{QStringLiteral("root v%1").arg(root.version)};
    if (timestamp.version)
        parts << QStringLiteral("timestamp v%1").arg(timestamp.version);
    if (snapshot.version)
        parts << QStringLiteral("snapshot v%1").arg(snapshot.version);
    if (targets.version)
        parts << QStringLiteral("targets v%1").arg(targets.version);
    for (const auto& [name, st] : delegations)
        parts << QStringLiteral("%1 v%2").arg(name).arg(st.version);
    QString s = parts.join(QStringLiteral(", "));
    if (updatedAt.isValid())
        s += QStringLiteral(" from %1").arg(formatTime(updatedAt));
    return s;
}

QJsonObject TrustedState::toJson() const {
    QJsonObject o{{QStringLiteral("anchorSha256"), anchorSha256},
                  {QStringLiteral("anchor"), anchorName},
                  {QStringLiteral("repository"), repository},
                  {QStringLiteral("root"), roleJson(root)},
                  {QStringLiteral("timestamp"), roleJson(timestamp)},
                  {QStringLiteral("snapshot"), roleJson(snapshot)},
                  {QStringLiteral("targets"), roleJson(targets)},
                  {QStringLiteral("verificationTime"), formatTime(verificationTime)},
                  {QStringLiteral("timeGiven"), timeGiven}};
    if (updatedAt.isValid())
        o.insert(QStringLiteral("since"), formatTime(updatedAt));
    QJsonObject meta;
    for (auto it = snapshotMeta.begin(); it != snapshotMeta.end(); ++it)
        meta.insert(it.key(), it.value());
    o.insert(QStringLiteral("snapshotMeta"), meta);
    QJsonObject del;
    for (const auto& [name, st] : delegations)
        del.insert(name, roleJson(st));
    o.insert(QStringLiteral("delegations"), del);
    return o;
}

QJsonObject ClientResult::toJson() const {
    QJsonObject o{{QStringLiteral("verified"), ok},
                  {QStringLiteral("repository"), repository},
                  {QStringLiteral("verificationTime"), formatTime(verificationTime)},
                  {QStringLiteral("timeGiven"), timeGiven},
                  {QStringLiteral("anchor"), QJsonObject{{QStringLiteral("name"), anchorName},
                                                         {QStringLiteral("sha256"), anchorSha256},
                                                         {QStringLiteral("version"), anchorVersion}}}};
    QJsonArray chain;
    for (qint64 v : rootChain)
        chain.append(v);
    o.insert(QStringLiteral("rootChain"), chain);
    if (trustedBefore) {
        o.insert(QStringLiteral("trustedState"), trustedBefore->toJson());
        o.insert(QStringLiteral("timestampSnapshotKeysChanged"), timestampSnapshotDropped);
    }
    if (root.version)
        o.insert(QStringLiteral("root"), roleJson(root));
    if (timestamp.version)
        o.insert(QStringLiteral("timestamp"), roleJson(timestamp));
    if (snapshot.version)
        o.insert(QStringLiteral("snapshot"), roleJson(snapshot));
    if (targets.version)
        o.insert(QStringLiteral("targets"), roleJson(targets));
    QJsonObject del;
    for (const auto& [name, st] : delegations)
        del.insert(name, roleJson(st));
    if (!del.isEmpty())
        o.insert(QStringLiteral("delegations"), del);
    if (ok)
        o.insert(QStringLiteral("target"), QJsonObject{{QStringLiteral("name"), targetName},
                                                       {QStringLiteral("file"), targetFile},
                                                       {QStringLiteral("length"), targetLength},
                                                       {QStringLiteral("sha256"), targetSha256},
                                                       {QStringLiteral("signedBy"), targetSignedBy}});
    else
        o.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("role"), failedRole},
                                                      {QStringLiteral("file"), error.file},
                                                      {QStringLiteral("field"), error.field},
                                                      {QStringLiteral("message"), error.message}});
    QJsonArray st;
    for (const ClientStep& s : steps)
        st.append(s.toJson());
    o.insert(QStringLiteral("steps"), st);
    return o;
}

ClientResult runClient(const ClientRequest& request, const std::function<void(const ClientStep&)>& onStep,
                       const std::atomic_bool* cancel) {
    ClientResult res;
    Run(request, res, onStep, cancel).run();
    return res;
}

} // namespace pb::tuf
