// A read-only viewer for one catalog file's verbatim YAML (an overlay or mixin as written),
// monospace, with light syntax colouring.
#pragma once

#include <QByteArray>
#include <QDialog>

class QPlainTextEdit;

namespace pb::widgets {

class YamlDialog : public QDialog {
    Q_OBJECT
  public:
    // `title` names the document (e.g. the overlay); `file` is its path inside `origin` (the
    // catalog, or an evidence tree).
    YamlDialog(const QString& title, const QString& file, const QByteArray& bytes, QWidget* parent = nullptr,
               const QString& origin = QStringLiteral("the catalog"));

    QString text() const;
    QString file() const { return m_file; }

  private:
    QString m_file;
    QPlainTextEdit* m_text = nullptr;
};

} // namespace pb::widgets
