#include "evidence/Evidence.h"
#include "core/Files.h"

#include "core/Hash.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <QSet>

#include <algorithm>

namespace pb::evidence {

using yaml::Node;

QString sourceSlug(const QString& issuer, const QString& identity) {
    return sha256Hex((issuer + QLatin1Char('\n') + identity).toUtf8()).left(32);
}

QString profileSegment(const QString& profile) {
    QString s = profile.toLower();
    s.replace(QLatin1Char('='), QLatin1Char('-'));
    return s;
}

QString signerClassName(SignerClass c) {
    switch (c) {
    case SignerClass::FirstParty:
        return QStringLiteral("first-party");
    case SignerClass::Community:
        return QStringLiteral("community");
    case SignerClass::Partner:
        return QStringLiteral("partner");
    case SignerClass::Reported:
        break;
    }
    return QStringLiteral("reported-only");
}

QString layoutName(PointerLayout l) {
    switch (l) {
    case PointerLayout::PerSource:
        return QStringLiteral("per-source");
    case PointerLayout::FlatPending:
        return QStringLiteral("flat pending");
    case PointerLayout::LegacyFlat:
        return QStringLiteral("legacy flat");
    case PointerLayout::Misplaced:
        break;
    }
    return QStringLiteral("misplaced");
}

PredicateVersion predicateVersionOf(const QString& t) {
    if (t == QLatin1String("https://aicr.run/recipe-evidence/v1"))
        return PredicateVersion::V1;
    if (t == QLatin1String("https://aicr.run/recipe-evidence/v2"))
        return PredicateVersion::V2;
    if (t == QLatin1String("https://aicr.run/recipe-evidence/v3"))
        return PredicateVersion::V3;
    if (t == QLatin1String("https://aicr.nvidia.com/recipe-evidence/v1"))
        return PredicateVersion::LegacyV1;
    return PredicateVersion::Unknown;
}

// ---- allowlist ----------------------------------------------------------------------------------

const AllowlistEntry* Allowlist::match(const QString& issuer, const QString& identity) const {
    const QString slug = sourceSlug(issuer, identity);
    for (const AllowlistEntry& e : entries) {
        if (e.issuer != issuer)
            continue;
        if (!e.source.isEmpty() && e.source == slug)
            return &e;
        if (!e.identityPattern.isEmpty() && e.identityRegex.match(identity).hasMatch())
            return &e;
    }
    return nullptr;
}

SignerClass Allowlist::classify(const QString& issuer, const QString& identity) const {
    const AllowlistEntry* e = match(issuer, identity);
    return e ? e->cls : SignerClass::Reported;
}

Result<Allowlist> parseAllowlist(const QByteArray& bytes, const QString& file) {
    Result<Node> doc = yaml::parse(bytes, file);
    if (!doc)
        return doc.error();
    if (!doc->isMap())
        return makeError(QStringLiteral("expected a mapping with firstParty, community and partner"), file,
                         doc->line);
    Allowlist a;
    a.file = file;
    if (const Node* v = doc->get("schemaVersion"); v && v->isScalar())
        a.schemaVersion = v->text();
    static const QRegularExpression hex32(QStringLiteral("^[0-9a-f]{32}$"));
    const std::pair<const char*, SignerClass> classes[] = {{"firstParty", SignerClass::FirstParty},
                                                           {"community", SignerClass::Community},
                                                           {"partner", SignerClass::Partner}};
    QSet<QString> seen;
    for (const auto& [key, cls] : classes) {
        const Node* list = doc->get(key);
        if (!list || list->isNull())
            continue;
        if (!list->isSeq())
            return makeError(QStringLiteral("expected a list"), file, list->line, QString::fromLatin1(key));
        for (size_t i = 0; i < list->items.size(); ++i) {
            const Node& n = list->items[i];
            const QString field = QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i);
            if (!n.isMap())
                return makeError(
                    QStringLiteral("expected an entry with issuer and source or identityPattern"), file,
                    n.line, field);
            AllowlistEntry e;
            e.cls = cls;
            auto text = [&](const char* k) {
                const Node* v = n.get(k);
                return v && v->isScalar() && !v->isNull() ? v->text() : QString();
            };
            e.label = text("label");
            e.issuer = text("issuer");
            e.source = text("source");
            e.identityPattern = text("identityPattern");
            if (n.get("identity"))
                return makeError(
                    QStringLiteral("an allowlist entry may not name an identity (PII); use source or "
                                   "identityPattern"),
                    file, n.line, field + QStringLiteral(".identity"));
            if (e.issuer.isEmpty())
                return makeError(QStringLiteral("issuer is required"), file, n.line,
                                 field + QStringLiteral(".issuer"));
            if (e.source.isEmpty() == e.identityPattern.isEmpty())
                return makeError(QStringLiteral("give exactly one of source or identityPattern"), file,
                                 n.line, field);
            if (!e.source.isEmpty() && !hex32.match(e.source).hasMatch())
                return makeError(QStringLiteral("source must be 32 lower-case hex characters"), file, n.line,
                                 field + QStringLiteral(".source"));
            if (!e.identityPattern.isEmpty()) {
                if (!e.identityPattern.startsWith(QLatin1Char('^')) ||
                    !e.identityPattern.endsWith(QLatin1Char('$')))
                    return makeError(QStringLiteral("identityPattern must be anchored (^...$)"), file, n.line,
                                     field + QStringLiteral(".identityPattern"));
                e.identityRegex = QRegularExpression(e.identityPattern);
                if (!e.identityRegex.isValid())
                    return makeError(QStringLiteral("identityPattern is not a valid regular expression: %1")
                                         .arg(e.identityRegex.errorString()),
                                     file, n.line, field + QStringLiteral(".identityPattern"));
            }
            const QString key2 =
                e.issuer + QLatin1Char('\n') + e.source + QLatin1Char('\n') + e.identityPattern;
            if (seen.contains(key2))
                return makeError(QStringLiteral("the same signer is listed twice (classes must not overlap)"),
                                 file, n.line, field);
            seen.insert(key2);
            a.entries.push_back(std::move(e));
        }
    }
    return a;
}

// ---- pointers -----------------------------------------------------------------------------------

QString Pointer::claimedSlug() const {
    if (!isSigned())
        return {};
    const Signer& s = *attestations.front().signer;
    return sourceSlug(s.issuer, s.identity);
}

namespace {

QString scalarText(const Node* n) {
    return n && n->isScalar() && !n->isNull() ? n->text() : QString();
}

PointerLayout layoutOf(const QString& rel, QString* dirRecipe, QString* dirSource) {
    const QStringList parts = rel.split(QLatin1Char('/'));
    if (parts.size() == 3) {
        *dirRecipe = parts[0];
        *dirSource = parts[1];
        return PointerLayout::PerSource;
    }
    if (parts.size() == 1)
        return PointerLayout::FlatPending; // refined to LegacyFlat by the predicate type
    return PointerLayout::Misplaced;
}

} // namespace

Pointer unreadPointer(const QString& rel, const QString& reason) {
    Pointer p;
    p.file = rel;
    p.raw = QByteArray("", 0);
    p.layout = layoutOf(rel, &p.dirRecipe, &p.dirSource);
    p.problems << reason;
    p.unread = true;
    return p;
}

Pointer readPointer(const QString& abs, const QString& rel, bool followLinks) {
    if (!followLinks && !abs.startsWith(QLatin1Char(':')) && !isRegularFileNoFollow(abs))
        return unreadPointer(
            rel, QStringLiteral("not read: %1 is %2, not a regular file").arg(rel, describeFileType(abs)));
    QFile f(abs);
    if (Status opened = openInputFile(f, rel); !opened)
        return unreadPointer(rel, QStringLiteral("not read: %1").arg(opened.error().message));
    if (f.size() > kMaxPointerBytes)
        return unreadPointer(rel,
                             QStringLiteral("not read: %1 is %2 bytes, over the %3-byte limit for a pointer")
                                 .arg(rel)
                                 .arg(f.size())
                                 .arg(kMaxPointerBytes));
    Result<QByteArray> bytes = readLimited(f, kMaxPointerBytes, rel);
    if (!bytes)
        return unreadPointer(rel, QStringLiteral("not read: %1").arg(bytes.error().message));
    return parsePointer(*bytes, rel);
}

Pointer parsePointer(const QByteArray& bytes, const QString& rel) {
    Pointer p;
    p.file = rel;
    p.raw = bytes.isNull() ? QByteArray("", 0) : bytes;
    p.layout = layoutOf(rel, &p.dirRecipe, &p.dirSource);
    if (bytes.trimmed().isEmpty()) {
        p.problems << (bytes.isEmpty() ? QStringLiteral("empty file; not a pointer")
                                       : QStringLiteral("blank file; not a pointer"));
        return p;
    }
    Result<Node> doc = yaml::parse(bytes, rel);
    if (!doc) {
        p.problems << doc.error().toString();
        return p;
    }
    if (!doc->isMap()) {
        p.problems << QStringLiteral("not a pointer: expected a mapping with recipe and attestations");
        return p;
    }
    p.recipe = scalarText(doc->get("recipe"));
    p.profile = scalarText(doc->get("profile"));
    p.schemaVersion = scalarText(doc->get("schemaVersion"));
    const Node* atts = doc->get("attestations");
    if (atts && atts->isSeq()) {
        for (const Node& a : atts->items) {
            Attestation at;
            if (!a.isMap())
                continue;
            at.attestedAtText = scalarText(a.get("attestedAt"));
            at.attestedAt = QDateTime::fromString(at.attestedAtText, Qt::ISODate);
            if (at.attestedAt.isValid())
                at.attestedAt = at.attestedAt.toUTC();
            if (const Node* b = a.get("bundle"); b && b->isMap()) {
                at.bundleDigest = scalarText(b->get("digest"));
                at.bundleOci = scalarText(b->get("oci"));
                at.predicateType = scalarText(b->get("predicateType"));
            }
            if (const Node* s = a.get("signer"); s && s->isMap()) {
                Signer sg;
                sg.identity = scalarText(s->get("identity"));
                sg.issuer = scalarText(s->get("issuer"));
                if (const Node* r = s->get("rekorLogIndex");
                    r && r->isScalar() && r->resolve() == yaml::Resolved::Int)
                    sg.rekorLogIndex = r->text().toLongLong();
                at.signer = sg;
            }
            p.attestations.push_back(at);
        }
    } else if (atts) {
        p.problems << QStringLiteral("attestations: expected a list");
    }
    if (p.layout == PointerLayout::FlatPending && !p.attestations.empty() &&
        predicateVersionOf(p.attestations.front().predicateType) == PredicateVersion::LegacyV1)
        p.layout = PointerLayout::LegacyFlat;
    return p;
}

void checkPointer(Pointer& p, const Allowlist* allowlist, bool allowPending) {
    QStringList& out = p.problems;
    if (!out.isEmpty() && p.recipe.isEmpty() && p.attestations.empty())
        return; // could not be read at all; the reason is already there
    // Pointer rules.
    if (p.recipe.isEmpty())
        out << QStringLiteral("recipe: required");
    static const QRegularExpression schema(QStringLiteral("^1\\.0(\\.\\d+)?$"));
    if (!schema.match(p.schemaVersion).hasMatch())
        out << QStringLiteral("schemaVersion: '%1' is not supported (expected 1.0 or 1.0.x)")
                   .arg(p.schemaVersion);
    if (p.attestations.empty())
        out << QStringLiteral("attestations: exactly one entry required, found none");
    else if (p.attestations.size() > 1)
        out << QStringLiteral(
                   "attestations: %1 entries; schema 2.0 (several attestations) is not yet supported")
                   .arg(p.attestations.size());
    if (!p.profile.isEmpty() && !p.recipe.endsWith(QLatin1Char('-') + profileSegment(p.profile)))
        out << QStringLiteral("profile: recipe '%1' does not end with '-%2'")
                   .arg(p.recipe, profileSegment(p.profile));
    if (const Attestation* a = p.attestation()) {
        const PredicateVersion v = predicateVersionOf(a->predicateType);
        if (v == PredicateVersion::Unknown)
            out << QStringLiteral("bundle.predicateType: unknown type '%1'").arg(a->predicateType);
        if (v == PredicateVersion::V1 && !p.profile.isEmpty())
            out << QStringLiteral(
                "bundle.predicateType: recipe-evidence/v1 must not carry a profile (use v2 or v3)");
        if (v == PredicateVersion::V2 && p.profile.isEmpty())
            out << QStringLiteral("bundle.predicateType: recipe-evidence/v2 requires a profile");
        if (!a->bundleOci.isEmpty() && !a->bundleDigest.startsWith(QLatin1String("sha256:")))
            out << QStringLiteral("bundle.digest: must start with sha256: when bundle.oci is set");
        if (a->bundleDigest.isEmpty())
            out << QStringLiteral("bundle.digest: required (the pinned OCI manifest digest)");
        if (a->signer && (a->signer->identity.isEmpty() || a->signer->issuer.isEmpty()))
            out << QStringLiteral("signer: identity and issuer are both required");
        if (!a->attestedAtText.isEmpty() && !a->attestedAt.isValid())
            out << QStringLiteral("attestedAt: '%1' is not an RFC 3339 time").arg(a->attestedAtText);
    }
    // Signer class.
    if (allowlist && p.isSigned()) {
        const Signer& s = *p.attestation()->signer;
        p.signerClass = allowlist->classify(s.issuer, s.identity);
    }
    // Tree contract.
    switch (p.layout) {
    case PointerLayout::PerSource: {
        if (p.recipe != p.dirRecipe)
            out << QStringLiteral("tree: pointer names recipe '%1' but lies under '%2/'")
                       .arg(p.recipe, p.dirRecipe);
        if (!p.isSigned()) {
            out << QStringLiteral("tree: a pointer under a source directory must be signed");
            break;
        }
        const QString slug = p.claimedSlug();
        if (slug != p.dirSource)
            out << QStringLiteral("tree: source directory '%1' does not match the signer's slug %2 "
                                  "(sha256 of issuer and identity)")
                       .arg(p.dirSource, slug);
        if (const Attestation* a = p.attestation(); a && !a->bundleDigest.isEmpty()) {
            QString expected = a->bundleDigest;
            expected.replace(QLatin1Char(':'), QLatin1Char('-'));
            if (QFileInfo(p.file).fileName() != expected + QStringLiteral(".yaml"))
                out << QStringLiteral("tree: file name should be %1.yaml (the bundle digest)").arg(expected);
        }
        if (p.signerClass == SignerClass::FirstParty)
            out << QStringLiteral("tree: first-party signers ingest directly and must not commit pointers");
        else if (allowlist && p.signerClass == SignerClass::Reported)
            out << QStringLiteral("tree: signer is not in the allowlist (community or partner required)");
        break;
    }
    case PointerLayout::FlatPending: {
        if (!allowPending) {
            out << QStringLiteral("tree: flat pointers are pending-only and not accepted here");
            break;
        }
        if (QFileInfo(p.file).completeBaseName() != p.recipe)
            out << QStringLiteral("tree: a pending pointer must be named %1.yaml").arg(p.recipe);
        if (p.isSigned())
            out << QStringLiteral(
                "tree: a flat pointer must be unsigned (pending); signed pointers live under "
                "<recipe>/<source>/");
        if (const Attestation* a = p.attestation();
            a && (a->bundleOci.isEmpty() || a->bundleDigest.isEmpty()))
            out << QStringLiteral("tree: a pending pointer needs bundle.oci and bundle.digest");
        break;
    }
    case PointerLayout::LegacyFlat:
        if (QFileInfo(p.file).completeBaseName() != p.recipe)
            out << QStringLiteral("tree: a legacy pointer must be named %1.yaml").arg(p.recipe);
        break;
    case PointerLayout::Misplaced:
        out << QStringLiteral(
            "tree: pointers lie exactly two levels deep (<recipe>/<source>/sha256-<hex>.yaml)");
        break;
    }
}

Result<EvidenceTree> scanEvidence(const QString& dirIn, const QString& allowlistFile) {
    QString root = QFileInfo(dirIn).absoluteFilePath();
    if (QDir(root).exists(QStringLiteral("recipes/evidence")))
        root += QStringLiteral("/recipes/evidence");
    else if (QDir(root).exists(QStringLiteral("evidence")) &&
             !QFileInfo::exists(root + QStringLiteral("/allowlist.yaml")))
        root += QStringLiteral("/evidence");
    if (!QFileInfo(root).isDir())
        return makeError(QStringLiteral("evidence directory does not exist"), dirIn);
    EvidenceTree tree;
    tree.root = root;
    const QString allow = allowlistFile.isEmpty() ? root + QStringLiteral("/allowlist.yaml") : allowlistFile;
    if (QFileInfo::exists(allow)) {
        Result<QByteArray> bytes =
            readFileLimited(allow, limits::kConfigFile, QStringLiteral("the allowlist"));
        if (!bytes)
            return bytes.error();
        Result<Allowlist> a = parseAllowlist(*bytes, allow);
        if (!a)
            return a.error();
        tree.allowlist = std::move(*a);
    } else if (!allowlistFile.isEmpty()) {
        return makeError(QStringLiteral("allowlist not found"), allowlistFile);
    }
    // Every entry is looked at (links and pipes, sockets, devices included) so that none is passed
    // over in silence: a *.yaml that is not a regular file is an invalid pointer saying so; anything
    // else that is neither a regular file nor a directory is listed in tree.skipped.
    QDirIterator it(root, QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    const QDir base(root);
    while (it.hasNext()) {
        const QString abs = it.next();
        const QFileInfo fi = it.fileInfo();
        const QString rel = base.relativeFilePath(abs);
        const bool regular = !fi.isSymLink() && isRegularFileNoFollow(abs);
        if (!fi.fileName().endsWith(QLatin1String(".yaml"))) {
            if (!regular && !(fi.isDir() && !fi.isSymLink()))
                tree.skipped
                    << QStringLiteral(
                           "%1: %2, not read (links are not followed; only regular files are pointers)")
                           .arg(rel, fi.isSymLink() && fi.isDir()
                                         ? QStringLiteral("a symbolic link to a directory")
                                         : describeFileType(abs));
            continue;
        }
        if (rel == QLatin1String("allowlist.yaml"))
            continue;
        if (fi.isDir() && !fi.isSymLink())
            continue; // a directory named *.yaml: walked into, not a pointer
        Pointer p = readPointer(abs, rel);
        checkPointer(p, tree.allowlist ? &*tree.allowlist : nullptr);
        tree.pointers.push_back(std::move(p));
    }
    tree.skipped.sort();
    std::sort(tree.pointers.begin(), tree.pointers.end(),
              [](const Pointer& a, const Pointer& b) { return a.file < b.file; });
    return tree;
}

} // namespace pb::evidence
