// proofbench bundle show: a bundle as structured data: components, coordinates, values, unknown files
#include "cli/BundleCompareSupport.h"

namespace pb::cli {

static int bundleShow(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle folder or imported bundle name"),
                     QStringLiteral("bundle show"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto read = ops::loadBundleSide(ops::Context(**db), p.positionalArguments().constFirst());
    if (!read)
        return fail(read.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(model::toJson(read->bundle));
        return kOk;
    }
    printBundle(read->bundle);
    return kOk;
}

Command bundleShowCommand() {
    Command p(QStringLiteral("bundle show"),
              QStringLiteral("a bundle as structured data: components, coordinates, values, unknown files"),
              QStringLiteral(
                  "A deployment bundle read as structured data (nothing is stored): components in order, "
                  "coordinates, values, manifests, unknown files."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("BUNDLE"),
                            QStringLiteral("A bundle folder, or an imported bundle's name or tree digest (an "
                                           "unambiguous prefix of 4 or more digits will do)."));
    p.handler = bundleShow;
    return p;
}

} // namespace pb::cli
