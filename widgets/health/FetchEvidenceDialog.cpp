#include "FetchEvidenceDialog.h"

#include "RegistryCredentialsDialog.h"
#include "RegistryModels.h"
#include "TableSetup.h"
#include "evidence/Bundle.h"
#include "oci/Artifact.h"
#include "oci/Layout.h"
#include "receipts/Ledger.h"
#include "db/Database.h"
#include "store/EvidenceStore.h"
#include "store/VerificationStore.h"

#include <QCloseEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMutex>
#include <QMutexLocker>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace pb::widgets {

using models::FetchQueueModel;
using models::FetchState;

struct FetchEvidenceDialog::Outcome {
    int row = -1;
    FetchState state = FetchState::Failed;
    QString detail, cacheDir;
    bool signaturePulled = false;
    bool imported = false;
};

namespace {

// Imports write the database: one at a time across every dialog (SQLite has one writer).
QMutex& importMutex() {
    static QMutex m;
    return m;
}

QString checkDetail(const evidence::BundleCheck& check, bool signaturePulled) {
    QStringList parts;
    if (check.exitCode >= 2) {
        for (const evidence::CheckStep& s : check.steps)
            if (s.status == evidence::StepStatus::Failed) {
                parts << QStringLiteral("%1: %2").arg(s.name, s.detail);
                break;
            }
        if (parts.isEmpty())
            parts << QStringLiteral("incomplete bundle");
    } else if (check.exitCode == 1) {
        parts << QStringLiteral("the bundle records failed tests");
    }
    if (check.signature)
        parts << (check.signature->verified ? QStringLiteral("signature verified") : QStringLiteral("signature: %1").arg(check.signature->summary()));
    else if (check.signaturePresent)
        parts << QStringLiteral("signature pulled, not checked (no trusted root)");
    else
        parts << (signaturePulled ? QStringLiteral("signature pulled") : QStringLiteral("no signature referrer"));
    return parts.join(QStringLiteral("; "));
}

} // namespace

FetchEvidenceDialog::FetchEvidenceDialog(db::Database& db, std::vector<evidence::Pointer> pointers, RegistrySettings settings,
                                         QWidget* parent)
    : QDialog(parent), m_db(db), m_settings(std::move(settings)) {
    setObjectName(QStringLiteral("fetchEvidenceDialog"));
    setWindowTitle(tr("Fetch Evidence"));
    m_model = new FetchQueueModel(this);
    m_model->setObjectName(QStringLiteral("fetchQueueModel"));
    m_model->setPointers(std::move(pointers));
    m_pool = new QThreadPool(this);
    m_pool->setObjectName(QStringLiteral("fetchPool"));
    m_pool->setMaxThreadCount(2);

    m_intro = new QLabel(this);
    m_intro->setObjectName(QStringLiteral("fetchIntro"));
    m_intro->setWordWrap(true);
    m_intro->setText(tr("Pulls the bundle each pointer pins (by digest) and its Sigstore signature referrer into the "
                        "local cache, checks it offline and imports it. %n bundle(s).",
                        nullptr, m_model->rowCount()));

    m_plainHttp = new QLineEdit(m_settings.plainHttpRegistries.join(QStringLiteral(", ")), this);
    m_plainHttp->setObjectName(QStringLiteral("fetchPlainHttp"));
    m_plainHttp->setPlaceholderText(tr("none: HTTPS everywhere"));
    m_plainHttp->setToolTip(tr("Registries (host:port) spoken to over plain HTTP, as the CLI's --plain-http-registry. "
                               "Every other registry is HTTPS with certificate verification."));
    m_cacheLabel = new QLabel(QDir::toNativeSeparators(m_settings.effectiveCacheDir()), this);
    m_cacheLabel->setObjectName(QStringLiteral("fetchCacheDir"));
    m_cacheLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* form = new QGridLayout;
    form->addWidget(new QLabel(tr("Plain HTTP registries:"), this), 0, 0);
    form->addWidget(m_plainHttp, 0, 1);
    form->addWidget(new QLabel(tr("Cache:"), this), 1, 0);
    form->addWidget(m_cacheLabel, 1, 1);
    form->setColumnStretch(1, 1);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("fetchTable"));
    m_table->setModel(m_model);
    setupTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setColumnWidth(FetchQueueModel::PointerColumn, 240);
    m_table->setColumnWidth(FetchQueueModel::ReferenceColumn, 260);
    m_table->setColumnWidth(FetchQueueModel::StateColumn, 130);
    m_table->setColumnWidth(FetchQueueModel::BytesColumn, 150);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("fetchProgress"));
    m_progress->setRange(0, std::max(1, m_model->rowCount()));
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m bundles"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("fetchSummary"));
    m_summary->setWordWrap(true);

    m_start = new QPushButton(tr("&Fetch"), this);
    m_start->setObjectName(QStringLiteral("fetchStart"));
    m_start->setToolTip(tr("Fetch, check and import every bundle listed"));
    m_start->setDefault(true);
    m_cancelButton = new QPushButton(tr("&Cancel"), this);
    m_cancelButton->setObjectName(QStringLiteral("fetchCancel"));
    m_cancelButton->setToolTip(tr("Stop the running pulls (nothing half-written stays in the cache)"));
    m_registries = new QPushButton(tr("&Registry Credentials…"), this);
    m_registries->setObjectName(QStringLiteral("fetchRegistries"));
    m_registries->setToolTip(tr("Where each registry's credentials come from, and an access test"));
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("fetchClose"));
    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &FetchEvidenceDialog::cancel);
    connect(m_registries, &QPushButton::clicked, this, &FetchEvidenceDialog::openRegistries);
    connect(m_close, &QPushButton::clicked, this, &QDialog::close);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_registries);
    buttons->addStretch(1);
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    resize(980, 420);
    updateSummary();
    updateButtons();
}

FetchEvidenceDialog::~FetchEvidenceDialog() {
    if (m_cancel)
        *m_cancel = true;
    m_pool->waitForDone();
}

void FetchEvidenceDialog::setConcurrency(int n) {
    m_pool->setMaxThreadCount(std::max(1, n));
}

void FetchEvidenceDialog::readSettingsFields() {
    m_settings.plainHttpRegistries = RegistrySettings::parseList(m_plainHttp->text());
}

bool FetchEvidenceDialog::start() {
    if (m_running > 0 || m_model->rowCount() == 0)
        return false;
    readSettingsFields();
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_cancelled = false;
    m_started = true;
    m_imported = 0;
    // Restarting after a run: only rows that did not end valid go again.
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const FetchState s = m_model->itemAt(r).state;
        if (s != FetchState::Valid && s != FetchState::ValidFailedPhases) {
            m_model->setProgress(r, 0, -1);
            m_model->setState(r, FetchState::Queued);
        }
    }
    // Signatures are checked against the database's default trusted root, as an import does.
    auto root = std::make_shared<std::optional<sigstore::TrustedRoot>>();
    if (auto def = store::VerificationStore(m_db).defaultTrustedRoot(); def)
        *root = std::move(*def);
    const oci::ClientOptions base = m_settings.clientOptions();
    const QString cache = m_settings.effectiveCacheDir();
    const QString dbPath = m_db.path();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->itemAt(row).state != FetchState::Queued)
            continue;
        ++m_running;
        const evidence::Pointer pointer = m_model->itemAt(row).pointer;
        auto* watcher = new QFutureWatcher<Outcome>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
            const Outcome o = watcher->result();
            watcher->deleteLater();
            onOutcome(o);
        });
        const std::shared_ptr<std::atomic_bool> cancelFlag = m_cancel;
        watcher->setFuture(QtConcurrent::run(m_pool, [this, row, pointer, base, cache, dbPath, root, cancelFlag]() -> Outcome {
            Outcome o;
            o.row = row;
            if (*cancelFlag) {
                o.state = FetchState::Cancelled;
                o.detail = QStringLiteral("cancelled before it started");
                return o;
            }
            QMetaObject::invokeMethod(this, [this, row] { onStarted(row); }, Qt::QueuedConnection);
            oci::ClientOptions opts = base;
            opts.cancel = cancelFlag.get();
            // The pull's bytes so far (the client counts across its blobs), posted at most ~10 times a
            // second and whenever they change after a pause.
            QElapsedTimer clock;
            qint64 posted = -1;
            opts.progress = [&](qint64 done, qint64 total, const QString&) {
                if (done == posted || (clock.isValid() && clock.elapsed() < 100 && done != total))
                    return;
                clock.start();
                posted = done;
                QMetaObject::invokeMethod(this, [this, row, done, total] { onProgress(row, done, total); }, Qt::QueuedConnection);
            };
            oci::Client client(opts);
            Result<oci::EvidenceFetch> fetched = oci::fetchEvidence(client, pointer, cache);
            if (!fetched) {
                o.state = *cancelFlag ? FetchState::Cancelled : FetchState::Failed;
                o.detail = fetched.error().toString();
                return o;
            }
            o.cacheDir = fetched->dir;
            o.signaturePulled = fetched->signaturePulled;
            QMetaObject::invokeMethod(this, [this, row] { onChecking(row); }, Qt::QueuedConnection);
            Result<evidence::SummaryBundle> bundle = evidence::loadSummaryBundle(fetched->dir);
            if (!bundle) {
                o.state = FetchState::Invalid;
                o.detail = bundle.error().toString();
                return o;
            }
            bundle->ociManifestDigest = fetched->bundleDigest;
            evidence::SignatureCheck signature;
            signature.root = *root ? &**root : nullptr;
            const evidence::BundleCheck check = evidence::checkBundle(*bundle, &pointer, &signature);
            o.state = check.exitCode == 0   ? FetchState::Valid
                      : check.exitCode == 1 ? FetchState::ValidFailedPhases
                                            : FetchState::Invalid;
            o.detail = checkDetail(check, fetched->signaturePulled);
            // Stored as an import stores it, so the health table and inspector read it offline.
            QMutexLocker lock(&importMutex());
            Result<std::unique_ptr<db::Database>> db = db::Database::open(dbPath);
            Result<int> imported = db ? store::EvidenceStore(**db).importBundles(fetched->dir) : Result<int>(db.error());
            if (!imported)
                o.detail += QStringLiteral("; not imported: %1").arg(imported.error().toString());
            else
                o.imported = *imported > 0;
            return o;
        }));
    }
    updateSummary();
    updateButtons();
    return m_running > 0;
}

void FetchEvidenceDialog::cancel() {
    if (m_running == 0 || !m_cancel)
        return;
    *m_cancel = true;
    m_cancelled = true;
    updateSummary();
    updateButtons();
}

void FetchEvidenceDialog::onStarted(int row) {
    if (m_model->itemAt(row).state == FetchState::Queued)
        m_model->setState(row, FetchState::Fetching);
    updateSummary();
}

void FetchEvidenceDialog::onProgress(int row, qint64 done, qint64 total) {
    if (m_model->itemAt(row).state == FetchState::Fetching) {
        m_model->setProgress(row, done, total);
        updateSummary();
    }
}

void FetchEvidenceDialog::onChecking(int row) {
    if (!models::isFinished(m_model->itemAt(row).state))
        m_model->setState(row, FetchState::Checking);
}

void FetchEvidenceDialog::onOutcome(const Outcome& o) {
    --m_running;
    if (!o.cacheDir.isEmpty())
        m_model->setFetched(o.row, o.cacheDir, o.signaturePulled);
    m_model->setState(o.row, o.state, o.detail);
    m_imported += o.imported ? 1 : 0;
    m_progress->setValue(m_model->finishedCount());
    if (m_running == 0)
        finishRun();
    updateSummary();
    updateButtons();
}

void FetchEvidenceDialog::finishRun() {
    const int valid = m_model->countIn(FetchState::Valid) + m_model->countIn(FetchState::ValidFailedPhases);
    const int failed = m_model->countIn(FetchState::Failed) + m_model->countIn(FetchState::Invalid);
    // The receipt, as `proofbench evidence fetch` leaves it.
    receipts::ReceiptDraft d;
    d.kind = QStringLiteral("evidence.fetch");
    d.parameters = QJsonObject{{QStringLiteral("pointers"), m_model->rowCount()},
                               {QStringLiteral("cache"), m_settings.effectiveCacheDir()},
                               {QStringLiteral("from"), QStringLiteral("gui")}};
    for (const models::FetchItem& it : m_model->items()) {
        d.inputs.push_back(receipts::Artifact::bytes(it.pointer.file, it.pointer.raw));
        if (const evidence::Attestation* a = it.pointer.attestation();
            a && !it.cacheDir.isEmpty() && a->bundleDigest.startsWith(QLatin1String("sha256:")))
            d.outputs.push_back(receipts::Artifact::digest(a->bundleOci, a->bundleDigest.mid(7)));
    }
    const bool partial = m_model->countIn(FetchState::ValidFailedPhases) > 0;
    d.result = failed > 0 || m_cancelled ? receipts::Outcome::Failed : partial ? receipts::Outcome::Partial : receipts::Outcome::Ok;
    d.message = QStringLiteral("%1 bundles: %2 valid, %3 failed or invalid%4")
                    .arg(m_model->rowCount())
                    .arg(valid)
                    .arg(failed)
                    .arg(m_cancelled ? QStringLiteral(", cancelled") : QString());
    if (auto r = receipts::recordAction(m_db.path(), d); !r)
        m_summary->setToolTip(tr("Receipt not written: %1").arg(r.error().toString()));
    emit fetchFinished(valid, failed, m_imported);
}

QString FetchEvidenceDialog::summaryText() const {
    const int n = m_model->rowCount();
    if (!m_started)
        return tr("%n bundle(s) to fetch.", nullptr, n);
    QStringList parts;
    for (FetchState s : {FetchState::Valid, FetchState::ValidFailedPhases, FetchState::Invalid, FetchState::Failed,
                         FetchState::Cancelled, FetchState::Fetching, FetchState::Checking, FetchState::Queued})
        if (const int c = m_model->countIn(s); c > 0)
            parts << QStringLiteral("%1 %2").arg(c).arg(models::fetchStateName(s));
    QString text = parts.join(QStringLiteral(", "));
    if (const qint64 bytes = m_model->bytesDone(); bytes > 0)
        text += QStringLiteral(" · %1").arg(models::byteSize(bytes));
    if (m_cancelled)
        text += m_running > 0 ? tr(" · cancelling…") : tr(" · cancelled");
    else if (m_running == 0)
        text += tr(" · done");
    return text;
}

void FetchEvidenceDialog::updateSummary() {
    m_summary->setText(summaryText());
}

void FetchEvidenceDialog::updateButtons() {
    const bool running = m_running > 0;
    bool retry = false;
    for (const models::FetchItem& it : m_model->items())
        retry = retry || (it.state != FetchState::Valid && it.state != FetchState::ValidFailedPhases);
    m_start->setEnabled(!running && retry && m_model->rowCount() > 0);
    m_start->setText(m_started ? tr("&Retry") : tr("&Fetch"));
    m_cancelButton->setEnabled(running && !m_cancelled);
    m_plainHttp->setEnabled(!running);
    m_registries->setEnabled(!running);
}

void FetchEvidenceDialog::openRegistries() {
    readSettingsFields();
    QStringList inUse;
    for (const models::FetchItem& it : m_model->items())
        if (const evidence::Attestation* a = it.pointer.attestation())
            if (Result<oci::Reference> r = oci::parseReference(a->bundleOci); r)
                inUse << r->registry;
    RegistryCredentialsDialog dlg(m_settings, inUse, this);
    dlg.exec();
    m_settings = dlg.settings();
    m_plainHttp->setText(m_settings.plainHttpRegistries.join(QStringLiteral(", ")));
}

void FetchEvidenceDialog::closeEvent(QCloseEvent* event) {
    // Closing while pulls run cancels them; the dialog stays until they have stopped.
    if (m_running > 0) {
        cancel();
        event->ignore();
        return;
    }
    QDialog::closeEvent(event);
}

void FetchEvidenceDialog::reject() {
    if (m_running > 0) {
        cancel();
        return;
    }
    QDialog::reject();
}

} // namespace pb::widgets
