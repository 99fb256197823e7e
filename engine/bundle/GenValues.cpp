#include "bundle/GenValues.h"

#include <algorithm>

namespace pb::bundle {

using yaml::Node;

namespace {

bool validPath(const QString& dotted) {
    if (dotted.isEmpty())
        return false;
    for (const QString& k : dotted.split(QLatin1Char('.')))
        if (k.isEmpty())
            return false;
    return true;
}

} // namespace

const Node* valueAt(const Node& root, const QString& dotted) {
    const Node* n = &root;
    for (const QString& k : dotted.split(QLatin1Char('.'))) {
        if (!n->isMap())
            return nullptr;
        n = n->get(k.toStdString());
        if (!n)
            return nullptr;
    }
    return n;
}

bool removeValueAt(Node& root, const QString& dotted) {
    QStringList keys = dotted.split(QLatin1Char('.'));
    const QString last = keys.takeLast();
    Node* n = &root;
    for (const QString& k : keys) {
        if (!n->isMap())
            return false;
        n = n->get(k.toStdString());
        if (!n)
            return false;
    }
    return n->isMap() && n->remove(last.toStdString());
}

void setValueAt(Node& root, const QString& dotted, const Node& value) {
    const QStringList keys = dotted.split(QLatin1Char('.'));
    Node* n = &root;
    for (int i = 0; i < keys.size(); ++i) {
        if (!n->isMap())
            *n = Node::map();
        const std::string k = keys[i].toStdString();
        if (i == keys.size() - 1) {
            n->set(k, value);
            return;
        }
        Node* next = n->get(k);
        if (!next || !next->isMap()) {
            n->set(k, Node::map());
            next = n->get(k);
        }
        n = next;
    }
}

Status splitDynamicValues(GenComponent& c) {
    for (const QString& path : c.dynamicPaths) {
        if (!validPath(path))
            return makeError(
                QStringLiteral("component '%1': '%2' is not a dotted value path").arg(c.name, path), {}, 0,
                QStringLiteral("--dynamic"));
        Node value = Node::str("");
        if (const Node* v = valueAt(c.values, path)) {
            value = *v;
            removeValueAt(c.values, path);
        }
        setValueAt(c.clusterValues, path, value);
    }
    return {};
}

Status applyDynamicOptions(const QStringList& declarations, std::vector<GenComponent>& components,
                           const std::map<QString, QString>& overrideKeys) {
    for (const QString& d : declarations) {
        const qsizetype colon = d.indexOf(QLatin1Char(':'));
        if (colon <= 0 || colon == d.size() - 1 || d.contains(QLatin1Char('=')))
            return makeError(
                QStringLiteral("'%1' is not component:path (e.g. gpu-operator:driver.version)").arg(d), {}, 0,
                QStringLiteral("--dynamic"));
        QString comp = d.left(colon);
        const QString path = d.mid(colon + 1);
        if (!validPath(path))
            return makeError(QStringLiteral("'%1': '%2' is not a dotted value path").arg(d, path), {}, 0,
                             QStringLiteral("--dynamic"));
        auto named = [&](const QString& n) {
            return std::find_if(components.begin(), components.end(),
                                [&](const GenComponent& c) { return c.name == n; });
        };
        auto it = named(comp);
        if (it == components.end())
            if (auto k = overrideKeys.find(comp); k != overrideKeys.end())
                it = named(k->second);
        if (it == components.end())
            return makeError(
                QStringLiteral("'%1': the recipe has no enabled component or value override key '%2'")
                    .arg(d, comp),
                {}, 0, QStringLiteral("--dynamic"));
        if (!it->dynamicPaths.contains(path))
            it->dynamicPaths << path;
    }
    return {};
}

} // namespace pb::bundle
