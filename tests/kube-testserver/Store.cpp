#include "Store.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTimeZone>
#include <QUuid>

namespace kts {

const QList<ResourceType>& resourceTypes() {
    static const QList<ResourceType> types = [] {
        const QStringList all{QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("get"),
                              QStringLiteral("list"), QStringLiteral("watch")};
        const QStringList readOnly{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")};
        const QStringList podVerbs{QStringLiteral("delete"), QStringLiteral("get"), QStringLiteral("list"),
                                   QStringLiteral("watch")};
        const QString core, v1 = QStringLiteral("v1");
        QList<ResourceType> t;
        t.append({core,
                  v1,
                  QStringLiteral("namespaces"),
                  QStringLiteral("namespace"),
                  QStringLiteral("Namespace"),
                  false,
                  true,
                  {QStringLiteral("ns")},
                  all});
        t.append({core,
                  v1,
                  QStringLiteral("nodes"),
                  QStringLiteral("node"),
                  QStringLiteral("Node"),
                  false,
                  false,
                  {QStringLiteral("no")},
                  readOnly});
        t.append({core,
                  v1,
                  QStringLiteral("configmaps"),
                  QStringLiteral("configmap"),
                  QStringLiteral("ConfigMap"),
                  true,
                  true,
                  {QStringLiteral("cm")},
                  all});
        t.append({core,
                  v1,
                  QStringLiteral("serviceaccounts"),
                  QStringLiteral("serviceaccount"),
                  QStringLiteral("ServiceAccount"),
                  true,
                  true,
                  {QStringLiteral("sa")},
                  all});
        t.append({core,
                  v1,
                  QStringLiteral("pods"),
                  QStringLiteral("pod"),
                  QStringLiteral("Pod"),
                  true,
                  false,
                  {QStringLiteral("po")},
                  podVerbs});
        t.append({core,
                  v1,
                  QStringLiteral("events"),
                  QStringLiteral("event"),
                  QStringLiteral("Event"),
                  true,
                  true,
                  {QStringLiteral("ev")},
                  all});
        t.append({QStringLiteral("batch"),
                  v1,
                  QStringLiteral("jobs"),
                  QStringLiteral("job"),
                  QStringLiteral("Job"),
                  true,
                  true,
                  {},
                  all});
        t.append({QStringLiteral("rbac.authorization.k8s.io"),
                  v1,
                  QStringLiteral("clusterroles"),
                  QStringLiteral("clusterrole"),
                  QStringLiteral("ClusterRole"),
                  false,
                  true,
                  {},
                  all});
        t.append({QStringLiteral("rbac.authorization.k8s.io"),
                  v1,
                  QStringLiteral("clusterrolebindings"),
                  QStringLiteral("clusterrolebinding"),
                  QStringLiteral("ClusterRoleBinding"),
                  false,
                  true,
                  {},
                  all});
        return t;
    }();
    return types;
}

const ResourceType* findResourceType(const QString& group, const QString& version, const QString& resource) {
    for (const ResourceType& t : resourceTypes())
        if (t.group == group && t.version == version && t.resource == resource)
            return &t;
    return nullptr;
}

QString nowTimestamp() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

QString randomSuffix(int length) {
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    QString out;
    for (int i = 0; i < length; ++i)
        out += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof alphabet - 1))]);
    return out;
}

QJsonObject metadataOf(const QJsonObject& object) {
    return object.value(QLatin1String("metadata")).toObject();
}

bool setMeta(QJsonObject& object, const QString& key, const QJsonValue& value) {
    QJsonObject meta = metadataOf(object);
    if (value.isUndefined())
        meta.remove(key);
    else
        meta.insert(key, value);
    object.insert(QLatin1String("metadata"), meta);
    return true;
}

const QJsonObject* Store::find(const QString& resource, const QString& ns, const QString& name) const {
    const auto type = objects_.find(resource);
    if (type == objects_.end())
        return nullptr;
    const auto it = type->second.find({ns, name});
    return it == type->second.end() ? nullptr : &it->second;
}

QList<QJsonObject> Store::list(const QString& resource, const QString& ns) const {
    QList<QJsonObject> out;
    const auto type = objects_.find(resource);
    if (type == objects_.end())
        return out;
    for (const auto& [key, object] : type->second)
        if (ns.isEmpty() || key.first == ns)
            out.append(object);
    return out;
}

QJsonObject Store::add(const QString& resource, QJsonObject object) {
    ++rv_;
    QJsonObject meta = metadataOf(object);
    meta.insert(QLatin1String("resourceVersion"), QString::number(rv_));
    if (meta.value(QLatin1String("uid")).toString().isEmpty())
        meta.insert(QLatin1String("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    meta.insert(QLatin1String("creationTimestamp"), nowTimestamp());
    object.insert(QLatin1String("metadata"), meta);
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    objects_[resource][{ns, meta.value(QLatin1String("name")).toString()}] = object;
    record(resource, "ADDED", object);
    return object;
}

QJsonObject Store::update(const QString& resource, QJsonObject object) {
    ++rv_;
    setMeta(object, QStringLiteral("resourceVersion"), QString::number(rv_));
    const QJsonObject meta = metadataOf(object);
    objects_[resource][{meta.value(QLatin1String("namespace")).toString(),
                        meta.value(QLatin1String("name")).toString()}] = object;
    record(resource, "MODIFIED", object);
    return object;
}

QJsonObject Store::remove(const QString& resource, const QString& ns, const QString& name) {
    auto& map = objects_[resource];
    const auto it = map.find({ns, name});
    if (it == map.end())
        return {};
    QJsonObject object = it->second;
    map.erase(it);
    ++rv_;
    setMeta(object, QStringLiteral("resourceVersion"), QString::number(rv_));
    record(resource, "DELETED", object);
    return object;
}

void Store::compact() {
    history_.clear();
    compacted_ = rv_;
    ++compactions_;
    changed.notify_all();
}

void Store::record(const QString& resource, const QByteArray& type, const QJsonObject& object) {
    const QJsonObject meta = metadataOf(object);
    history_.push_back({rv_, resource, meta.value(QLatin1String("namespace")).toString(), type, object});
    while (qsizetype(history_.size()) > historyLimit_) {
        compacted_ = history_.front().rv;
        history_.pop_front();
    }
    changed.notify_all();
}

} // namespace kts
