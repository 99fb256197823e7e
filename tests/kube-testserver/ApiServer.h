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

#include <mutex>
#include <optional>

namespace kts {

class ApiServer {
  public:
    ApiServer(const Script& script, const QStringList& tokens, const QString& tokensFile);
    void start(int port);  // seeds namespaces and nodes, starts the controller
    // Serves one connection until it closes (runs on the connection's own thread).
    void serve(TlsStream& stream);

  private:
    struct Route {
        const ResourceType* type = nullptr;
        QString ns, name, subresource;
        bool nsGiven = false;
    };

    bool handle(HttpConnection& http, const Request& request);
    bool authenticate(const TlsStream& stream, const Request& request);
    bool sendJson(HttpConnection& http, const Request& request, int code, const QJsonObject& body);
    bool sendStatus(HttpConnection& http, const Request& request, int code, const QString& reason,
                    const QString& message, const QJsonObject& details = {});
    bool discovery(HttpConnection& http, const Request& request, bool* handled);
    std::optional<Route> route(const QStringList& segments, QString* why) const;

    bool getOne(HttpConnection& http, const Request& request, const Route& r);
    bool list(HttpConnection& http, const Request& request, const Route& r);
    bool watch(HttpConnection& http, const Request& request, const Route& r);
    bool create(HttpConnection& http, const Request& request, const Route& r);
    bool patch(HttpConnection& http, const Request& request, const Route& r);
    bool remove(HttpConnection& http, const Request& request, const Route& r);
    bool logs(HttpConnection& http, const Request& request, const Route& r);

    // With store_.mu held: validates and stores `object`; on failure fills code/reason/message.
    struct Failure {
        int code = 0;
        QString reason, message;
        QJsonObject details;
    };
    std::optional<QJsonObject> createLocked(const ResourceType& type, const QString& ns, QJsonObject object,
                                            bool dryRun, Failure& failure);
    void deleteJobLocked(const QJsonObject& job, const QString& propagation);
    void deleteNamespaceLocked(const QString& ns);

    const Script& script_;
    QStringList tokens_;
    QString tokensFile_;
    int port_ = 0;
    Store store_;
    Controller controller_;
    std::mutex authMu_;
    QHash<QString, int> tokenUses_;
    QStringList conflictsLeft_;  // conflictOnCreate prefixes not yet used (under store_.mu)
};

} // namespace kts
