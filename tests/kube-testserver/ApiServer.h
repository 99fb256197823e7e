// The HTTP side of the test API server: authentication (client certificate or bearer token),
// discovery, and get/list/watch/create/patch/delete of the served resources with Kubernetes
// semantics (Status errors, label and field selectors, resourceVersion, chunked watch and log
// streams), plus Table output for kubectl.
#pragma once

#include "Controller.h"
#include "Http.h"
#include "Store.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <mutex>
#include <optional>

namespace kts {

class ApiServer {
  public:
    ApiServer(const Script& script, const QStringList& tokens, const QString& tokensFile);
    // One JSON line per request (method, target, protocol, host, sni, auth, user, code unknown):
    // what tests compare with what a client sent.
    void setRequestLog(const QString& path) { requestLog_ = path; }
    void start(int port); // seeds namespaces and nodes, starts the controller
    // Serves one connection until it closes (runs on the connection's own thread).
    void serve(TlsStream& stream);

  private:
    struct Identity {
        QString user;
        bool admin = false; // system:masters (the client certificate)
    };
    struct Route {
        const ResourceType* type = nullptr;
        QString ns, name, subresource;
        bool nsGiven = false;
    };

    bool handle(Exchange& http, const Request& request);
    bool sendJson(Exchange& http, const Request& request, int code, const QJsonObject& body);
    bool sendStatus(Exchange& http, const Request& request, int code, const QString& reason,
                    const QString& message, const QJsonObject& details = {});
    bool discovery(Exchange& http, const Request& request, bool* handled);
    std::optional<Route> route(const QStringList& segments, QString* why) const;

    bool getOne(Exchange& http, const Request& request, const Route& r);
    bool list(Exchange& http, const Request& request, const Route& r);
    bool watch(Exchange& http, const Request& request, const Route& r);
    bool create(Exchange& http, const Request& request, const Route& r);
    bool patch(Exchange& http, const Request& request, const Route& r);
    bool remove(Exchange& http, const Request& request, const Route& r);
    bool logs(Exchange& http, const Request& request, const Route& r);

    // With store_.mu held: validates and stores `object`; on failure fills code/reason/message.
    struct Failure {
        int code = 0;
        QString reason, message;
        QJsonObject details;
    };
    std::optional<QJsonObject> createLocked(const ResourceType& type, const QString& ns, QJsonObject object,
                                            bool dryRun, Failure& failure);
    std::optional<Failure> namespaceRefusal(const ResourceType& type, const QString& ns,
                                            const QJsonObject& meta);
    void deleteJobLocked(const QJsonObject& job, const QString& propagation);
    // The admission webhooks of the script: a Failure when a rule denies the operation.
    std::optional<Failure> admit(const char* operation, const ResourceType& type, const QString& ns,
                                 const QString& name) const;
    std::optional<Identity> identify(const Peer& peer, const Request& request);
    // RBAC: nullopt when allowed, else the Forbidden message.
    std::optional<QString> forbidden(const Identity& who, const QString& verb, const ResourceType* type,
                                     const QString& subresource, const QString& ns,
                                     const QString& name) const;
    bool evict(Exchange& http, const Request& request, const Route& r);
    bool selfSubjectAccessReview(Exchange& http, const Request& request, const Identity& who);
    bool selfSubjectRulesReview(Exchange& http, const Request& request, const Identity& who);
    bool selfSubjectReview(Exchange& http, const Request& request, const Identity& who);
    void serverFault(const QString& fault, const QString& check);

    const Script& script_;
    QStringList tokens_;
    QString tokensFile_;
    int port_ = 0;
    Store store_;
    Controller controller_;
    std::mutex authMu_;
    QHash<QString, int> tokenUses_;
    QStringList conflictsLeft_;
    std::atomic<bool> tokensRevoked_{false};
    QString requestLog_;
    std::mutex logMu_; // conflictOnCreate prefixes not yet used (under store_.mu)
};

} // namespace kts
