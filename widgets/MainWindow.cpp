#include "MainWindow.h"
namespace pb::widgets {
MainWindow::MainWindow(pb::store::Database&, QWidget* parent) : QMainWindow(parent) {}
}
