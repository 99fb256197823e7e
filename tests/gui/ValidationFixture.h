// The Validation view's test set-up: pb-kube-testserver (tests/kube-testserver) on loopback with a
// script of our own, the NCCL log fixture of tests/fixtures/gui-validation, and the recipe whose
// performance phase has nccl-all-reduce-bw ">= 300".
#pragma once

#include "engine/KubeTestServer.h"

#include <QJsonObject>
#include <QString>

namespace pbgui {

inline QString validationFixture(const QString& name) {
    return QStringLiteral(PB_FIXTURES "/gui-validation/") + name;
}

// A leaf of the embedded sample-2 catalog whose validation runs nccl-all-reduce-bw against ">= 300".
inline const char* kNcclRecipe = "h100-eks-ubuntu-training-kubeflow";
inline const char* kNcclVersion = "sample-2";

// The script: nccl-all-reduce-bw prints the fixture's all_reduce_perf table over `runMs`
// (or never finishes).
inline QJsonObject ncclScript(int runMs, bool neverFinish = false) {
    QJsonObject check{{QStringLiteral("exitCode"), 0}, {QStringLiteral("runMs"), runMs}};
    if (neverFinish) {
        check.insert(QStringLiteral("neverFinish"), true);
        check.insert(QStringLiteral("log"), QStringLiteral("# nccl-tests starting on 16 ranks\n"));
    } else {
        check.insert(QStringLiteral("logFile"),
                     validationFixture(QStringLiteral("nccl-all-reduce-16gpu.txt")));
    }
    return QJsonObject{
        {QStringLiteral("checks"), QJsonObject{{QStringLiteral("nccl-all-reduce-bw"), check}}}};
}

} // namespace pbgui
