// The object store behind the test API server: every object as Kubernetes JSON, one global
// resourceVersion counter, and a bounded event history that watches read from (older versions are
// "compacted" and answered with 410 Gone). One mutex guards everything; the condition variable wakes
// watchers and log followers on every change.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

namespace kts {

struct ResourceType {
    QString group;    // "" for core
    QString version;  // "v1"
    QString resource; // plural, e.g. "jobs"
    QString singular;
    QString kind;
    bool namespaced = true;
    bool creatable = true;
    QStringList shortNames;
    QStringList verbs;
    QString apiVersion() const { return group.isEmpty() ? version : group + QLatin1Char('/') + version; }
    // "jobs.batch", "pods": how Status messages name the resource
    QString qualified() const { return group.isEmpty() ? resource : resource + QLatin1Char('.') + group; }
};

const QList<ResourceType>& resourceTypes();
const ResourceType* findResourceType(const QString& group, const QString& version, const QString& resource);

struct Event {
    qint64 rv = 0;
    QString resource; // plural
    QString ns;
    QByteArray type; // ADDED, MODIFIED, DELETED
    QJsonObject object;
};

class Store {
  public:
    std::mutex mu;
    std::condition_variable changed;

    // Everything below requires `mu` held.
    const QJsonObject* find(const QString& resource, const QString& ns, const QString& name) const;
    QList<QJsonObject> list(const QString& resource, const QString& ns) const; // ns empty: all
    QJsonObject add(const QString& resource, QJsonObject object);              // stamps rv, uid, timestamp
    QJsonObject update(const QString& resource, QJsonObject object);           // bumps rv, MODIFIED
    QJsonObject remove(const QString& resource, const QString& ns, const QString& name); // DELETED
    qint64 currentRv() const { return rv_; }
    qint64 compactedRv() const { return compacted_; }
    // Drops the history so far: watches from an older version get 410.
    void compact();
    // Bumped by every compact(): open watches started before it end with 410 Gone, as a watch cache
    // that lost their position would.
    qint64 compactions() const { return compactions_; }
    void setHistoryLimit(qsizetype limit) { historyLimit_ = limit; }
    const std::deque<Event>& history() const { return history_; }

  private:
    void record(const QString& resource, const QByteArray& type, const QJsonObject& object);
    using Key = std::pair<QString, QString>; // namespace, name
    std::map<QString, std::map<Key, QJsonObject>> objects_;
    std::deque<Event> history_;
    qint64 rv_ = 0;
    qint64 compacted_ = 0;
    qint64 compactions_ = 0;
    qsizetype historyLimit_ = 20000;
};

QString nowTimestamp();               // RFC 3339, UTC, seconds
QString randomSuffix(int length = 5); // Kubernetes' generateName alphabet
bool setMeta(QJsonObject& object, const QString& key, const QJsonValue& value);
QJsonObject metadataOf(const QJsonObject& object);

} // namespace kts
