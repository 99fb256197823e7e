#include "YamlDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPalette>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QVBoxLayout>

namespace pb::widgets {

namespace {

// Comments, mapping keys, quoted strings and list dashes: enough to read an overlay at a glance.
class YamlHighlighter : public QSyntaxHighlighter {
  public:
    explicit YamlHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
        const bool dark = QApplication::palette().color(QPalette::Base).lightness() < 128;
        m_key.setForeground(dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1a, 0x4f, 0x9c));
        m_key.setFontWeight(QFont::DemiBold);
        m_string.setForeground(dark ? QColor(0xa5, 0xd6, 0xa7) : QColor(0x2e, 0x7d, 0x32));
        m_comment.setForeground(dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75));
        m_comment.setFontItalic(true);
        m_punct.setForeground(dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x5b, 0x00));
    }

  protected:
    void highlightBlock(const QString& line) override {
        static const QRegularExpression key(
            QStringLiteral("^(\\s*(?:-\\s+)?)([^#'\"\\s][^:#]*|\"[^\"]*\"|'[^']*'):(?=\\s|$)"));
        static const QRegularExpression dash(QStringLiteral("^\\s*(-)(?=\\s|$)"));
        static const QRegularExpression quoted(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^']|'')*'"));
        static const QRegularExpression docMarker(QStringLiteral("^(---|\\.\\.\\.)\\s*$"));

        if (auto m = docMarker.match(line); m.hasMatch()) {
            setFormat(0, static_cast<int>(line.size()), m_punct);
            return;
        }
        if (auto m = dash.match(line); m.hasMatch())
            setFormat(static_cast<int>(m.capturedStart(1)), 1, m_punct);
        int valueStart = 0;
        if (auto m = key.match(line); m.hasMatch()) {
            setFormat(static_cast<int>(m.capturedStart(2)), static_cast<int>(m.capturedLength(2)), m_key);
            valueStart = static_cast<int>(m.capturedEnd(2)) + 1;
        }
        // Quoted strings after the key; a '#' inside quotes is not a comment.
        int commentFrom = -1;
        bool inQuote = false;
        QChar quote;
        for (int i = valueStart; i < line.size(); ++i) {
            const QChar c = line.at(i);
            if (inQuote) {
                if (c == quote)
                    inQuote = false;
                continue;
            }
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                inQuote = true;
                quote = c;
            } else if (c == QLatin1Char('#') && (i == 0 || line.at(i - 1).isSpace())) {
                commentFrom = i;
                break;
            }
        }
        for (auto it = quoted.globalMatch(line, valueStart); it.hasNext();) {
            const auto m = it.next();
            if (commentFrom >= 0 && m.capturedStart() >= commentFrom)
                break;
            setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), m_string);
        }
        if (commentFrom >= 0)
            setFormat(commentFrom, static_cast<int>(line.size()) - commentFrom, m_comment);
    }

  private:
    QTextCharFormat m_key, m_string, m_comment, m_punct;
};

} // namespace

YamlDialog::YamlDialog(const QString& title, const QString& file, const QByteArray& bytes, QWidget* parent,
                       const QString& origin)
    : QDialog(parent), m_file(file) {
    setObjectName(QStringLiteral("yamlDialog"));
    setWindowTitle(file.isEmpty() ? title : tr("%1 — %2").arg(title, file));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(780, 680);

    auto* header = new QLabel(this);
    header->setObjectName(QStringLiteral("yamlFileLabel"));
    header->setTextFormat(Qt::RichText);
    header->setText(
        tr("<b>%1</b>&nbsp;&nbsp;<span style='color:gray'>%2 · %3 bytes · read-only, as written in "
           "%4</span>")
            .arg(title.toHtmlEscaped(), file.toHtmlEscaped())
            .arg(bytes.size())
            .arg(origin.toHtmlEscaped()));
    header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("yamlText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    m_text->setFont(mono);
    m_text->setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')) * 2);
    m_text->setPlainText(QString::fromUtf8(bytes));
    new YamlHighlighter(m_text->document());

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->setObjectName(QStringLiteral("yamlButtons"));
    buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("yamlCloseButton"));
    QPushButton* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("yamlCopyButton"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_text->toPlainText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
}

QString YamlDialog::text() const {
    return m_text->toPlainText();
}

} // namespace pb::widgets
