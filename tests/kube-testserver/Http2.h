// HTTP/2 over a TlsStream (ALPN "h2"), with libnghttp2: the session runs on the connection's thread;
// each request is handed to its own thread as an Exchange whose answer is queued and sent as
// HEADERS + DATA frames (watch and log streams stay open, one DATA frame per piece). A dropped
// stream is RST_STREAM. The connection ends when the client goes away, after every handler thread
// has finished.
#pragma once

#include "Http.h"

#include <functional>

namespace kts {

// Serves one HTTP/2 connection; `handler` answers each request (on a thread of its own).
void serveHttp2(TlsStream& stream, const std::function<void(Exchange&, Request&)>& handler);

} // namespace kts
