#pragma once
#include <QMainWindow>
namespace pb::store { class Database; }
namespace pb::widgets {
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(pb::store::Database& db, QWidget* parent = nullptr);
};
}
