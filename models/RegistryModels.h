// Item models for the registry views of issue #11: the queue of an evidence fetch (one row per
// pointer: its reference, where the fetch stands, bytes moved, the check's verdict or the reason it
// failed) and the registry credentials view (one row per registry: where its credentials come from,
// never the secret, and the outcome of the last access test). No widgets.
#pragma once

#include "evidence/Evidence.h"
#include "oci/Auth.h"
#include "ops/FetchEvidence.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace pb::models {

// ---- fetch queue --------------------------------------------------------------------------------

// A row's state: the fetch operation's own (ops/FetchEvidence.h).
using FetchState = ops::FetchedState;
QString fetchStateName(FetchState s); // "queued", "fetching", "checking", "valid", …
// A final state: nothing more happens to the row.
bool isFinished(FetchState s);

struct FetchItem {
    evidence::Pointer pointer;
    QString reference; // registry/repo@digest (or what the pointer names, when it cannot be pinned)
    FetchState state = FetchState::Queued;
    qint64 bytesDone = 0, bytesTotal = -1;
    QString detail;   // the reason of a failure, or the check's summary
    QString cacheDir; // <cache>/evidence/<hex> once fetched
    bool signaturePulled = false;
};

class FetchQueueModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { PointerColumn, ReferenceColumn, StateColumn, BytesColumn, DetailColumn, ColumnCount };
    enum Role {
        StateRole = Qt::UserRole + 1, // FetchState as int
        StateNameRole,                // fetchStateName()
        BytesDoneRole,                // qint64
        BytesTotalRole,               // qint64, -1 when unknown
        ProgressRole,                 // 0..100, -1 when unknown
        CacheDirRole,
        SignaturePulledRole,
    };

    explicit FetchQueueModel(QObject* parent = nullptr);

    // One queued row per pointer; the reference is the pointer's OCI location pinned to its digest.
    void setPointers(std::vector<evidence::Pointer> pointers);
    const std::vector<FetchItem>& items() const { return m_items; }
    const FetchItem& itemAt(int row) const { return m_items[static_cast<size_t>(row)]; }

    void setState(int row, FetchState state, const QString& detail = {});
    void setProgress(int row, qint64 done, qint64 total);
    void setFetched(int row, const QString& cacheDir, bool signaturePulled);

    int countIn(FetchState s) const;
    int finishedCount() const;
    // Bytes moved and expected over every row (rows of unknown size count what they moved).
    qint64 bytesDone() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    void rowChanged(int row);
    std::vector<FetchItem> m_items;
};

// "1.5 MiB", "312 bytes".
QString byteSize(qint64 bytes);

// ---- registry credentials -----------------------------------------------------------------------

enum class CredentialKind { Helper, Store, Basic, IdentityToken, Anonymous };
QString credentialKindName(CredentialKind k); // "credential helper", "credentials store", …

struct RegistryEntry {
    QString registry; // "ghcr.io", "127.0.0.1:5000", "*" for the credsStore default
    CredentialKind kind = CredentialKind::Anonymous;
    QString source; // "credHelpers: ecr-login", "credsStore: desktop", "config.json auths (…)", "anonymous"
    bool plainHttp = false;
    QString access; // result of the last test (empty: not tested)
    bool accessOk = false;
    bool testing = false;
};

// Where each registry's credentials come from, read from a docker config.json without keeping or
// showing any secret: only key names are looked at (auth/password versus identitytoken).
Result<std::vector<RegistryEntry>> readCredentialSources(const oci::DockerConfigOptions& options,
                                                         const QStringList& alsoRegistries = {},
                                                         const QStringList& plainHttpRegistries = {});

class RegistryModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { RegistryColumn, KindColumn, SourceColumn, TransportColumn, AccessColumn, ColumnCount };
    enum Role {
        RegistryRole = Qt::UserRole + 1,
        KindRole,     // CredentialKind as int
        AccessOkRole, // bool (meaningful once tested)
        TestingRole,  // bool
    };

    explicit RegistryModel(QObject* parent = nullptr);

    void setEntries(std::vector<RegistryEntry> entries);
    const std::vector<RegistryEntry>& entries() const { return m_entries; }
    const RegistryEntry& entryAt(int row) const { return m_entries[static_cast<size_t>(row)]; }
    int rowOf(const QString& registry) const;
    void setTesting(int row);
    void setAccess(int row, bool ok, const QString& text);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<RegistryEntry> m_entries;
};

} // namespace pb::models
