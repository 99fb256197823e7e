#include "OpRunner.h"

namespace pb::widgets {

void showRunError(QWidget* view, const QString& title, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, view);
    box->setObjectName(QStringLiteral("runError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace pb::widgets
