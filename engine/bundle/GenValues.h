// Helm values by dotted path, and the split of a component's install-time (dynamic) value paths
// out of its static values, as every deployer of bundle generate needs it.
#pragma once

#include "bundle/Generate.h"
#include "yaml/Yaml.h"

#include <QString>

#include <map>
#include <vector>

namespace pb::bundle {

// The value at "a.b.c", or nullptr when a key on the way is missing or not a mapping.
const yaml::Node* valueAt(const yaml::Node& root, const QString& dotted);
// Removes the value at "a.b.c" (maps left empty stay, as Go's map delete leaves them); false when
// there was none.
bool removeValueAt(yaml::Node& root, const QString& dotted);
// Sets the value at "a.b.c", creating maps on the way; a non-map in the way is replaced.
void setValueAt(yaml::Node& root, const QString& dotted, const yaml::Node& value);

// Moves each of c.dynamicPaths from c.values into c.clusterValues; a path the values lack is set to
// "" there, so the install-time file lists every path to fill in. Errors name the component and path.
Status splitDynamicValues(GenComponent& c);

// The dynamic paths of the options ("component:dotted.path") grouped onto the components, which
// may be named by name or by one of their valueOverrideKeys (`overrideKeys`: key -> component).
Status applyDynamicOptions(const QStringList& declarations, std::vector<GenComponent>& components,
                           const std::map<QString, QString>& overrideKeys);

} // namespace pb::bundle
