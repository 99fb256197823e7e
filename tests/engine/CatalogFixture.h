// Writes small AICR-layout catalogs of our own into a temporary directory, so each merge rule
// and each kind of bad input has a fixture a reader can see whole.
#pragma once

#include <QDir>
#include <QFile>
#include <QMap>
#include <QTemporaryDir>

namespace pbtest {

class CatalogFixture {
  public:
    CatalogFixture() {
        files[QStringLiteral("registry.yaml")] = R"(apiVersion: aicr.run/v1alpha2
kind: ComponentRegistry
components:
  - name: cert-manager
    helm: {defaultRepository: https://charts.jetstack.io, defaultChart: jetstack/cert-manager, defaultVersion: v1.17.2, defaultNamespace: cert-manager}
  - name: gpu-operator
    helm: {defaultRepository: https://helm.ngc.nvidia.com/nvidia, defaultChart: nvidia/gpu-operator, defaultVersion: v25.3.0, defaultNamespace: gpu-operator}
  - name: nfd
    helm: {defaultRepository: https://kubernetes-sigs.github.io/node-feature-discovery/charts, defaultChart: node-feature-discovery, defaultVersion: "0.17.3", defaultNamespace: nfd}
  - name: kustom
    kustomize: {defaultSource: https://github.com/example/kustom, defaultPath: deploy/base, defaultTag: v1.0.0}
)";
        files[QStringLiteral("validators/catalog.yaml")] = R"(apiVersion: validator.nvidia.com/v1alpha1
kind: ValidatorCatalog
metadata: {name: test-validators, version: "1.0.0"}
validators:
  - {name: operator-health, phase: deployment, image: example/deploy:latest}
  - {name: nccl-all-reduce-bw, phase: performance, image: example/perf:latest}
  - {name: dra-support, phase: conformance, image: example/conf:latest}
)";
        overlay(QStringLiteral("base"), R"(spec:
  constraints:
    - {name: K8s.server.version, value: ">= 1.30"}
  componentRefs:
    - name: cert-manager
      type: Helm
    - name: gpu-operator
      type: Helm
      dependencyRefs: [cert-manager]
      overrides: {driver: {enabled: true, version: "570"}, toolkit: {enabled: true}}
)");
    }

    // Adds overlays/<name>.yaml with the standard header and the given spec text.
    void overlay(const QString& name, const QByteArray& specText,
                 const QByteArray& apiVersion = "aicr.run/v1alpha2") {
        files[QStringLiteral("overlays/%1.yaml").arg(name)] =
            "kind: RecipeMetadata\napiVersion: " + apiVersion + "\nmetadata:\n  name: " + name.toUtf8() +
            "\n" + specText;
    }
    void mixin(const QString& name, const QByteArray& specText) {
        files[QStringLiteral("mixins/%1.yaml").arg(name)] =
            "kind: RecipeMixin\napiVersion: aicr.run/v1alpha2\nmetadata:\n  name: " + name.toUtf8() + "\n" +
            specText;
    }

    // Writes the files and returns the catalog root.
    QString write() {
        const QString root = dir.path() + QStringLiteral("/recipes");
        QDir(root).removeRecursively();
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const QString path = root + QLatin1Char('/') + it.key();
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile f(path);
            if (f.open(QIODevice::WriteOnly))
                f.write(it.value());
        }
        return root;
    }

    QMap<QString, QByteArray> files;
    QTemporaryDir dir;
};

} // namespace pbtest
