// OpenAPI v3 for the kinds the test server serves, as a real API server publishes it: /openapi/v3
// lists one document per group-version ({"paths": {"api/v1": {"serverRelativeURL": ...}}}), and each
// document has the resources' paths, their operations tagged with x-kubernetes-group-version-kind and
// x-kubernetes-action, the write operations' dryRun / fieldManager / fieldValidation parameters, and
// a schema per kind. kubectl reads it to learn that the server validates fields itself
// (fieldValidation on PATCH), so `kubectl apply` and `create -f` work without --validate=false.
#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace kts {

QJsonObject openApiRoot();
// "api/v1", "apis/batch/v1", ...: the group-version's document, nullopt for one not served.
std::optional<QJsonObject> openApiDocument(const QString& groupVersionPath, const QString& serverVersion);

} // namespace kts
