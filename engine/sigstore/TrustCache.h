// The trusted root's keys and certificates decoded once, when the root is parsed (internal). DER
// decoding in OpenSSL 3 costs more than a P-256 signature check, so a verifier that decoded the root
// on every call would spend most of its time there. The root's own CA chains are also checked once
// here (each certificate signed by the next, every non-leaf a CA): signatures do not depend on the
// time, so a verification only needs the validity windows at its verified times.
#pragma once

#include "sigstore/Crypto.h"

#include <QByteArray>

#include <vector>

namespace pb::sigstore {

struct TrustedRoot;

struct TrustCache {
    struct StoreFree {
        void operator()(X509_STORE* s) const { X509_STORE_free(s); }
    };
    struct Authority {
        std::vector<crypto::Cert> chain;              // as in the root: [issuing cert, ..., anchor]
        std::unique_ptr<X509_STORE, StoreFree> store; // chain[0] as the trust anchor (shared, read-only)
        bool chainValid = false;  // every certificate signed by the next; CAs above the first
        QByteArray issuerKeyHash; // SHA-256 of chain[0]'s SPKI (SCT issuer_key_hash)
    };
    std::vector<crypto::Pkey> tlogKeys, ctlogKeys; // parallel to root.tlogs / root.ctlogs
    std::vector<Authority> cas, tsas; // parallel to certificateAuthorities / timestampAuthorities
};

std::shared_ptr<const TrustCache> buildTrustCache(const TrustedRoot& root);

} // namespace pb::sigstore
