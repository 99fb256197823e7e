#include "GenerateBundleDialog.h"

#include "Plural.h"
#include "common/OpRunner.h"

#include "bundle/TreeDigest.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace pb::widgets {

GenerateBundleDialog::GenerateBundleDialog(models::Workspace& workspace,
                                           std::shared_ptr<const catalog::Catalog> catalog,
                                           catalog::RecipeResult recipe, QString recipeLabel,
                                           QString catalogLabel, QWidget* parent)
    : QDialog(parent), m_workspace(workspace), m_catalog(std::move(catalog)), m_recipe(std::move(recipe)),
      m_recipeLabel(std::move(recipeLabel)), m_catalogLabel(std::move(catalogLabel)) {
    setWindowTitle(tr("Generate Deployment Bundle"));
    setObjectName(QStringLiteral("generateBundleDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* what = new QLabel(tr("Recipe <b>%1</b> from catalog version <b>%2</b>")
                                .arg(m_recipeLabel.toHtmlEscaped(), m_catalogLabel.toHtmlEscaped()));
    what->setWordWrap(true);
    layout->addWidget(what);

    auto* form = new QFormLayout;
    m_deployer = new QComboBox;
    // AICR's five deployers, each with what its bundle is made of.
    m_deployer->addItem(tr("Helm (deploy.sh, per-component values)"), QStringLiteral("helm"));
    m_deployer->addItem(tr("Argo CD (Applications, app-of-apps)"), QStringLiteral("argocd"));
    m_deployer->addItem(tr("Argo CD Helm chart (one chart of Applications)"), QStringLiteral("argocd-helm"));
    m_deployer->addItem(tr("Flux (HelmReleases, sources, Kustomization)"), QStringLiteral("flux"));
    m_deployer->addItem(tr("Helmfile (helmfile.yaml by dependency level)"), QStringLiteral("helmfile"));
    form->addRow(tr("&Deployer:"), m_deployer);

    m_outDir = new QLineEdit;
    m_outDir->setPlaceholderText(tr("an empty folder, or one this generator wrote"));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* outRow = new QHBoxLayout;
    outRow->addWidget(m_outDir, 1);
    outRow->addWidget(browse);
    auto* outLabel = new QLabel(tr("&Output folder:"));
    outLabel->setBuddy(m_outDir);
    form->addRow(outLabel, outRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder"), m_outDir->text());
        if (!dir.isEmpty())
            m_outDir->setText(dir);
    });

    m_nodeSelector = new QLineEdit;
    m_nodeSelector->setPlaceholderText(tr("key=value, … (GPU nodes)"));
    form->addRow(tr("Accelerated node &selector:"), m_nodeSelector);
    m_storageClass = new QLineEdit;
    form->addRow(tr("Storage &class:"), m_storageClass);
    m_nodeCount = new QSpinBox;
    m_nodeCount->setRange(0, 100000);
    m_nodeCount->setSpecialValueText(tr("not given"));
    form->addRow(tr("Estimated node &count:"), m_nodeCount);
    m_repoUrl = new QLineEdit;
    m_repoUrl->setObjectName(QStringLiteral("generateRepoUrl"));
    form->addRow(tr("&Repository URL:"), m_repoUrl);
    m_revision = new QLineEdit;
    m_revision->setObjectName(QStringLiteral("generateRevision"));
    m_revision->setPlaceholderText(tr("main"));
    form->addRow(tr("Target re&vision:"), m_revision);
    m_sets = new QPlainTextEdit;
    m_sets->setPlaceholderText(tr("component.path=value, one per line"));
    m_sets->setMaximumHeight(70);
    form->addRow(tr("Value o&verrides:"), m_sets);
    m_dynamic = new QPlainTextEdit;
    m_dynamic->setObjectName(QStringLiteral("generateDynamic"));
    m_dynamic->setMaximumHeight(55);
    form->addRow(tr("&Install-time values:"), m_dynamic);
    m_readinessHooks = new QCheckBox(tr("Readiness gate after each component that has one"));
    m_readinessHooks->setObjectName(QStringLiteral("generateReadinessHooks"));
    form->addRow(QString(), m_readinessHooks);
    m_serial = new QCheckBox(tr("One component at a time (not by dependency level)"));
    m_serial->setObjectName(QStringLiteral("generateSerial"));
    form->addRow(QString(), m_serial);
    layout->addLayout(form);
    // Each field is offered for the deployers that use it, and says what it is for that deployer.
    auto syncOptions = [this] {
        const QString d = m_deployer->currentData().toString();
        const bool argo = d == QLatin1String("argocd"), argoHelm = d == QLatin1String("argocd-helm"),
                   flux = d == QLatin1String("flux"), helm = d == QLatin1String("helm");
        m_repoUrl->setEnabled(argo || argoHelm || flux);
        m_repoUrl->setPlaceholderText(argoHelm ? tr("the registry or chart repository the chart is pushed to")
                                      : argo || flux ? tr("the Git repository the bundle is published to")
                                                     : tr("not used by this deployer"));
        m_revision->setEnabled(argo || flux);
        m_dynamic->setEnabled(!argo);
        m_dynamic->setPlaceholderText(
            argo ? tr("Argo CD keeps no install-time values")
                 : tr("component:path, one per line: kept out of the static values (%1)")
                       .arg(helm || d == QLatin1String("helmfile") ? tr("cluster-values.yaml")
                            : argoHelm                             ? tr("the chart's values.yaml")
                                                                   : tr("a ConfigMap")));
        m_readinessHooks->setEnabled(helm || argo || argoHelm);
        m_serial->setEnabled(!helm);
    };
    connect(m_deployer, &QComboBox::currentIndexChanged, this, syncOptions);
    syncOptions();

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setVisible(false);
    layout->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(QStringLiteral("generateStatus"));
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox;
    m_generate = buttons->addButton(tr("&Generate"), QDialogButtonBox::AcceptRole);
    m_open = buttons->addButton(tr("&Open Bundle"), QDialogButtonBox::ActionRole);
    m_open->setEnabled(false);
    m_cancel = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);
    connect(m_generate, &QPushButton::clicked, this, &GenerateBundleDialog::generate);
    connect(m_cancel, &QPushButton::clicked, this, &GenerateBundleDialog::onCancel);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_outcome)
            emit openBundleRequested(m_outcome->outDir);
    });
    resize(560, sizeHint().height());
}

GenerateBundleDialog::~GenerateBundleDialog() {
    // The job holds the catalog (a shared_ptr) and its own request, never the dialog; its result is
    // not delivered once the dialog is gone.
    m_task.cancel();
}

void GenerateBundleDialog::setRunning(bool running) {
    m_generate->setEnabled(!running);
    m_deployer->setEnabled(!running);
    m_outDir->setEnabled(!running);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
    m_progress->setVisible(running);
    if (running) {
        m_open->setEnabled(false);
        m_progress->setRange(0, 0);
    }
}

void GenerateBundleDialog::onCancel() {
    if (m_task.running()) {
        m_task.cancel();
        m_status->setText(tr("Cancelling…"));
        return;
    }
    reject();
}

void GenerateBundleDialog::generate() {
    if (m_task.running())
        return;
    if (!m_catalog) {
        m_status->setText(tr("The recipe's catalog is not loaded."));
        return;
    }
    const QString out = m_outDir->text().trimmed();
    if (out.isEmpty()) {
        m_status->setText(tr("Choose an output folder."));
        return;
    }
    auto request = std::make_shared<ops::BundleGenerateRequest>();
    request->recipe = m_recipe;
    request->recipeLabel = m_recipeLabel;
    request->catalogLabel = m_catalogLabel;
    request->outDir = out;
    Result<bundle::Deployer> deployer = bundle::parseDeployer(m_deployer->currentData().toString());
    if (!deployer) {
        m_status->setText(deployer.error().message);
        return;
    }
    request->options.deployer = *deployer;
    for (const QString& pair : m_nodeSelector->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            m_status->setText(tr("Accelerated node selector: '%1' is not key=value.").arg(pair.trimmed()));
            return;
        }
        request->options.acceleratedNodeSelector.insert(pair.left(eq).trimmed(), pair.mid(eq + 1).trimmed());
    }
    request->options.storageClass = m_storageClass->text().trimmed();
    request->options.estimatedNodeCount = m_nodeCount->value();
    if (m_repoUrl->isEnabled())
        request->options.repoUrl = m_repoUrl->text().trimmed();
    if (m_revision->isEnabled())
        request->options.targetRevision = m_revision->text().trimmed();
    if (m_dynamic->isEnabled())
        for (const QString& line : m_dynamic->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            if (!line.trimmed().isEmpty())
                request->options.dynamicValues << line.trimmed();
    request->options.readinessHooks = m_readinessHooks->isEnabled() && m_readinessHooks->isChecked();
    request->options.serial = m_serial->isEnabled() && m_serial->isChecked();
    for (const QString& line : m_sets->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty())
            request->options.sets << line.trimmed();

    setRunning(true);
    m_status->setText(tr("Generating…"));
    std::shared_ptr<const catalog::Catalog> cat = m_catalog;
    m_task = m_workspace.run<ops::BundleGenerateOutcome>(
        this,
        [request, cat](const ops::Context& ctx) {
            request->catalog = cat.get();
            return ops::bundleGenerate(ctx, *request);
        },
        [this](const Result<ops::BundleGenerateOutcome>& r) {
            const bool cancelled = m_task.cancelled();
            setRunning(false);
            if (!r) {
                m_status->setText(cancelled
                                      ? tr("Cancelled: no receipt was written (files already written stay).")
                                      : tr("Not generated: %1").arg(r.error().toString()));
                return;
            }
            m_outcome = *r;
            m_status->setText(tr("Wrote the %1 bundle to %2: %3, %4.\n%5 (receipt #%6)")
                                  .arg(bundle::deployerName(r->tree.deployer),
                                       QDir::toNativeSeparators(r->outDir),
                                       models::counted(qint64(r->tree.folders.size()), tr("install step"),
                                                       tr("install steps")),
                                       models::counted(qint64(r->tree.files.size()), tr("file"), tr("files")),
                                       bundle::treeDigestText(r->treeDigest))
                                  .arg(r->receiptSeq));
            m_open->setEnabled(true);
            emit generated(r->outDir, r->treeDigest);
        },
        [this](const ops::Progress& p) {
            if (p.total > 0) {
                m_progress->setRange(0, int(std::min<qint64>(p.total, 1 << 30)));
                m_progress->setValue(int(std::min<qint64>(p.done, 1 << 30)));
            }
            if (!m_task.cancelled())
                m_status->setText(p.what);
        });
}

} // namespace pb::widgets
