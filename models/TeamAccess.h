// The window's view of team roles (engine/db/Team.h): who the connection is, its role, and what the
// role may not do, for views to show and disable. Plain records from the engine, named here so that
// widgets reach them through models/.
#pragma once

#include "db/Team.h"

namespace pb::models {

using TeamAccess = db::Access;
using TeamRole = db::TeamRole;
using Capability = db::Capability;

// Empty when the role may take the action; otherwise the reason ("role proofbench_auditor may not
// import catalogs …").
inline QString refusal(const TeamAccess& access, Capability c) {
    return db::refusal(access, c);
}
inline bool allows(TeamRole role, Capability c) {
    return db::allows(role, c);
}

} // namespace pb::models
