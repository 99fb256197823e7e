#include "core/Hash.h"

#include <openssl/evp.h>

namespace pb {

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new()) {
    EVP_DigestInit_ex(m_ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(m_ctx);
}

void Sha256::add(const char* data, qsizetype size) {
    EVP_DigestUpdate(m_ctx, data, static_cast<size_t>(size));
}

QByteArray Sha256::result() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(m_ctx, md, &len);
    return QByteArray(reinterpret_cast<const char*>(md), static_cast<qsizetype>(len));
}

QByteArray sha256(const QByteArray& bytes) {
    Sha256 h;
    h.add(bytes);
    return h.result();
}

QString sha256Hex(const QByteArray& bytes) {
    return QString::fromLatin1(sha256(bytes).toHex());
}

} // namespace pb
