// The first-start welcome, across the top of the Catalog view while the database holds only
// Proofbench's sample catalog: it says plainly that what is loaded is sample data, not an AICR
// release, and offers the real sources (a catalog folder, a Git repository) and verifying a published
// AICR release. Not modal: the catalog stays usable under it.
// "Don't show this again" is stored in QSettings (kDismissedKey); Dismiss hides it for the session.
#pragma once

#include <QFrame>

class QCheckBox;
class QLabel;
class QPushButton;

namespace pb::widgets {

class WelcomePane : public QFrame {
    Q_OBJECT
  public:
    static constexpr const char* kDismissedKey = "welcome/dismissed";

    explicit WelcomePane(QWidget* parent = nullptr);

    // True when the user asked not to see the welcome again (QSettings).
    static bool isDismissedForGood();
    static void setDismissedForGood(bool dismissed);

    QPushButton* importFolderButton() const { return m_folder; }
    QPushButton* importGitButton() const { return m_git; }
    QPushButton* verifyReleaseButton() const { return m_release; }
    QPushButton* dismissButton() const { return m_dismiss; }
    QCheckBox* dontShowAgain() const { return m_dontShow; }
    QString text() const; // headline and body, plain

  signals:
    void importFolderRequested();
    void importGitRequested();
    void verifyReleaseRequested();
    // Dismiss was clicked (the window hides the pane).
    void dismissed();

  private:
    QLabel* m_headline = nullptr;
    QLabel* m_body = nullptr;
    QPushButton* m_folder = nullptr;
    QPushButton* m_git = nullptr;
    QPushButton* m_release = nullptr;
    QPushButton* m_dismiss = nullptr;
    QCheckBox* m_dontShow = nullptr;
};

} // namespace pb::widgets
