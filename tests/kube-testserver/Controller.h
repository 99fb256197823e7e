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

namespace kts {

struct CheckScript {
    int exitCode = 0;
    QByteArray log;
    QString terminationMessage;
    int runMs = 300;
    int pendingMs = 50;
    bool neverFinish = false;
};

struct Faults {
    int dropWatchAfterEvents = 0;
    int tokenMaxUses = 0;
    int slowMs = 0;
    QStringList conflictOnCreate;
};

struct Script {
    QJsonObject serverVersion;
    QJsonArray nodes;          // script form; empty: the default nodes
    bool nodesGiven = false;
    QMap<QString, CheckScript> checks;
    CheckScript defaultCheck;
    Faults faults;
    int historyLimit = 20000;  // events kept for watch resume; older versions get 410
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
        QList<QByteArray> lines;       // the whole log, line by line (each with its '\n')
        QList<QString> lineTimes;      // when each released line was "written"
        int released = 0;
    };

    Controller(Store& store, const Script& script);
    ~Controller();
    Controller(const Controller&) = delete;
    Controller& operator=(const Controller&) = delete;

    void start();

    // With store.mu held:
    QJsonObject jobCreated(const QJsonObject& job);   // returns the job as stored (with status)
    void podDeleted(const QString& ns, const QString& pod);
    void jobDeleted(const QString& ns, const QString& job);
    const PodRun* run(const QString& ns, const QString& pod) const;

  private:
    void loop();
    void tick();  // with store.mu held
    void terminate(PodRun& run, int exitCode, const QString& reason, const QString& message);
    void updateJob(const PodRun& run, const std::function<void(QJsonObject& status)>& change);
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
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace kts
