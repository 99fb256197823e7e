#include "cli/Commands.h"
#include "CliUtil.h"

#include "db/Database.h"

namespace pb::cli {

namespace {

// The full command line the entry points of CliValidate.cpp, CliOci.cpp and CliReceipts.cpp take:
// program, verb, sub-command, then the arguments.
QStringList fullLine(const QStringList& args, const char* verb, const char* sub = nullptr) {
    QStringList full{args.value(0), QString::fromLatin1(verb)};
    if (sub)
        full << QString::fromLatin1(sub);
    return full + args.mid(1);
}

QList<Command> buildTable() {
    auto S = [](const char* s) { return QString::fromUtf8(s); };
    QList<Command> t;
    auto add = [&](const char* verb, const char* sub, const char* synopsis, const char* summary, Handler h) -> Command& {
        t.append(Command{S(verb), S(sub), S(synopsis), S(summary), h, nullptr, {}});
        return t.last();
    };
    // catalogs and recipes
    add("catalog", "import", "--version LABEL DIR", "import a catalog directory (AICR recipes/ layout) as a version, all or nothing",
        catalogImport);
    add("catalog", "list", "", "list the catalog versions in the database", catalogList);
    add("recipe", "", "--catalog DIR | --version LABEL [criteria] [--all-leaves] [--digest]",
        "resolve criteria (or every leaf) into a RecipeResult; --digest for its digest", recipeVerb);
    add("recipe", "digest", "FILE", "the evidence recipe digest of a recipe.yaml", recipeDigestVerb);
    add("graph", "", "--catalog DIR | --version LABEL [criteria] [--format dot|svg|png|json]",
        "a recipe's component graph, laid out by Graphviz (dot, svg, png, json)", graphVerb);
    add("diff", "", "--from DIR|LABEL --to DIR|LABEL [criteria | --all-leaves]",
        "what changed between two catalogs, for one recipe or every leaf", diffVerb);
    // evidence
    add("evidence", "import", "[--allowlist FILE] [--bundles DIR] DIR", "read evidence pointers (AICR recipes/evidence) into the database",
        evidenceImport);
    add("evidence", "check", "[--pointer FILE] [--key PUB | --trusted-root FILE] BUNDLE",
        "check an evidence bundle (directory or OCI layout) offline", evidenceCheck);
    add("evidence", "sign", "--key KEY [--sign-incomplete] BUNDLE", "sign an evidence bundle and write its pointer", evidenceSign);
    add("evidence", "fetch", "POINTER_OR_DIR", "pull the bundles evidence pointers pin, with their signatures, and check them",
        [](const QStringList& a) { return ociVerbs(fullLine(a, "evidence", "fetch")); });
    add("evidence", "push", "DIR --to REF [--key KEY [--sign-incomplete]]", "publish an evidence bundle to a registry and write its pointer",
        [](const QStringList& a) { return ociVerbs(fullLine(a, "evidence", "push")); });
    add("health", "", "[--version LABEL] [--format markdown|json|csv]",
        "the health table: each recipe coordinate and its evidence status", healthVerb);
    // signatures
    add("verify", "", "--bundle FILE (--artifact FILE | --digest sha256:HEX) signer flags | --batch MANIFEST",
        "verify a Sigstore bundle offline (cosign's flags), or a MANIFEST.tsv with --batch", verifyVerb);
    add("trusted-root", "update", "--tuf DIR [--anchor ROOT_JSON] [--at TIME] [--from-anchor] [--format json]",
        "take trusted_root.json from a TUF repository copy, verified offline from a pinned root, and store it", trustedRootUpdate);
    add("trusted-root", "list", "[--format json]", "the stored trusted roots, the default marked, with their TUF provenance", trustedRootList);
    add("release", "verify", "DIR --version vX.Y.Z [--trusted-root FILE] [--catalog-version LABEL] [identity flags]",
        "verify an AICR release offline: its Sigstore bundles, checksum list, assets and recipe catalog", releaseVerify);
    add("keygen", "", "--out NAME [--from FILE] [--cosign]", "create (or import) an encrypted ECDSA P-256 signing key and its .pub",
        keygenVerb);
    add("sign-blob", "", "--key KEY --bundle OUT FILE", "sign a file offline into a Sigstore bundle", signBlobVerb);
    add("attest", "", "--key KEY --subject NAME=sha256:HEX --predicate-type URI --predicate FILE --bundle OUT",
        "sign an in-toto statement (DSSE) offline into a Sigstore bundle", attestVerb);
    // deployment bundles
    add("bundle", "generate", "(--catalog DIR | --version LABEL) (criteria | --leaf NAME) | --recipe FILE --deployer helm|argocd [--out DIR] [--set C.PATH=V]... [--key KEY]",
        "write the deployment bundle of a recipe in AICR's helm or argocd layout", bundleGenerate);
    add("bundle", "index", "DIR [--format json]",
        "write a digest index for a bundle (one payload per object, a platform digest) that 'records check' verifies", bundleIndex);
    add("bundle", "sign", "--key KEY DIR", "seal a deployment bundle: checksums.txt and an SLSA provenance attestation", bundleSign);
    add("bundle", "verify", "[--key PUB | identity flags] [--min-trust-level LEVEL] DIR",
        "verify a deployment bundle offline and print its trust level", bundleVerify);
    add("bundle", "push", "DIR --to REF", "publish a deployment bundle to a registry",
        [](const QStringList& a) { return ociVerbs(fullLine(a, "bundle", "push")); });
    add("bundle", "import", "[--name NAME] [--deployer D] [--replace] DIR",
        "read a bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile) into the database", bundleImport);
    add("bundle", "list", "", "the deployment bundles imported into the database", bundleList);
    add("bundle", "show", "DIR|NAME [--format json]", "a bundle as structured data: components, coordinates, values, unknown files",
        bundleShow);
    add("bundle", "diff", "A B | --from-version L1 --to-version L2 (criteria | --leaf NAME) [--deployer D] [--format text|json|markdown]",
        "what changed between two deployment bundles (folders, imported, or generated from two catalog versions)", bundleDiff);
    // registries
    add("oci", "pull", "REF --to LAYOUT_DIR [--allow-unpinned-tag] [--referrers]",
        "pull an artifact (by digest) and its blobs into an OCI image layout",
        [](const QStringList& a) { return ociVerbs(fullLine(a, "oci", "pull")); });
    // validation and performance
    add("validate", "", "[recipe flags] [--kubeconfig FILE]",
        "run a recipe's validation phases on a cluster (kubeconfig) and write the evidence",
        [](const QStringList& a) { return validationVerbs(fullLine(a, "validate")); });
    add("runs", "list", "[--coordinate NAME]", "validation runs and imported performance results, newest first",
        [](const QStringList& a) { return validationVerbs(fullLine(a, "runs", "list")); });
    add("runs", "show", "RUN [--log CHECK]", "one run's checks, metrics and reason (or one check's log)",
        [](const QStringList& a) { return validationVerbs(fullLine(a, "runs", "show")); })
        .arguments = {{QStringLiteral("RUN"), QStringLiteral("The run's id (see 'proofbench runs list').")}};
    add("runs", "leftovers", "[RUN] [--all]", "what validation runs could not delete from the cluster",
        [](const QStringList& a) { return validationVerbs(fullLine(a, "runs", "leftovers")); });
    add("runs", "cleanup", "RUN [--context C] [--retry-limit SEC]", "delete what a validation run left on the cluster",
        [](const QStringList& a) { return validationVerbs(fullLine(a, "runs", "cleanup")); })
        .arguments = {{QStringLiteral("RUN"), QStringLiteral("The run's id (see 'proofbench runs leftovers').")}};
    add("perf", "import", "FILE --kind nccl|aiperf|genai-perf|inference-perf [--coordinate NAME]",
        "parse and score an nccl-tests log or an AIPerf / GenAI-Perf / inference-perf report",
        [](const QStringList& a) { return validationVerbs(fullLine(a, "perf", "import")); });
    // the record
    add("receipts", "list", "[--kind K] [--result R] [--since T] [--until T] [--limit N]",
        "the receipts ledger, oldest first: what was done, on which inputs, with what result",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "receipts", "list")); });
    add("receipts", "show", "N", "one receipt with its inputs and outputs",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "receipts", "show")); });
    add("receipts", "export", "[--out FILE] [--key KEY]", "all receipts and the chain head (signed with --key)",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "receipts", "export")); });
    add("receipts", "verify", "", "recompute the receipts chain; name the first receipt that breaks it",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "receipts", "verify")); });
    add("records", "import", "DIR", "store ConfigHub records in the database (transactional, idempotent)",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "records", "import")); });
    add("records", "check", "DIR [--format json]", "check ConfigHub records offline: each record's fields, checks and digests",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "records", "check")); });
    add("records", "stages", "DIR", "the stage table of each recipe entry of ConfigHub records",
        [](const QStringList& a) { return receiptsVerbs(fullLine(a, "records", "stages")); });
    // HTML and Markdown come from the engine; only PDF needs a QApplication (ReportCommand.cpp).
    add("report", "", "--format html|pdf|markdown --out FILE [--version LABEL] [--filter TEXT]",
        "the release review report (health, evidence, charts, diff, receipts head)", reportVerb)
        .needsGui = reportNeedsGui;
    return t;
}

} // namespace

const QList<Command>& commands() {
    static const QList<Command> table = buildTable();
    return table;
}

QStringList verbs() {
    QStringList v;
    for (const Command& c : commands())
        if (!v.contains(c.verb))
            v << c.verb;
    return v;
}

bool isVerb(const QString& word) { return verbs().contains(word); }

const Command* findCommand(const QString& verb, const QString& sub) {
    const Command* bare = nullptr;
    for (const Command& c : commands()) {
        if (c.verb != verb)
            continue;
        if (!sub.isEmpty() && c.sub == sub)
            return &c;
        if (c.sub.isEmpty())
            bare = &c;
    }
    return bare;
}

const Command* commandNamed(const QString& name) {
    for (const Command& c : commands())
        if (c.name() == name)
            return &c;
    return nullptr;
}

QString generalHelp() {
    QString text = QStringLiteral(
        "Proofbench - a workbench for AICR recipes, evidence and signatures.\n"
        "\n"
        "Usage:\n"
        "  proofbench [--db PATH]                     start the desktop app\n"
        "  proofbench [--db PATH] <verb> [options]    run a command without a window\n"
        "\n"
        "Verbs:\n");
    int width = 0;
    for (const Command& c : commands())
        width = std::max(width, int(c.name().size()));
    for (const Command& c : commands())
        text += QStringLiteral("  %1  %2\n").arg(c.name(), -width).arg(c.summary);
    text += QStringLiteral(
        "\n"
        "Global options (before or after the verb):\n"
        "  --db PATH       the database file (default: %1)\n"
        "  -h, --help      this help; 'proofbench <verb> --help' for a verb's options\n"
        "  -v, --version   the version\n"
        "\n"
        "Exit status: 0 success, 1 failure (reason on stderr), 2 usage error.\n")
                .arg(db::Database::defaultPath());
    return text;
}

QString groupHelp(const QString& verb) {
    QList<const Command*> subs;
    for (const Command& c : commands())
        if (c.verb == verb && !c.sub.isEmpty())
            subs << &c;
    if (subs.isEmpty())
        return {};
    QStringList names;
    QStringList left;
    int width = 0;
    for (const Command* c : subs) {
        names << c->sub;
        left << (c->synopsis.isEmpty() ? c->sub : c->sub + QLatin1Char(' ') + c->synopsis);
        width = std::max(width, int(left.last().size()));
    }
    width = std::min(width, 48);
    QString text = QStringLiteral("Usage: proofbench %1 <%2> [options]\n\n").arg(verb, names.join(QLatin1Char('|')));
    for (qsizetype i = 0; i < subs.size(); ++i) {
        if (left.at(i).size() > width)
            text += QStringLiteral("  %1\n  %2  %3\n").arg(left.at(i), QString(width, QLatin1Char(' ')), subs.at(i)->summary);
        else
            text += QStringLiteral("  %1  %2\n").arg(left.at(i), -width).arg(subs.at(i)->summary);
    }
    text += QStringLiteral("\nRun 'proofbench %1 <command> --help' for the options of each.\n").arg(verb);
    return text;
}

int dispatch(const QStringList& args) {
    const QString verb = args.value(1);
    if (!isVerb(verb)) {
        err() << "proofbench: unknown verb '" << verb << "'\n"
              << "Verbs: " << verbs().join(QStringLiteral(", ")) << "\n"
              << "Run 'proofbench --help' for usage." << Qt::endl;
        return kUsage;
    }
    const QString sub = args.value(2);
    if (const Command* c = findCommand(verb, sub)) {
        QStringList rest{args.value(0)};
        rest += args.mid(c->sub.isEmpty() ? 2 : 3);
        return c->handler(rest);
    }
    // A verb made only of sub-commands, without a known one.
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out() << groupHelp(verb);
        out().flush();
        return sub.isEmpty() ? kUsage : kOk;
    }
    return usage(QStringLiteral("unknown %1 command '%2'").arg(verb, sub), verb);
}

} // namespace pb::cli
