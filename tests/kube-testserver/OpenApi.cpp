#include "OpenApi.h"

#include "Store.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QStringList>

namespace kts {

namespace {

QString pathOf(const ResourceType& t) {
    return t.group.isEmpty() ? QStringLiteral("api/") + t.version
                             : QStringLiteral("apis/%1/%2").arg(t.group, t.version);
}

// The schema name of a kind, as Kubernetes names its definitions (io.k8s.api.<group>.<version>.<Kind>).
QString schemaName(const ResourceType& t) {
    const QString group =
        t.group.isEmpty() ? QStringLiteral("core") : t.group.section(QLatin1Char('.'), 0, 0);
    return QStringLiteral("io.k8s.api.%1.%2.%3").arg(group, t.version, t.kind);
}

QJsonObject gvk(const ResourceType& t) {
    return QJsonObject{{QStringLiteral("group"), t.group},
                       {QStringLiteral("version"), t.version},
                       {QStringLiteral("kind"), t.kind}};
}

QJsonObject queryParam(const char* name, const char* description) {
    return QJsonObject{
        {QStringLiteral("name"), QLatin1String(name)},
        {QStringLiteral("in"), QStringLiteral("query")},
        {QStringLiteral("description"), QLatin1String(description)},
        {QStringLiteral("schema"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
        {QStringLiteral("uniqueItems"), true}};
}

QJsonArray writeParams() {
    return QJsonArray{
        queryParam("dryRun", "When present, modifications are not persisted (All)."),
        queryParam("fieldManager", "A name for the actor making the changes."),
        queryParam("fieldValidation",
                   "Ignore, Warn or Strict: what the server does with unknown or duplicate fields."),
    };
}

QJsonObject ref(const QString& schema) {
    return QJsonObject{{QStringLiteral("$ref"), QStringLiteral("#/components/schemas/") + schema}};
}

QJsonObject operation(const ResourceType& t, const QString& action, const QString& id, bool write,
                      const QString& bodyType = {}) {
    QJsonObject op{
        {QStringLiteral("operationId"), id},
        {QStringLiteral("x-kubernetes-action"), action},
        {QStringLiteral("x-kubernetes-group-version-kind"), gvk(t)},
        {QStringLiteral("responses"),
         QJsonObject{
             {QStringLiteral("200"),
              QJsonObject{{QStringLiteral("description"), QStringLiteral("OK")},
                          {QStringLiteral("content"),
                           QJsonObject{{QStringLiteral("application/json"),
                                        QJsonObject{{QStringLiteral("schema"), ref(schemaName(t))}}}}}}}}}};
    if (write)
        op.insert(QStringLiteral("parameters"), writeParams());
    if (!bodyType.isEmpty())
        op.insert(QStringLiteral("requestBody"),
                  QJsonObject{
                      {QStringLiteral("content"),
                       QJsonObject{{bodyType, QJsonObject{{QStringLiteral("schema"), ref(schemaName(t))}}}}},
                      {QStringLiteral("required"), true}});
    return op;
}

QJsonObject kindSchema(const ResourceType& t) {
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("description"), QStringLiteral("%1 (as served by pb-kube-testserver)").arg(t.kind)},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("apiVersion"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
             {QStringLiteral("kind"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
             {QStringLiteral("metadata"),
              QJsonObject{
                  {QStringLiteral("allOf"),
                   QJsonArray{ref(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"))}}}}}},
        {QStringLiteral("x-kubernetes-group-version-kind"), QJsonArray{gvk(t)}}};
}

QJsonObject objectMetaSchema() {
    QJsonObject props;
    for (const char* s : {"name", "generateName", "namespace", "uid", "resourceVersion", "creationTimestamp",
                          "deletionTimestamp"})
        props.insert(QLatin1String(s), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    for (const char* m : {"labels", "annotations"})
        props.insert(QLatin1String(m),
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                 {QStringLiteral("additionalProperties"),
                                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}});
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), props}};
}

QStringList groupVersionPaths() {
    QStringList out;
    for (const ResourceType& t : resourceTypes())
        if (!out.contains(pathOf(t)))
            out << pathOf(t);
    return out;
}

} // namespace

QJsonObject openApiRoot() {
    QJsonObject paths;
    for (const QString& gv : groupVersionPaths()) {
        const QString hash = QString::fromLatin1(
            QCryptographicHash::hash(gv.toUtf8(), QCryptographicHash::Sha512).toHex().toUpper().left(128));
        paths.insert(gv, QJsonObject{{QStringLiteral("serverRelativeURL"),
                                      QStringLiteral("/openapi/v3/%1?hash=%2").arg(gv, hash)}});
    }
    return QJsonObject{{QStringLiteral("paths"), paths}};
}

std::optional<QJsonObject> openApiDocument(const QString& groupVersionPath, const QString& serverVersion) {
    if (!groupVersionPaths().contains(groupVersionPath))
        return std::nullopt;
    QJsonObject paths, schemas;
    schemas.insert(QStringLiteral("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"), objectMetaSchema());
    for (const ResourceType& t : resourceTypes()) {
        if (pathOf(t) != groupVersionPath)
            continue;
        const QString base =
            QLatin1Char('/') + pathOf(t) +
            (t.namespaced ? QStringLiteral("/namespaces/{namespace}/") : QStringLiteral("/")) + t.resource;
        const QString id = t.kind + (t.group.isEmpty() ? QStringLiteral("CoreV1") : QString());
        QJsonObject collection{{QStringLiteral("get"),
                                operation(t, QStringLiteral("list"), QStringLiteral("list") + id, false)}};
        QJsonObject item{
            {QStringLiteral("get"), operation(t, QStringLiteral("get"), QStringLiteral("read") + id, false)},
            {QStringLiteral("delete"),
             operation(t, QStringLiteral("delete"), QStringLiteral("delete") + id, false)}};
        if (t.creatable) {
            collection.insert(QStringLiteral("post"),
                              operation(t, QStringLiteral("post"), QStringLiteral("create") + id, true,
                                        QStringLiteral("*/*")));
            item.insert(QStringLiteral("put"),
                        operation(t, QStringLiteral("put"), QStringLiteral("replace") + id, true,
                                  QStringLiteral("*/*")));
            item.insert(QStringLiteral("patch"),
                        operation(t, QStringLiteral("patch"), QStringLiteral("patch") + id, true,
                                  QStringLiteral("application/strategic-merge-patch+json")));
        }
        paths.insert(base, collection);
        paths.insert(base + QStringLiteral("/{name}"), item);
        schemas.insert(schemaName(t), kindSchema(t));
    }
    return QJsonObject{
        {QStringLiteral("openapi"), QStringLiteral("3.0.0")},
        {QStringLiteral("info"), QJsonObject{{QStringLiteral("title"), QStringLiteral("Kubernetes")},
                                             {QStringLiteral("version"), serverVersion}}},
        {QStringLiteral("paths"), paths},
        {QStringLiteral("components"), QJsonObject{{QStringLiteral("schemas"), schemas}}}};
}

} // namespace kts
