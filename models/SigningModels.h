// Item models for the Sign view: the public signing keys stored in the database (label,
// fingerprint, created), and every file of a verified deployment bundle (ok / changed / missing /
// unexpected, with the expected and found digests) with a filter proxy for "problems only" and a
// path filter. Also the colours and icons of the trust levels and file states. No widgets.
#pragma once

#include "VerifyModels.h"
#include "bundle/DeploymentBundle.h"
#include "ops/Operation.h"
#include "store/VerificationStore.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>
#include <QSortFilterProxyModel>

#include <vector>

namespace pb::models {

// AICR's trust levels and a bundle file's state, as colours and glyphs.
struct TrustStyle {
    static QColor color(deploy::TrustLevel level);      // strong: text, icon
    static QColor background(deploy::TrustLevel level); // light tint behind the banner
    static QIcon icon(deploy::TrustLevel level);
    static QColor fileColor(deploy::FileState s);
    static QIcon fileIcon(deploy::FileState s); // ✓ ok, ≠ changed, − missing, + unexpected
    // One line for a user: what the level means.
    static QString explanation(deploy::TrustLevel level);
};

// A stored public signing key (a plain value; views name this, not the store's type).
using StoredKey = store::StoredKey;

// The stored public keys. Worker side: run it through the window's runner (ops::Async), on the
// job's own connection, never on the GUI thread. (The trusted roots: VerifyModels.h.)
Result<std::vector<StoredKey>> storedPublicKeys(const ops::Context& ctx);

// Public signing keys (never private ones), newest first: label, fingerprint, created.
class KeysModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { LabelColumn, FingerprintColumn, CreatedColumn, ColumnCount };
    enum Role { FingerprintRole = Qt::UserRole + 1, PublicPemRole, IdRole };

    explicit KeysModel(QObject* parent = nullptr);

    void setKeys(std::vector<StoredKey> keys);
    void clear() { setKeys({}); }
    const std::vector<StoredKey>& keys() const { return m_keys; }
    const StoredKey& keyAt(int row) const { return m_keys[static_cast<size_t>(row)]; }
    int rowOfFingerprint(const QString& fingerprint) const; // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<StoredKey> m_keys;
};

// Every listed and every present file of a deployment bundle: state, path, expected and found
// sha256. Problems first is the proxy's job; this keeps the verifier's (path) order.
class DeploymentFilesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { StateColumn, PathColumn, ExpectedColumn, FoundColumn, ColumnCount };
    enum Role {
        StateRole = Qt::UserRole + 1, // "ok" | "changed" | "missing" | "unexpected"
        ProblemRole,                  // bool: anything but ok
        SortRole,                     // problems first, then by path
    };

    explicit DeploymentFilesModel(QObject* parent = nullptr);

    void setFiles(std::vector<deploy::FileCheck> files);
    void clear() { setFiles({}); }
    const std::vector<deploy::FileCheck>& files() const { return m_files; }
    const deploy::FileCheck& fileAt(int row) const { return m_files[static_cast<size_t>(row)]; }
    int rowOf(const QString& path) const; // -1 when absent
    int countOf(deploy::FileState s) const;
    int problemCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<deploy::FileCheck> m_files;
};

// "Problems only" and a path filter (every word must occur in the path, case-insensitive).
class DeploymentFilesFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit DeploymentFilesFilterModel(QObject* parent = nullptr);

    void setProblemsOnly(bool on);
    bool problemsOnly() const { return m_problemsOnly; }
    void setFilterText(const QString& text);
    QString filterText() const { return m_words.join(QLatin1Char(' ')); }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    bool m_problemsOnly = false;
    QStringList m_words;
};

} // namespace pb::models
