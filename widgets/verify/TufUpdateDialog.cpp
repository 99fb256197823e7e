#include "TufUpdateDialog.h"

#include "OpRunner.h"
#include "TableSetup.h"
#include "WidgetUtil.h"
#include "ops/TrustedRootUpdate.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

namespace pb::widgets {

namespace {
enum Column { ResultColumn, RoleColumn, DetailColumn, FileColumn, ColumnCount };
}

TufUpdateDialog::TufUpdateDialog(models::Workspace& workspace, QWidget* parent)
    : QDialog(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("tufUpdateDialog"));
    setWindowTitle(tr("Update the trusted root from a TUF repository"));

    auto* intro = new QLabel(
        tr("Takes trusted_root.json from a copy of a TUF repository (such as Sigstore's root-signing "
           "repository), verified offline as the TUF specification's client does: the chain of root "
           "versions from the anchor, then timestamp, snapshot and targets with their signatures, "
           "versions and expiry, then the file's length and hashes. The root is stored with where it "
           "came from and becomes the default. The next update from the same anchor continues from what this "
           "one trusted and refuses older metadata as a rollback."),
        this);
    intro->setWordWrap(true);

    QWidget* form = buildForm();
    buildStepsTable();

    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("tufResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setText(tr("Choose the repository folder, then Verify and import."));

    QHBoxLayout* buttons = buildButtons();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(form);
    layout->addWidget(m_stepsView, 1);
    layout->addWidget(m_result);
    layout->addLayout(buttons);
    resize(900, 520);
    updateButtons();
}

QWidget* TufUpdateDialog::buildForm() {
    auto* form = new QWidget(this);
    QGridLayout* grid = inputGrid(form, true);
    m_repo = new QLineEdit(form);
    m_repo->setObjectName(QStringLiteral("tufRepository"));
    m_repo->setPlaceholderText(tr("Folder with metadata/ and targets/"));
    m_repo->setClearButtonEnabled(true);
    auto* repoBrowse = browseButton("tufBrowseRepository", tr("Choose the repository folder"), form);
    connect(repoBrowse, &QPushButton::clicked, this, [this] {
        const QString dir = chooseDirectory(this, tr("TUF repository folder"), "tufRepositoryDialog");
        if (!dir.isEmpty())
            setRepository(dir);
    });
    auto* repoLabel = new QLabel(tr("&Repository:"), form);
    repoLabel->setBuddy(m_repo);
    grid->addWidget(repoLabel, 0, 0);
    grid->addWidget(m_repo, 0, 1);
    grid->addWidget(repoBrowse, 0, 2);

    m_anchor = new QLineEdit(form);
    m_anchor->setObjectName(QStringLiteral("tufAnchor"));
    m_anchor->setPlaceholderText(tr("The root the app ships: Sigstore public-good root v13"));
    m_anchor->setToolTip(tr("The root.json the chain starts from, trusted as given (%1 when empty)")
                             .arg(QString(ops::kShippedTufAnchor)));
    m_anchor->setClearButtonEnabled(true);
    auto* anchorBrowse = browseButton("tufBrowseAnchor", tr("Choose a root.json to start from"), form);
    connect(anchorBrowse, &QPushButton::clicked, this, [this] {
        QFileDialog dialog(this, tr("Anchor root"));
        dialog.setObjectName(QStringLiteral("tufAnchorDialog"));
        dialog.setFileMode(QFileDialog::ExistingFile);
        dialog.setNameFilters({tr("TUF root metadata (*.json)"), tr("All files (*)")});
        if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
            setAnchor(dialog.selectedFiles().constFirst());
    });
    auto* anchorLabel = new QLabel(tr("&Anchor:"), form);
    anchorLabel->setBuddy(m_anchor);
    grid->addWidget(anchorLabel, 1, 0);
    grid->addWidget(m_anchor, 1, 1);
    grid->addWidget(anchorBrowse, 1, 2);

    m_useTime = new QCheckBox(tr("Check expiry as &of"), form);
    m_useTime->setObjectName(QStringLiteral("tufUseTime"));
    m_useTime->setToolTip(
        tr("--at: verify as of another time than now (UTC), e.g. a copy taken while it was valid"));
    m_time = new QDateTimeEdit(QDateTime::currentDateTimeUtc(), form);
    m_time->setObjectName(QStringLiteral("tufTime"));
    m_time->setTimeSpec(Qt::UTC);
    m_time->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    m_time->setCalendarPopup(true);
    m_time->setEnabled(false);
    m_defaultAnyway = new QCheckBox(tr("Make it the &default anyway"), form);
    m_defaultAnyway->setObjectName(QStringLiteral("tufDefaultAnyway"));
    m_defaultAnyway->setToolTip(
        tr("--default: a root verified as of another time than now is stored but not "
           "made the default (its metadata may have expired since) unless this is checked"));
    m_defaultAnyway->setEnabled(false);
    connect(m_useTime, &QCheckBox::toggled, m_time, &QWidget::setEnabled);
    connect(m_useTime, &QCheckBox::toggled, m_defaultAnyway, &QWidget::setEnabled);
    grid->addWidget(m_useTime, 2, 0);
    grid->addWidget(m_time, 2, 1);
    grid->addWidget(m_defaultAnyway, 2, 2);

    m_fromAnchor = new QCheckBox(tr("Start again from the anchor, ignoring what was trusted before"), form);
    m_fromAnchor->setObjectName(QStringLiteral("tufFromAnchor"));
    m_fromAnchor->setToolTip(tr(
        "--from-anchor: by default the root chain continues from the root the last update from this anchor "
        "trusted, and older metadata is refused as a rollback. Checked, the chain starts from the anchor "
        "again and a successful update replaces what was trusted."));
    grid->addWidget(m_fromAnchor, 3, 1, 1, 2);
    return form;
}

void TufUpdateDialog::buildStepsTable() {
    m_steps = new QStandardItemModel(0, ColumnCount, this);
    m_steps->setObjectName(QStringLiteral("tufSteps"));
    m_steps->setHorizontalHeaderLabels({tr("Result"), tr("Role"), tr("Checked"), tr("File")});
    m_stepsView = new QTableView(this);
    m_stepsView->setObjectName(QStringLiteral("tufStepsView"));
    m_stepsView->setModel(m_steps);
    setupTable(m_stepsView);
    m_stepsView->setWordWrap(true);
    m_stepsView->horizontalHeader()->setSectionResizeMode(DetailColumn, QHeaderView::Stretch);
    m_stepsView->horizontalHeader()->setSectionResizeMode(ResultColumn, QHeaderView::ResizeToContents);
    // The roles are short words; a fixed width that fits the longest keeps them whole while the
    // rows arrive (ResizeToContents measured the empty table and elided them).
    m_stepsView->horizontalHeader()->setSectionResizeMode(RoleColumn, QHeaderView::Fixed);
    m_stepsView->setColumnWidth(
        RoleColumn, m_stepsView->fontMetrics().horizontalAdvance(QStringLiteral("timestamp")) + 24);
    m_stepsView->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::Interactive);
    m_stepsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

QHBoxLayout* TufUpdateDialog::buildButtons() {
    m_update = new QPushButton(tr("&Verify and import"), this);
    m_update->setObjectName(QStringLiteral("tufUpdate"));
    m_update->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("tufCancel"));
    m_cancel->setToolTip(tr("Stop at the next file; nothing is stored"));
    m_close = new QPushButton(tr("Close"), this);
    m_close->setObjectName(QStringLiteral("tufClose"));
    connect(m_update, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancel, &QPushButton::clicked, this, &TufUpdateDialog::cancelRun);
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_repo, &QLineEdit::textChanged, this, &TufUpdateDialog::updateButtons);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_update);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_close);
    return buttons;
}

TufUpdateDialog::~TufUpdateDialog() {
    m_task.cancel();
}

void TufUpdateDialog::setRepository(const QString& dir) {
    m_repo->setText(QDir::toNativeSeparators(dir));
}
QString TufUpdateDialog::repository() const {
    return QDir::fromNativeSeparators(m_repo->text().trimmed());
}
void TufUpdateDialog::setAnchor(const QString& path) {
    m_anchor->setText(QDir::toNativeSeparators(path));
}
QString TufUpdateDialog::anchor() const {
    return QDir::fromNativeSeparators(m_anchor->text().trimmed());
}

void TufUpdateDialog::setVerificationTime(std::optional<QDateTime> at) {
    m_useTime->setChecked(at.has_value());
    if (at)
        m_time->setDateTime(at->toUTC());
}

std::optional<QDateTime> TufUpdateDialog::verificationTime() const {
    if (!m_useTime->isChecked())
        return std::nullopt;
    QDateTime t = m_time->dateTime();
    t.setTimeSpec(Qt::UTC);
    return t;
}

void TufUpdateDialog::setFromAnchor(bool on) {
    m_fromAnchor->setChecked(on);
}
bool TufUpdateDialog::fromAnchor() const {
    return m_fromAnchor->isChecked();
}

QString TufUpdateDialog::resultText() const {
    return m_result->text();
}

void TufUpdateDialog::addStep(const tuf::ClientStep& step) {
    QList<QStandardItem*> row;
    auto* result = new QStandardItem(step.ok ? tr("✓ ok") : tr("✗ failed"));
    result->setForeground(step.ok ? QColor(0x1b, 0x7f, 0x3a) : QColor(0xb3, 0x1d, 0x1d));
    row << result << new QStandardItem(step.role) << new QStandardItem(step.detail)
        << new QStandardItem(step.file);
    for (QStandardItem* i : row) {
        i->setEditable(false);
        i->setToolTip(step.detail);
    }
    m_steps->appendRow(row);
    m_stepsView->scrollToBottom();
}

bool TufUpdateDialog::start() {
    if (m_task.running() || repository().isEmpty())
        return false;
    ops::TrustedRootUpdateRequest request;
    request.repository = repository();
    request.anchorPath = anchor();
    request.at = verificationTime();
    request.makeDefaultWhenTimeGiven = m_defaultAnyway->isChecked();
    request.fromAnchor = fromAnchor();
    m_steps->removeRows(0, m_steps->rowCount());
    m_lastOk = false;
    m_lastRootId = 0;
    m_result->setText(tr("Verifying…"));
    // Steps reach the dialog as they are decided, queued from the worker.
    QPointer<TufUpdateDialog> guard(this);
    auto onStep = [guard](const tuf::ClientStep& s) {
        if (TufUpdateDialog* d = guard.data())
            QMetaObject::invokeMethod(
                d,
                [guard, s] {
                    if (guard)
                        guard->addStep(s);
                },
                Qt::QueuedConnection);
    };
    m_task = m_workspace.run<ops::TrustedRootUpdateOutcome>(
        this,
        [request, onStep](const ops::Context& ctx) { return ops::updateTrustedRoot(ctx, request, onStep); },
        [this](const Result<ops::TrustedRootUpdateOutcome>& r) {
            // The outcome's own list is authoritative (queued steps may still be on their way).
            m_steps->removeRows(0, m_steps->rowCount());
            if (!r) {
                m_result->setText(tr("Not updated: %1").arg(r.error().toString()));
            } else {
                const tuf::ClientResult& v = r->verification;
                for (const tuf::ClientStep& s : v.steps)
                    addStep(s);
                if (r->ok()) {
                    m_lastOk = true;
                    m_lastRootId = r->trustedRootId;
                    m_result->setText(
                        tr("Verified and stored: %1 (sha256 %2…) from TUF root v%3, timestamp v%4, snapshot "
                           "v%5, targets v%6, "
                           "as of %7%8%9. %10")
                            .arg(v.targetName, v.targetSha256.left(16))
                            .arg(v.root.version)
                            .arg(v.timestamp.version)
                            .arg(v.snapshot.version)
                            .arg(v.targets.version)
                            .arg(tuf::formatTime(v.verificationTime),
                                 v.timeGiven ? tr(" (time given)") : QString(),
                                 r->alreadyStored ? tr("; the same bytes were stored before") : QString())
                            .arg(r->madeDefault ? tr("It is now the default trusted root.")
                                 : r->notDefaultReason.isEmpty()
                                     ? tr("It was not made the default (as asked).")
                                     : tr("It was not made the default: verified as of a time given, not now "
                                          "(its metadata may have expired since); check \u201cMake it the "
                                          "default anyway\u201d to make it so.")) +
                        QLatin1Char(' ') +
                        (r->fromAnchor ? tr("Started again from the anchor as asked; what is trusted from "
                                            "now on is this update's.")
                         : r->trustedBefore
                             ? tr("Continued from the trusted state of %1; nothing older was accepted.")
                                   .arg(tuf::formatTime(r->trustedBefore->updatedAt))
                             : tr("The first update from this anchor: the next one continues from here.")));
                } else {
                    m_result->setText(
                        tr("Not verified — %1: %2. Nothing was stored; what was trusted before is unchanged.")
                            .arg(v.failedRole, v.error.toString()));
                }
            }
            updateButtons();
            if (m_lastOk)
                emit updated(m_lastRootId);
            emit finished(m_lastOk);
        });
    updateButtons();
    return true;
}

void TufUpdateDialog::cancelRun() {
    if (!m_task.running())
        return;
    m_task.cancel();
    m_result->setText(tr("Cancelling…"));
}

void TufUpdateDialog::updateButtons() {
    const bool running = m_task.running();
    m_update->setEnabled(!running && !repository().isEmpty());
    m_cancel->setEnabled(running);
    m_repo->setEnabled(!running);
    m_anchor->setEnabled(!running);
    m_fromAnchor->setEnabled(!running);
}

void TufUpdateDialog::reject() {
    // Closing while a run goes on cancels it; nothing half-done is stored (one transaction).
    if (m_task.running())
        m_task.cancel();
    QDialog::reject();
}

} // namespace pb::widgets
