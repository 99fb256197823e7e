// Small pieces every deployer layout of bundle generate writes with: the bundle templates in the
// resources, YAML nodes and documents as go-yaml writes them, values files, chart coordinates.
// Internal to engine/bundle (the Gen*.cpp files).
#pragma once

#include "bundle/Generate.h"
#include "yaml/Yaml.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <utility>
#include <vector>

namespace pb::bundle::gen {

// A bundle template from the resources (":/bundle/<resource>"); empty when it is missing.
QByteArray templateText(const QString& resource);
// Replaces each @KEY@ of the text by its value.
QByteArray fill(QByteArray text, const std::vector<std::pair<const char*, QByteArray>>& fields);
// Adds a file to the tree (render() sorts them at the end).
void put(BundleTree& tree, const QString& path, QByteArray bytes, bool exec = false);

// A values file: a comment naming what it is, then "---" and the document with sorted keys, indent
// 2 (empty maps write nothing), as AICR writes values files.
QByteArray valuesFile(const QString& what, const yaml::Node& values);
// A document in the order it was built, indent 2.
QByteArray encodeOrdered(const yaml::Node& doc);

yaml::Node strSeq(const QStringList& items);
yaml::Node kv(std::initializer_list<std::pair<const char*, yaml::Node>> entries);
yaml::Node s(const QString& v);
// A copy whose maps list their keys in sorted order, at every depth (as Go marshals a map).
yaml::Node sortedKeys(const yaml::Node& n);
// A document header: "# <what> (written by Proofbench bundle generate)", then "---".
QByteArray documentHeader(const QString& what);

// A Kubernetes DNS-1123 subdomain (what an Argo CD Application or project name must be).
bool isDnsSubdomain(const QString& name);

// A chart version without its leading "v" (Helm repositories match SemVer; OCI tags are literal).
QString normalizeVersion(const QString& v);
// The chart a component installs: its chart, or its name when it names none.
QString effectiveChart(const GenComponent& c);
// A Kubernetes-safe name for a repository URL, as flux and helmfile derive their source names:
// scheme and trailing "/" or ".git" dropped, lower case, runs of other characters turned into
// "-", at most 63 characters; `fallback` when nothing is left.
QString urlSlug(const QString& url, const QString& fallback);

} // namespace pb::bundle::gen
