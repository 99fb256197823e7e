// SHA-256 through OpenSSL 3 (hardware-accelerated where the CPU allows); never hand-rolled.
#pragma once

#include <QByteArray>
#include <QString>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX

namespace pb {

QByteArray sha256(const QByteArray& bytes);
QString sha256Hex(const QByteArray& bytes);

// Incremental hashing for content made of many pieces.
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void add(const char* data, qsizetype size);
    void add(const QByteArray& bytes) { add(bytes.constData(), bytes.size()); }
    QByteArray result(); // 32 raw bytes; the object is spent afterwards

  private:
    evp_md_ctx_st* m_ctx;
};

} // namespace pb
