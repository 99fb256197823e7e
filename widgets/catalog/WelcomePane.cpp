#include "WelcomePane.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace pb::widgets {

WelcomePane::WelcomePane(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("welcomePane"));
    setFrameShape(QFrame::StyledPanel);
    // Amber: this is sample data, look twice.
    setStyleSheet(
        QStringLiteral("#welcomePane { background: #fff8e1; border: 1px solid #e0b84f; border-radius: 4px; }"
                       "#welcomePane QLabel { color: #3e2c00; background: transparent; }"
                       "#welcomePane QCheckBox { color: #3e2c00; background: transparent; }"));

    m_headline = new QLabel(tr("Welcome to Proofbench: this is sample data, not an AICR release"), this);
    m_headline->setObjectName(QStringLiteral("welcomeHeadline"));
    QFont f = m_headline->font();
    f.setPointSizeF(f.pointSizeF() * 1.2);
    f.setBold(true);
    m_headline->setFont(f);

    m_body = new QLabel(tr("The catalog versions loaded now, sample-1 and sample-2, are Proofbench's own "
                           "sample catalog: a small "
                           "example written to show what the app does. Their recipes, components and "
                           "versions are not those of "
                           "any AICR release. To review real recipes, import an AICR catalog; every version "
                           "you import records "
                           "where it came from (folder, or Git repository, tag and commit)."),
                        this);
    m_body->setObjectName(QStringLiteral("welcomeText"));
    m_body->setWordWrap(true);

    m_folder = new QPushButton(tr("Import a catalog folder…"), this);
    m_folder->setObjectName(QStringLiteral("welcomeImportFolder"));
    m_folder->setToolTip(tr("Import an AICR recipes/ folder (File › Import Catalog…)"));
    m_git = new QPushButton(tr("Import from Git…"), this);
    m_git->setObjectName(QStringLiteral("welcomeImportGit"));
    m_git->setToolTip(tr("Import tags or branches of an AICR Git repository, read without a checkout "
                         "(File › Import from Git…)"));
    m_release = new QPushButton(tr("Verify an AICR release…"), this);
    m_release->setObjectName(QStringLiteral("welcomeVerifyRelease"));
    m_release->setToolTip(
        tr("Verify a folder of AICR release assets offline: its Sigstore bundles (signer pinned to NVIDIA's "
           "tag workflow), checksum list, assets and recipe catalog (File › Verify an AICR Release…)"));

    m_dontShow = new QCheckBox(tr("Don't show this again"), this);
    m_dontShow->setObjectName(QStringLiteral("welcomeDontShowAgain"));
    m_dontShow->setChecked(isDismissedForGood());
    connect(m_dontShow, &QCheckBox::toggled, this, [](bool on) { setDismissedForGood(on); });
    m_dismiss = new QPushButton(tr("Dismiss"), this);
    m_dismiss->setObjectName(QStringLiteral("welcomeDismiss"));
    m_dismiss->setToolTip(tr("Hide this until the next start (for good with “Don't show this again”)"));

    connect(m_folder, &QPushButton::clicked, this, &WelcomePane::importFolderRequested);
    connect(m_git, &QPushButton::clicked, this, &WelcomePane::importGitRequested);
    connect(m_release, &QPushButton::clicked, this, &WelcomePane::verifyReleaseRequested);
    connect(m_dismiss, &QPushButton::clicked, this, &WelcomePane::dismissed);

    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(8);
    buttons->addWidget(m_folder);
    buttons->addWidget(m_git);
    buttons->addWidget(m_release);
    buttons->addStretch(1);
    buttons->addWidget(m_dontShow);
    buttons->addWidget(m_dismiss);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 10, 14, 10);
    layout->setSpacing(6);
    layout->addWidget(m_headline);
    layout->addWidget(m_body);
    layout->addLayout(buttons);
}

QString WelcomePane::text() const {
    return m_headline->text() + QLatin1Char('\n') + m_body->text();
}

bool WelcomePane::isDismissedForGood() {
    return QSettings().value(QLatin1String(kDismissedKey), false).toBool();
}

void WelcomePane::setDismissedForGood(bool dismissed) {
    QSettings settings;
    if (dismissed)
        settings.setValue(QLatin1String(kDismissedKey), true);
    else
        settings.remove(QLatin1String(kDismissedKey));
}

} // namespace pb::widgets
