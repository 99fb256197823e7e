#include "ReceiptsPane.h"
#include "Plural.h"
#include "core/Files.h"

#include "ReceiptModels.h"
#include "TableSetup.h"
#include "WidgetUtil.h"

#include "OpRunner.h"
#include "ops/ReceiptsCheckpoint.h"
#include "ops/ReceiptsExport.h"
#include "ops/ReceiptsVerify.h"
#include "ops/RecordsImport.h"
#include "ops/SigningKey.h"
#include "receipts/Canonical.h"
#include "receipts/Records.h"
#include "sigstore/Keys.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>

namespace pb::widgets {

using models::ReceiptTableModel;

namespace {

QString artifactLine(const receipts::Artifact& a) {
    QString s = a.name;
    if (!a.sha256.isEmpty())
        s += QStringLiteral("\n      sha256:") + a.sha256;
    if (a.size >= 0)
        s += QStringLiteral("  (%1 bytes)").arg(a.size);
    return s;
}

} // namespace

ReceiptsPane::ReceiptsPane(models::Workspace& workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace) {
    setObjectName(QStringLiteral("receiptsPane"));
    m_ledger = new models::ReceiptTableModel(this);
    m_ledger->setObjectName(QStringLiteral("receiptTableModel"));
    m_proxy = new models::ReceiptFilterProxy(this);
    m_proxy->setObjectName(QStringLiteral("receiptFilterProxy"));
    m_proxy->setSourceModel(m_ledger);
    m_artifacts = new models::ArtifactTableModel(this);
    m_artifacts->setObjectName(QStringLiteral("artifactTableModel"));
    m_records = new models::ExternalRecordModel(this);
    m_records->setObjectName(QStringLiteral("externalRecordModel"));
    m_stages = new models::StageTableModel(this);
    m_stages->setObjectName(QStringLiteral("stageTableModel"));

    auto* layout = new QVBoxLayout(this);
    m_banner = bannerFrame("chainBanner", this);
    // As tall as its wrapped lines need at the pane's width (a fixed height cut the checkpoint line).
    QSizePolicy bannerPolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    bannerPolicy.setHeightForWidth(true);
    m_banner->setSizePolicy(bannerPolicy);
    auto* icon = new QLabel(m_banner);
    icon->setObjectName(QStringLiteral("chainIcon"));
    m_bannerHeadline = bannerHeadline("chainHeadline", 1.3, m_banner);
    m_bannerDetail = new QLabel(m_banner);
    m_bannerDetail->setObjectName(QStringLiteral("chainDetail"));
    m_bannerDetail->setWordWrap(true);
    m_bannerDetail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_checkpointLine = new QLabel(m_banner);
    m_checkpointLine->setObjectName(QStringLiteral("checkpointLine"));
    m_checkpointLine->setWordWrap(true);
    m_checkpointLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layOutBanner(m_banner, icon, {m_bannerHeadline, m_bannerDetail, m_checkpointLine});
    layout->addWidget(m_banner);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("receiptsTabs"));
    layout->addWidget(m_tabs, 1);
    buildLedgerTab();
    buildRecordsTab();
    // A write anywhere in the window may have appended receipts: read again while on screen.
    connect(&m_workspace, &models::Workspace::changed, this, [this] {
        if (isVisible())
            refresh();
    });
    // ...and so may another client's.
    connect(&m_workspace, &models::Workspace::changedElsewhere, this, [this] {
        if (isVisible())
            refresh();
    });
    refresh();
}

ReceiptsPane::~ReceiptsPane() = default; // a job still running delivers nothing once the pane is gone

void ReceiptsPane::buildLedgerTab() {
    auto* page = new QWidget(m_tabs);
    page->setObjectName(QStringLiteral("ledgerPage"));
    auto* v = new QVBoxLayout(page);

    auto* filters = new QHBoxLayout;
    m_text = new QLineEdit(page);
    m_text->setObjectName(QStringLiteral("receiptFilter"));
    m_text->setPlaceholderText(tr("Filter by kind, summary, parameter, file or digest"));
    m_text->setClearButtonEnabled(true);
    m_kind = new QComboBox(page);
    m_kind->setObjectName(QStringLiteral("receiptKind"));
    m_kind->setToolTip(tr("Only receipts of this kind (or family of kinds)"));
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_result = new QComboBox(page);
    m_result->setObjectName(QStringLiteral("receiptResult"));
    m_result->addItem(tr("Any result"), QString());
    m_result->addItem(tr("ok"), QStringLiteral("ok"));
    m_result->addItem(tr("failed"), QStringLiteral("failed"));
    m_result->addItem(tr("partial"), QStringLiteral("partial"));
    m_time = new QComboBox(page);
    m_time->setObjectName(QStringLiteral("receiptTime"));
    m_time->addItem(tr("Any time"), int(TimeRange::Any));
    m_time->addItem(tr("Last hour"), int(TimeRange::LastHour));
    m_time->addItem(tr("Last 24 hours"), int(TimeRange::LastDay));
    m_time->addItem(tr("Last 7 days"), int(TimeRange::LastWeek));
    m_time->addItem(tr("Last 30 days"), int(TimeRange::LastMonth));
    m_count = grayLabel("receiptCount", page);
    m_count->setWordWrap(false);
    filters->addWidget(m_text, 1);
    filters->addWidget(m_kind);
    filters->addWidget(m_result);
    filters->addWidget(m_time);
    filters->addWidget(m_count);
    v->addLayout(filters);

    auto* split = new QSplitter(Qt::Vertical, page);
    split->setObjectName(QStringLiteral("ledgerSplitter"));
    m_ledgerView = new QTableView(split);
    m_ledgerView->setObjectName(QStringLiteral("ledgerView"));
    m_ledgerView->setModel(m_proxy);
    setupTable(m_ledgerView);
    m_ledgerView->horizontalHeader()->setStretchLastSection(true);

    auto* detail = new QWidget(split);
    auto* dl = new QHBoxLayout(detail);
    dl->setContentsMargins(0, 0, 0, 0);
    m_detail = new QPlainTextEdit(detail);
    m_detail->setObjectName(QStringLiteral("receiptDetail"));
    m_detail->setReadOnly(true);
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail->setPlaceholderText(tr("Select a receipt to see its parameters, inputs and outputs."));
    m_artifactView = new QTableView(detail);
    m_artifactView->setObjectName(QStringLiteral("artifactView"));
    m_artifactView->setModel(m_artifacts);
    setupTable(m_artifactView);
    m_artifactView->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_artifactView->horizontalHeader()->setStretchLastSection(true);
    auto* copy = new QAction(tr("Copy"), m_artifactView);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    m_artifactView->addAction(copy);
    m_artifactView->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(copy, &QAction::triggered, this, [this] {
        QStringList cells;
        for (const QModelIndex& i : m_artifactView->selectionModel()->selectedIndexes())
            cells << i.data(Qt::EditRole).toString();
        QApplication::clipboard()->setText(cells.join(QLatin1Char('\t')));
    });
    dl->addWidget(m_detail, 1);
    dl->addWidget(m_artifactView, 1);
    split->addWidget(m_ledgerView);
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    v->addWidget(split, 1);

    auto* actions = new QHBoxLayout;
    auto* refreshButton = new QPushButton(tr("&Refresh"), page);
    refreshButton->setObjectName(QStringLiteral("receiptsRefresh"));
    auto* exportButton = new QPushButton(tr("&Export ledger…"), page);
    exportButton->setObjectName(QStringLiteral("exportLedgerButton"));
    exportButton->setToolTip(
        tr("Every receipt, the head and the chain check as JSON (as `proofbench receipts export`)"));
    auto* headButton = new QPushButton(tr("Export &signed head…"), page);
    headButton->setObjectName(QStringLiteral("exportHeadButton"));
    headButton->setToolTip(
        tr("Sign the chain head with an encrypted private key: a head statement and a Sigstore bundle "
           "(check with proofbench verify --key KEY.pub --bundle BUNDLE HEAD)"));
    actions->addWidget(refreshButton);
    actions->addStretch(1);
    auto* checkpointButton = new QPushButton(tr("&Checkpoint…"), page);
    checkpointButton->setObjectName(QStringLiteral("writeCheckpointButton"));
    checkpointButton->setToolTip(tr(
        "Sign the chain head into a checkpoint file to keep outside the database (as proofbench receipts "
        "checkpoint); proofbench receipts verify --checkpoint FILE --key KEY.pub then fails when the ledger "
        "was erased or rewritten"));
    actions->addWidget(exportButton);
    actions->addWidget(headButton);
    actions->addWidget(checkpointButton);
    v->addLayout(actions);
    m_tabs->addTab(page, tr("Ledger"));

    connect(m_text, &QLineEdit::textChanged, this, &ReceiptsPane::setTextFilter);
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setKind(m_kind->currentData().toString()); });
    connect(m_result, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setResult(receipts::parseOutcome(m_result->currentData().toString())); });
    connect(m_time, &QComboBox::currentIndexChanged, this,
            [this] { setTimeRange(TimeRange(m_time->currentData().toInt())); });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] { updateBanner(); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { updateBanner(); });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, [this] { updateBanner(); });
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, [this] { updateBanner(); });
    connect(m_ledgerView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ReceiptsPane::onReceiptSelected);
    connect(refreshButton, &QPushButton::clicked, this, &ReceiptsPane::refresh);
    connect(exportButton, &QPushButton::clicked, this, &ReceiptsPane::exportLedgerInteractively);
    connect(headButton, &QPushButton::clicked, this, &ReceiptsPane::exportHeadInteractively);
    connect(checkpointButton, &QPushButton::clicked, this, &ReceiptsPane::writeCheckpointInteractively);
}

void ReceiptsPane::buildRecordsTab() {
    auto* page = new QWidget(m_tabs);
    page->setObjectName(QStringLiteral("recordsPage"));
    auto* v = new QVBoxLayout(page);
    auto* top = new QHBoxLayout;
    m_entry = new QComboBox(page);
    m_entry->setObjectName(QStringLiteral("recordEntry"));
    m_entry->setToolTip(tr("The recipe entry whose stage table is shown"));
    m_entry->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_recordsSummary = grayLabel("recordsSummary", page);
    m_importButton = new QPushButton(tr("&Import records…"), page);
    m_importButton->setObjectName(QStringLiteral("importRecordsButton"));
    m_importButton->setToolTip(
        tr("Store the ConfigHub records of a directory (as `proofbench records import DIR`)"));
    auto* entryLabel = new QLabel(tr("&Entry:"), page);
    entryLabel->setBuddy(m_entry);
    top->addWidget(entryLabel);
    top->addWidget(m_entry, 1);
    top->addWidget(m_recordsSummary, 1);
    top->addWidget(m_importButton);
    v->addLayout(top);

    auto* split = new QSplitter(Qt::Vertical, page);
    split->setObjectName(QStringLiteral("recordsSplitter"));
    auto* stageBox = group(tr("Current status"), "stageGroup", split);
    auto* sl = new QVBoxLayout(stageBox);
    m_stageView = new QTableView(stageBox);
    m_stageView->setObjectName(QStringLiteral("stageView"));
    m_stageView->setModel(m_stages);
    setupTable(m_stageView);
    m_stageView->horizontalHeader()->setStretchLastSection(true);
    sl->addWidget(m_stageView);
    auto* recordBox = group(tr("Records"), "recordsGroup", split);
    auto* rl = new QVBoxLayout(recordBox);
    m_recordView = new QTableView(recordBox);
    m_recordView->setObjectName(QStringLiteral("recordView"));
    m_recordView->setModel(m_records);
    setupTable(m_recordView);
    m_recordView->horizontalHeader()->setStretchLastSection(true);
    rl->addWidget(m_recordView);
    split->addWidget(stageBox);
    split->addWidget(recordBox);
    v->addWidget(split, 1);
    m_tabs->addTab(page, tr("External records"));

    connect(m_entry, &QComboBox::currentIndexChanged, this, &ReceiptsPane::onEntryChanged);
    connect(m_importButton, &QPushButton::clicked, this, &ReceiptsPane::importRecordsInteractively);
}

void ReceiptsPane::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void ReceiptsPane::refresh() {
    // The ledger, its chain check and the records are read on the worker; only the newest read
    // is shown.
    const quint64 generation = ++m_refreshGeneration;
    runInView<models::ReceiptsSnapshot>(
        this, m_workspace,
        [](const ops::Context& ctx) -> Result<models::ReceiptsSnapshot> { return models::readReceipts(ctx); },
        [this, generation](const Result<models::ReceiptsSnapshot>& snapshot) {
            if (generation != m_refreshGeneration)
                return;
            models::ReceiptsSnapshot shown; // the database could not be opened: both parts say why
            if (snapshot) {
                shown = *snapshot;
            } else {
                shown.chain = snapshot.error();
                shown.records = snapshot.error();
            }
            showLedger(shown);
            showRecords(shown.records);
            emit refreshed();
        });
}

void ReceiptsPane::showLedger(const models::ReceiptsSnapshot& snapshot) {
    const qint64 selected = [&] {
        const QModelIndex i = m_ledgerView->currentIndex();
        return i.isValid() ? i.data(ReceiptTableModel::SeqRole).toLongLong() : qint64(0);
    }();
    m_loadError = snapshot.chain ? QString() : snapshot.chain.error().toString();
    m_chain = snapshot.chain ? *snapshot.chain : receipts::ChainCheck{};
    m_checkpoint = snapshot.checkpoint;
    m_ledger->setReceipts(snapshot.receipts);
    updateKinds();
    for (int c = 0; c < ReceiptTableModel::SummaryColumn; ++c)
        m_ledgerView->resizeColumnToContents(c);
    if (selected)
        selectReceipt(selected);
    updateBanner();
}

void ReceiptsPane::updateKinds() {
    const QString current = m_kind->currentData().toString();
    QSignalBlocker block(m_kind);
    m_kind->clear();
    m_kind->addItem(tr("All kinds"), QString());
    QStringList families;
    const QStringList kinds = m_ledger->kinds();
    for (const QString& k : kinds)
        if (const int dot = k.indexOf(QLatin1Char('.')); dot > 0 && !families.contains(k.left(dot + 1)))
            families << k.left(dot + 1);
    for (const QString& f : std::as_const(families))
        m_kind->addItem(tr("%1*").arg(f), f);
    for (const QString& k : kinds)
        m_kind->addItem(k, k);
    const int i = m_kind->findData(current);
    m_kind->setCurrentIndex(i >= 0 ? i : 0);
    m_proxy->setKind(m_kind->currentData().toString());
}

QString ReceiptsPane::bannerText() const {
    return m_bannerHeadline->text() + QLatin1Char('\n') + m_bannerDetail->text();
}

void ReceiptsPane::updateBanner() {
    const QStyle* st = style();
    QIcon icon;
    if (!m_loadError.isEmpty()) {
        tintBanner(m_banner, m_bannerHeadline, QColor(0xFD, 0xEC, 0xEA), QColor(0xB3, 0x26, 0x1E));
        m_bannerHeadline->setText(tr("The ledger could not be read"));
        m_bannerDetail->setText(m_loadError);
        icon = st->standardIcon(QStyle::SP_MessageBoxCritical);
    } else if (m_chain.ok) {
        tintBanner(m_banner, m_bannerHeadline, QColor(0xE3, 0xF4, 0xE6), QColor(0x1B, 0x5E, 0x20));
        m_bannerHeadline->setText(m_chain.receipts == 0 ? tr("Receipts chain: empty")
                                                        : tr("Receipts chain intact"));
        m_bannerDetail->setText(tr("%1; every one recomputes and links to the one before. Head #%2 %3")
                                    .arg(models::counted(m_chain.receipts, tr("receipt"), tr("receipts")))
                                    .arg(m_chain.head.seq)
                                    .arg(m_chain.head.hash));
        icon = st->standardIcon(QStyle::SP_DialogApplyButton);
    } else {
        tintBanner(m_banner, m_bannerHeadline, QColor(0xFD, 0xEC, 0xEA), QColor(0xB3, 0x26, 0x1E));
        m_bannerHeadline->setText(tr("Receipts chain broken at receipt #%1 (%2)")
                                      .arg(m_chain.firstBadSeq)
                                      .arg(receipts::breakName(m_chain.kind)));
        m_bannerDetail->setText(m_chain.detail);
        icon = st->standardIcon(QStyle::SP_MessageBoxCritical);
    }
    // The anchor outside the database: the chain above recomputes even when erased whole or
    // rewritten; only a checkpoint file (checked with `receipts verify --checkpoint`) says otherwise.
    if (!m_loadError.isEmpty()) {
        m_checkpointLine->clear();
    } else if (m_checkpoint) {
        m_checkpointLine->setText(
            tr("Last checkpoint: head #%1 signed %2 by key %3 into %4; the chain has grown by %5 "
               "since. Only the file proves it: check with receipts verify --checkpoint.")
                .arg(m_checkpoint->seq)
                .arg(QLocale::c().toString(m_checkpoint->time.toUTC(),
                                           QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")),
                     m_checkpoint->keyFingerprint, m_checkpoint->file,
                     models::counted(m_checkpoint->grownBy, tr("receipt"), tr("receipts"))));
    } else {
        m_checkpointLine->setText(
            tr("No checkpoint: this ledger is anchored only in its own database, so deleting it whole would "
               "go unnoticed. proofbench receipts checkpoint --key KEY --out FILE signs its head into a file "
               "to keep elsewhere."));
    }
    if (auto* iconLabel = m_banner->findChild<QLabel*>(QStringLiteral("chainIcon"))) {
        const int side = m_bannerHeadline->fontMetrics().height() + 10;
        iconLabel->setPixmap(icon.pixmap(QSize(side, side), devicePixelRatioF()));
    }
    m_count->setText(tr("%1 of %2").arg(m_proxy->rowCount()).arg(m_ledger->rowCount()));
}

void ReceiptsPane::setKindFilter(const QString& kind) {
    int i = m_kind->findData(kind);
    if (i < 0) {
        m_kind->addItem(kind, kind);
        i = m_kind->count() - 1;
    }
    m_kind->setCurrentIndex(i);
}

void ReceiptsPane::setResultFilter(std::optional<receipts::Outcome> result) {
    m_result->setCurrentIndex(
        std::max(0, m_result->findData(result ? receipts::outcomeName(*result) : QString())));
}

void ReceiptsPane::setTimeRange(TimeRange range) {
    if (m_time->currentData().toInt() != int(range)) {
        m_time->setCurrentIndex(m_time->findData(int(range))); // comes back here through the signal
        return;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QDateTime from;
    switch (range) {
    case TimeRange::Any:
        break;
    case TimeRange::LastHour:
        from = now.addSecs(-3600);
        break;
    case TimeRange::LastDay:
        from = now.addDays(-1);
        break;
    case TimeRange::LastWeek:
        from = now.addDays(-7);
        break;
    case TimeRange::LastMonth:
        from = now.addDays(-30);
        break;
    }
    m_proxy->setTimeRange(from, {});
}

void ReceiptsPane::setTextFilter(const QString& text) {
    if (m_text->text() != text)
        m_text->setText(text); // comes back here
    else
        m_proxy->setText(text);
}

bool ReceiptsPane::selectReceipt(qint64 seq) {
    const int row = m_ledger->rowOf(seq);
    if (row < 0)
        return false;
    const QModelIndex i = m_proxy->mapFromSource(m_ledger->index(row, 0));
    if (!i.isValid())
        return false;
    m_ledgerView->setCurrentIndex(i);
    m_ledgerView->scrollTo(i);
    return true;
}

QString ReceiptsPane::detailText() const {
    return m_detail->toPlainText();
}

void ReceiptsPane::onReceiptSelected() {
    const QModelIndex i = m_ledgerView->currentIndex();
    const receipts::Receipt* r = i.isValid() ? m_ledger->receiptAt(m_proxy->mapToSource(i).row()) : nullptr;
    m_artifacts->setReceipt(r);
    if (!r) {
        m_detail->clear();
        return;
    }
    QString s;
    s += tr("Receipt #%1  %2\n").arg(r->seq).arg(r->kind);
    s += tr("Time:     %1\nVersion:  %2\nResult:   %3%4\n")
             .arg(receipts::isoTime(r->time), r->version, receipts::outcomeName(r->result),
                  r->message.isEmpty() ? QString() : QStringLiteral(" - ") + r->message);
    s += tr("Parameters:\n%1")
             .arg(QString::fromUtf8(QJsonDocument(r->parameters).toJson(QJsonDocument::Indented)));
    s += tr("Inputs:\n");
    for (const receipts::Artifact& a : r->inputs)
        s += QStringLiteral("  - ") + artifactLine(a) + QLatin1Char('\n');
    if (r->inputs.empty())
        s += QStringLiteral("  (none)\n");
    s += tr("Outputs:\n");
    for (const receipts::Artifact& a : r->outputs)
        s += QStringLiteral("  - ") + artifactLine(a) + QLatin1Char('\n');
    if (r->outputs.empty())
        s += QStringLiteral("  (none)\n");
    s += tr("Previous: %1\nHash:     %2\n").arg(r->prevHash, r->hash);
    m_detail->setPlainText(s);
    for (int c = 0; c < models::ArtifactTableModel::SizeColumn; ++c)
        m_artifactView->resizeColumnToContents(c);
}

// ---- export ------------------------------------------------------------------------------------

bool ReceiptsPane::exportLedgerTo(const QString& path) {
    // The receipts export operation (as `proofbench receipts export`), on the worker.
    ops::ReceiptsExportRequest req;
    req.outPath = path;
    runInView<ops::ReceiptsExportOutcome>(
        this, m_workspace, [req](const ops::Context& ctx) { return ops::exportReceipts(ctx, req); },
        [this, path](const Result<ops::ReceiptsExportOutcome>& r) {
            const QString message =
                r ? tr("Ledger exported to %1").arg(QDir::toNativeSeparators(path)) : r.error().toString();
            emit statusMessage(message, 8000);
            emit exportFinished(r.ok(), message);
        },
        RunView().writing());
    return true;
}

bool ReceiptsPane::exportSignedHead(const QString& keyPath, const sigstore::Passphrase& passphrase,
                                    const QString& headPath, const QString& bundlePath) {
    // The receipts export operation with a key (as `proofbench receipts export --key`): the key is
    // read and decrypted on the worker too.
    auto secret = std::make_shared<sigstore::Passphrase>(passphrase.bytes());
    runInView<ops::ReceiptsExportOutcome>(
        this, m_workspace,
        [keyPath, secret, headPath,
         bundlePath](const ops::Context& ctx) -> Result<ops::ReceiptsExportOutcome> {
            Result<sigstore::crypto::Pkey> key =
                ops::loadSigningKey(ops::SigningKey{keyPath, sigstore::Passphrase(secret->bytes())});
            if (!key)
                return key.error();
            ops::ReceiptsExportRequest req;
            req.key = key->get();
            req.headPath = headPath;
            req.bundlePath = bundlePath;
            return ops::exportReceipts(ctx, req);
        },
        [this, headPath, bundlePath](const Result<ops::ReceiptsExportOutcome>& r) {
            const QString message =
                r ? tr("Signed head #%1 written to %2 and %3")
                        .arg(r->head.seq)
                        .arg(QDir::toNativeSeparators(headPath), QDir::toNativeSeparators(bundlePath))
                  : r.error().toString();
            if (r)
                refresh();
            emit statusMessage(message, 10000);
            emit exportFinished(r.ok(), message);
        },
        RunView().writing());
    return true;
}

bool ReceiptsPane::writeCheckpoint(const QString& keyPath, const sigstore::Passphrase& passphrase,
                                   const QString& outPath) {
    // The checkpoint operation (as `proofbench receipts checkpoint`), the key decrypted on the worker.
    auto secret = std::make_shared<sigstore::Passphrase>(passphrase.bytes());
    runInView<ops::CheckpointWritten>(
        this, m_workspace,
        [keyPath, secret, outPath](const ops::Context& ctx) -> Result<ops::CheckpointWritten> {
            Result<sigstore::crypto::Pkey> key =
                ops::loadSigningKey(ops::SigningKey{keyPath, sigstore::Passphrase(secret->bytes())});
            if (!key)
                return key.error();
            ops::CheckpointRequest req;
            req.key = key->get();
            req.outPath = outPath;
            return ops::writeCheckpoint(ctx, req);
        },
        [this, outPath](const Result<ops::CheckpointWritten>& r) {
            const QString message =
                r ? tr("Checkpoint of head #%1 written to %2: keep it outside the database")
                        .arg(r->head.seq)
                        .arg(QDir::toNativeSeparators(outPath))
                  : r.error().toString();
            if (r)
                refresh();
            emit statusMessage(message, 10000);
            emit exportFinished(r.ok(), message);
        },
        RunView().writing());
    return true;
}

QString ReceiptsPane::checkpointText() const {
    return m_checkpointLine->text();
}

bool ReceiptsPane::askForKey(const QString& title, QString& keyPath, QByteArray& passphrase) {
    QFileDialog keyDialog(this, title, QDir::homePath());
    keyDialog.setObjectName(QStringLiteral("headKeyDialog"));
    keyDialog.setOption(QFileDialog::DontUseNativeDialog);
    keyDialog.setFileMode(QFileDialog::ExistingFile);
    if (keyDialog.exec() != QDialog::Accepted || keyDialog.selectedFiles().isEmpty())
        return false;
    keyPath = keyDialog.selectedFiles().constFirst();
    QInputDialog pass(this);
    pass.setObjectName(QStringLiteral("headPassphraseDialog"));
    pass.setWindowTitle(tr("Passphrase"));
    pass.setLabelText(tr("Passphrase of %1:").arg(QFileInfo(keyPath).fileName()));
    pass.setTextEchoMode(QLineEdit::Password);
    if (pass.exec() != QDialog::Accepted)
        return false;
    passphrase = pass.textValue().toUtf8();
    pass.setTextValue(QString());
    return true;
}

QString ReceiptsPane::askSaveJson(const char* objectName, const QString& title, const QString& fileName) {
    QFileDialog dialog(this, title, QDir::home().filePath(fileName));
    dialog.setObjectName(QLatin1String(objectName));
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(QStringLiteral("json"));
    dialog.setNameFilter(tr("JSON (*.json)"));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().constFirst();
}

void ReceiptsPane::writeCheckpointInteractively() {
    QString keyPath;
    QByteArray secret;
    if (!askForKey(tr("Private key to sign the checkpoint with"), keyPath, secret))
        return;
    sigstore::Passphrase passphrase(std::move(secret));
    const QString outPath =
        askSaveJson("checkpointOutDialog", tr("Save the checkpoint (keep it outside the database)"),
                    QStringLiteral("receipts-checkpoint.json"));
    if (!outPath.isEmpty())
        writeCheckpoint(keyPath, passphrase, outPath);
}

void ReceiptsPane::exportLedgerInteractively() {
    const QString path =
        askSaveJson("exportLedgerDialog", tr("Export the receipts ledger"), QStringLiteral("receipts.json"));
    if (!path.isEmpty())
        exportLedgerTo(path); // statusMessage() tells when it is done
}

void ReceiptsPane::exportHeadInteractively() {
    QString keyPath;
    QByteArray secret;
    if (!askForKey(tr("Private key to sign the chain head with"), keyPath, secret))
        return;
    sigstore::Passphrase passphrase(std::move(secret));
    const QString headPath =
        askSaveJson("headOutDialog", tr("Save the head statement"), QStringLiteral("receipts-head.json"));
    if (headPath.isEmpty())
        return;
    QString bundlePath = headPath;
    if (bundlePath.endsWith(QLatin1String(".json")))
        bundlePath.chop(5);
    bundlePath += QStringLiteral(".sigstore.json");
    exportSignedHead(keyPath, passphrase, headPath, bundlePath); // statusMessage() tells when it is done
}

// ---- external records --------------------------------------------------------------------------

void ReceiptsPane::showRecords(const Result<std::vector<receipts::ExternalRecord>>& records) {
    const QString entry = m_entry->currentText();
    m_records->setRecords(records ? *records : std::vector<receipts::ExternalRecord>{});
    QSignalBlocker block(m_entry);
    m_entry->clear();
    m_entry->addItems(m_records->entries());
    const int i = m_entry->findText(entry);
    m_entry->setCurrentIndex(i >= 0 ? i : 0);
    m_recordsSummary->setText(!records ? records.error().toString()
                              : m_records->rowCount() == 0
                                  ? tr("No external records yet. Import a directory of ConfigHub records.")
                                  : models::counted(m_records->rowCount(), tr("record"), tr("records")) +
                                        tr(" in ") +
                                        models::counted(m_entry->count(), tr("entry"), tr("entries")));
    onEntryChanged();
    for (int c = 0; c < models::ExternalRecordModel::DigestColumn; ++c)
        m_recordView->resizeColumnToContents(c);
}

void ReceiptsPane::onEntryChanged() {
    const QString entry = m_entry->currentText();
    // All records: an entry's provenance stage may rest on a record outside its directory.
    m_stages->setStages(entry.isEmpty() ? std::vector<receipts::StageRow>{}
                                        : receipts::stageTable(entry, m_records->records()));
    for (int c = 0; c < models::StageTableModel::DetailColumn; ++c)
        m_stageView->resizeColumnToContents(c);
    for (int r = 0; r < m_records->rowCount(); ++r)
        m_recordView->setRowHidden(
            r, !entry.isEmpty() &&
                   m_records->index(r, 0).data(models::ExternalRecordModel::EntryRole).toString() != entry);
}

bool ReceiptsPane::selectEntry(const QString& entry) {
    const int i = m_entry->findText(entry);
    if (i < 0)
        return false;
    m_entry->setCurrentIndex(i);
    return true;
}

bool ReceiptsPane::importRecords(const QString& dir) {
    if (m_importing)
        return false;
    m_importing = true;
    m_importButton->setEnabled(false);
    m_recordsSummary->setText(tr("Importing %1…").arg(QDir::toNativeSeparators(dir)));
    // The records import operation (as `proofbench records import DIR`) on the worker.
    runInView<receipts::RecordsImport>(
        this, m_workspace,
        [dir](const ops::Context& ctx) { return ops::importRecords(ctx, ops::RecordsImportRequest{dir}); },
        [this](const Result<receipts::RecordsImport>& r) {
            const bool ok = r.ok();
            const QString message = ok ? ops::recordsImportSummary(*r) : r.error().toString();
            m_importButton->setEnabled(true);
            // What the import changed is read again before recordsImported() tells.
            connect(
                this, &ReceiptsPane::refreshed, this, [this, ok, message] { finishImport(ok, message); },
                Qt::SingleShotConnection);
            refresh();
        },
        RunView().writing());
    return true;
}

void ReceiptsPane::finishImport(bool ok, const QString& message) {
    m_importing = false;
    if (!ok)
        m_recordsSummary->setText(message);
    emit statusMessage(message, 10000);
    emit recordsImported(ok, message);
}

void ReceiptsPane::importRecordsInteractively() {
    const QString dir = chooseDirectory(this, tr("Import ConfigHub records"), "importRecordsDialog");
    if (!dir.isEmpty())
        importRecords(dir);
}

} // namespace pb::widgets
