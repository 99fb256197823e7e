// Kubernetes' protobuf request bodies ("application/vnd.kubernetes.protobuf"): the "k8s\0" envelope
// around a runtime.Unknown, whose raw bytes are the object in the generated.proto messages of
// k8s.io/api. kubectl's typed commands (create namespace, create job, create configmap, create
// serviceaccount) send their objects this way, as to any real API server. This reads those kinds into
// the JSON the store keeps (the fields the commands set; others are skipped); any other kind is
// refused as a server without its protobuf would refuse it.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace kts {

// The object, or nullopt with `why` (not the envelope, a kind it does not read, malformed bytes).
std::optional<QJsonObject> decodeKubernetesProtobuf(const QByteArray& body, QString* why);

} // namespace kts
