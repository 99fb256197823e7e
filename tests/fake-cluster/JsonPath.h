// The JSONPath templates of `kubectl get -o jsonpath=...`, as kubectl evaluates them (k8s.io/client-go
// util/jsonpath) for the forms deployment scripts use: text, "literals", {range EXPR}...{end}, and
// paths of fields (dots in a key escaped as \.), [*], [N] (negative from the end) and
// [?(@.path==literal)] / != filters. Missing keys print nothing; an index out of bounds is an error.
#pragma once

#include <QJsonValue>
#include <QString>

namespace fakecluster {

// The template applied to `data`, or an error message (kubectl's wording) in `error`.
QString evalJsonPath(const QString& tmpl, const QJsonValue& data, QString* error);

} // namespace fakecluster
