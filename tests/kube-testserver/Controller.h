// The script a test hands the server, and the controller that plays kubelet and job controller:
// each Job gets one Pod that goes Pending -> Running (log lines released over runMs) -> Succeeded or
// Failed, honouring activeDeadlineSeconds; every change goes through the Store so watches see it.
#pragma once

#include "Store.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

namespace kts {

struct CheckScript {
    int exitCode = 0;
    QByteArray log;
    QString terminationMessage;
    int runMs = 300;
    int pendingMs = 50;
    bool neverFinish = false;
    // Cluster faults for this check's pod (see --help): "" (none), "Pending" (never starts),
    // "Unschedulable", "ErrImagePull" (then ImagePullBackOff), "Deleted", "Evicted".
    QString podFault;
    int faultAfterMs = 100; // Deleted/Evicted: this long after the container starts
    // A server-wide fault fired when this check's container starts: "exit" (the process dies),
    // "revokeTokens" (every bearer token is 401 from then on), "compact" (history compacted: open
    // watches get 410 Gone, old resourceVersions are 410).
    QString serverFault;
};

// RBAC for bearer-token users (the client-certificate user is system:masters and may do anything).
// Rules are "VERB RESOURCE" with RESOURCE qualified by group ("jobs.batch", "pods", "pods/log",
// "pods/eviction", "clusterrolebindings.rbac.authorization.k8s.io"); either part may be "*".
struct Rbac {
    bool enabled = false;
    QString user = QStringLiteral("pb-token-user");
    QStringList tokens; // empty: every bearer token is this user
    QStringList allow{QStringLiteral("* *")};
    QStringList deny;
    bool allowed(const QString& verb, const QString& qualifiedResource) const;
};

// A validating admission webhook that denies matching requests.
struct AdmissionRule {
    QString webhook = QStringLiteral("deny.pb-kube-testserver.test");
    QString operation = QStringLiteral("CREATE"); // CREATE or DELETE
    QString resource;                             // qualified, e.g. "jobs.batch"; "*" any
    QString namePrefix;                           // empty: any name
    QString message = QStringLiteral("denied by policy");
    int code = 403;
    QString reason; // Status.reason (a webhook's own; often empty)
};

struct Faults {
    int dropWatchAfterEvents = 0;
    int tokenMaxUses = 0;
    int slowMs = 0;
    QStringList conflictOnCreate;
};

struct Script {
    QJsonObject serverVersion;
    QJsonArray nodes; // script form; empty: the default nodes
    bool nodesGiven = false;
    QMap<QString, CheckScript> checks;
    CheckScript defaultCheck;
    Faults faults;
    int historyLimit = 20000; // events kept for watch resume; older versions get 410
    // Graceful deletion: pods and namespaces linger with deletionTimestamp this long (the 30 s
    // grace period scaled down) before they are gone. 0: deleted at once.
    int deletionGraceMs = 0;
    int bookmarkMs = 1000; // idle time after which a watch with allowWatchBookmarks gets a BOOKMARK
    int exitAfterMs = 0;   // the process dies this long after start (0: never)
    Rbac rbac;
    QList<AdmissionRule> admission;
};

// Reads the script JSON; relative logFile paths are relative to the script's directory.
std::optional<Script> loadScript(const QString& path, QString* error);
QJsonObject defaultServerVersion();
// Node objects (without rv/uid) for the script's nodes, or two GPU nodes and one CPU node.
QList<QJsonObject> nodeObjects(const Script& script);

class Controller {
  public:
    enum class Stage { Pending, Running, Terminated };

    struct PodRun {
        QString ns, pod, job;
        QStringList containers;
        CheckScript check;
        Stage stage = Stage::Pending;
        std::chrono::steady_clock::time_point created, started;
        QList<QByteArray> lines;  // the whole log, line by line (each with its '\n')
        QList<QString> lineTimes; // when each released line was "written"
        int released = 0;
        int faultStep = 0;       // how far a podFault has progressed
        bool faultFired = false; // serverFault / Deleted / Evicted done
    };

    Controller(Store& store, const Script& script);
    ~Controller();
    Controller(const Controller&) = delete;
    Controller& operator=(const Controller&) = delete;

    void start();

    // With store.mu held:
    QJsonObject jobCreated(const QJsonObject& job); // returns the job as stored (with status)
    void podDeleted(const QString& ns, const QString& pod);
    // Graceful deletion: marks the object with deletionTimestamp (kills a pod's container) and
    // removes it once deletionGraceMs has passed; a namespace is emptied first. With no grace the
    // object goes at once. Returns the object as it now is (empty if it did not exist).
    QJsonObject deleteGracefully(const QString& resource, const QString& ns, const QString& name,
                                 const QString& disruptionReason = {});
    bool terminating(const QString& resource, const QString& ns, const QString& name) const;
    // Called (with store.mu held) when a check's serverFault fires.
    std::function<void(const QString& fault, const QString& check)> onServerFault;
    void jobDeleted(const QString& ns, const QString& job);
    const PodRun* run(const QString& ns, const QString& pod) const;

  private:
    void loop();
    void tick(); // with store.mu held
    void removeDueDoomed(
        std::chrono::steady_clock::time_point now); // deletions whose grace period ended, with store.mu held
    void removeNow(const QString& resource, const QString& ns, const QString& name);
    void failJob(PodRun& run, const QString& reason, const QString& message);
    void setPodPending(PodRun& run, const QJsonObject& podNow);
    void terminate(PodRun& run, int exitCode, const QString& reason, const QString& message);
    void updateJob(const PodRun& run, const std::function<void(QJsonObject& status)>& change);
    // A core/v1 Event about `involved` (a Pod or Job), as the scheduler, kubelet and job controller
    // record them: type Normal or Warning, reason, message, the reporting component.
    void event(const QJsonObject& involved, const QString& type, const QString& reason,
               const QString& message, const QString& component);
    void podEvent(const PodRun& run, const QString& type, const QString& reason, const QString& message,
                  const QString& component);
    void jobEvent(const PodRun& run, const QString& type, const QString& reason, const QString& message);
    const CheckScript& chooseCheck(const QJsonObject& job) const;

    struct JobRun {
        std::chrono::steady_clock::time_point start;
        int deadlineSeconds = -1;
        bool finished = false;
    };

    Store& store_;
    const Script& script_;
    std::map<std::pair<QString, QString>, PodRun> runs_;
    std::map<std::pair<QString, QString>, JobRun> jobs_;
    struct Doomed {
        QString resource, ns, name;
        std::chrono::steady_clock::time_point due;
    };
    std::vector<Doomed> doomed_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace kts
