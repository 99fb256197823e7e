#include "Http2.h"

#include <nghttp2/nghttp2.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace kts {
namespace {

constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
constexpr qsizetype kMaxBodyBytes = 16 * 1024 * 1024;
constexpr qsizetype kMaxQueuedBytes = 8 * 1024 * 1024; // per stream; a handler waits past it

struct Stream {
    int32_t id = 0;
    Request request;
    qsizetype headerBytes = 0;
    bool dispatched = false;
    // The answer: written by the handler's thread, read by the session's, under Conn::mu.
    bool headersReady = false, headersSubmitted = false;
    int status = 200;
    QByteArray contentType;
    QByteArray data;       // body bytes not yet handed to nghttp2
    bool ended = false;    // the handler will add nothing more
    bool reset = false;    // the handler asked for RST_STREAM (after what it queued)
    bool deferred = false; // the data source said "nothing yet"
    bool closed = false;   // the stream is over (finished, or reset by either side)
};

struct Conn {
    explicit Conn(TlsStream& s) : tls(s), peer(Peer::of(s)) {}
    TlsStream& tls;
    Peer peer;
    nghttp2_session* session = nullptr;
    std::function<void(Exchange&, Request&)> handler;
    std::mutex mu;
    std::condition_variable drained;                    // handlers waiting for queue space
    std::map<int32_t, std::shared_ptr<Stream>> streams; // session thread only
    std::vector<std::shared_ptr<Stream>> dirty;         // under mu: streams with news for the session
    std::vector<std::thread> workers;                   // session thread only
    bool dead = false;                                  // under mu
    int wake[2] = {-1, -1};

    void markDirty(const std::shared_ptr<Stream>& s) { // with mu held
        dirty.push_back(s);
        const char c = 1;
        [[maybe_unused]] const ssize_t n = ::write(wake[1], &c, 1);
    }
};

class H2Exchange : public Exchange {
  public:
    H2Exchange(Conn& c, std::shared_ptr<Stream> s) : c_(c), s_(std::move(s)) {}

    bool send(int status, const QByteArray& contentType, const QByteArray& body, bool) override {
        return begin(status, contentType) && chunk(body) && endChunked();
    }
    bool beginChunked(int status, const QByteArray& contentType) override {
        return begin(status, contentType);
    }
    bool chunk(const QByteArray& data) override {
        std::unique_lock lock(c_.mu);
        c_.drained.wait(lock, [&] { return s_->closed || c_.dead || s_->data.size() < kMaxQueuedBytes; });
        if (s_->closed || c_.dead)
            return false;
        if (data.isEmpty())
            return true;
        s_->data += data;
        c_.markDirty(s_);
        return true;
    }
    bool endChunked() override {
        std::lock_guard lock(c_.mu);
        if (s_->closed || c_.dead)
            return false;
        s_->ended = true;
        c_.markDirty(s_);
        return true;
    }
    bool peerGone() override {
        std::lock_guard lock(c_.mu);
        return s_->closed || c_.dead;
    }
    void abort() override {
        std::lock_guard lock(c_.mu);
        s_->reset = true;
        c_.markDirty(s_);
    }
    const Peer& peer() const override { return c_.peer; }

    // After the handler: a stream it left open is ended, one it never answered is reset.
    void finish() {
        std::lock_guard lock(c_.mu);
        if (s_->closed || c_.dead)
            return;
        if (!s_->headersReady)
            s_->reset = true;
        s_->ended = true;
        c_.markDirty(s_);
    }

  private:
    bool begin(int status, const QByteArray& contentType) {
        std::lock_guard lock(c_.mu);
        if (s_->closed || c_.dead)
            return false;
        s_->status = status;
        s_->contentType = contentType;
        s_->headersReady = true;
        c_.markDirty(s_);
        return true;
    }

    Conn& c_;
    std::shared_ptr<Stream> s_;
};

Conn& conn(void* user) {
    return *static_cast<Conn*>(user);
}

std::shared_ptr<Stream> findStream(Conn& c, int32_t id) {
    const auto it = c.streams.find(id);
    return it == c.streams.end() ? nullptr : it->second;
}

ssize_t onSend(nghttp2_session*, const uint8_t* data, size_t length, int, void* user) {
    const long n = conn(user).tls.writeSome(reinterpret_cast<const char*>(data), long(length));
    if (n == -2)
        return NGHTTP2_ERR_WOULDBLOCK;
    if (n < 0)
        return NGHTTP2_ERR_CALLBACK_FAILURE;
    return n;
}

ssize_t readData(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                 nghttp2_data_source* source, void* user) {
    Conn& c = conn(user);
    auto* s = static_cast<Stream*>(source->ptr);
    std::lock_guard lock(c.mu);
    if (s->data.isEmpty()) {
        if (s->reset) // what was queued went out; now the stream is cut (RST_STREAM INTERNAL_ERROR)
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
        if (s->ended) {
            *flags |= NGHTTP2_DATA_FLAG_EOF;
            return 0;
        }
        s->deferred = true;
        return NGHTTP2_ERR_DEFERRED;
    }
    const qsizetype n = std::min<qsizetype>(qsizetype(length), s->data.size());
    std::memcpy(buf, s->data.constData(), size_t(n));
    s->data.remove(0, n);
    if (s->data.isEmpty() && s->ended && !s->reset)
        *flags |= NGHTTP2_DATA_FLAG_EOF;
    c.drained.notify_all();
    return n;
}

int onBeginHeaders(nghttp2_session* session, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0;
    auto s = std::make_shared<Stream>();
    s->id = frame->hd.stream_id;
    s->request.protocol = "h2";
    s->request.keepAlive = true;
    conn(user).streams[s->id] = s;
    nghttp2_session_set_stream_user_data(session, s->id, s.get());
    return 0;
}

int onHeader(nghttp2_session* session, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
             const uint8_t* value, size_t valuelen, uint8_t, void* user) {
    const std::shared_ptr<Stream> s = findStream(conn(user), frame->hd.stream_id);
    if (!s)
        return 0;
    s->headerBytes += qsizetype(namelen + valuelen);
    if (s->headerBytes > kMaxHeaderBytes)
        return nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_REFUSED_STREAM) == 0
                   ? NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE
                   : NGHTTP2_ERR_CALLBACK_FAILURE;
    const QByteArray n(reinterpret_cast<const char*>(name), qsizetype(namelen));
    const QByteArray v(reinterpret_cast<const char*>(value), qsizetype(valuelen));
    Request& r = s->request;
    if (n == ":method")
        r.method = v;
    else if (n == ":path")
        r.target = v;
    else if (n == ":authority")
        r.headers.insert("host", v);
    else if (!n.startsWith(':')) {
        if (r.headers.contains(n))
            r.headers[n] += ", " + v;
        else
            r.headers.insert(n, v);
    }
    return 0;
}

int onData(nghttp2_session* session, uint8_t, int32_t id, const uint8_t* data, size_t len, void* user) {
    const std::shared_ptr<Stream> s = findStream(conn(user), id);
    if (!s)
        return 0;
    if (s->request.body.size() + qsizetype(len) > kMaxBodyBytes) {
        nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, id, NGHTTP2_REFUSED_STREAM);
        return 0;
    }
    s->request.body.append(reinterpret_cast<const char*>(data), qsizetype(len));
    return 0;
}

int onFrame(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    Conn& c = conn(user);
    if ((frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) ||
        !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
        return 0;
    const std::shared_ptr<Stream> s = findStream(c, frame->hd.stream_id);
    if (!s || s->dispatched)
        return 0;
    s->dispatched = true;
    parseTarget(s->request);
    c.workers.emplace_back([&c, s] {
        H2Exchange exchange(c, s);
        c.handler(exchange, s->request);
        exchange.finish();
    });
    return 0;
}

int onStreamClose(nghttp2_session*, int32_t id, uint32_t, void* user) {
    Conn& c = conn(user);
    const std::shared_ptr<Stream> s = findStream(c, id);
    if (!s)
        return 0;
    {
        std::lock_guard lock(c.mu);
        s->closed = true;
    }
    c.drained.notify_all();
    c.streams.erase(id);
    return 0;
}

void processDirty(Conn& c) {
    std::vector<std::shared_ptr<Stream>> todo;
    {
        std::lock_guard lock(c.mu);
        todo.swap(c.dirty);
    }
    for (const std::shared_ptr<Stream>& s : todo) {
        bool closed = false, reset = false, ready = false, submitted = false, deferred = false;
        int status = 200;
        QByteArray contentType;
        {
            std::lock_guard lock(c.mu);
            closed = s->closed;
            reset = s->reset;
            ready = s->headersReady;
            submitted = s->headersSubmitted;
            deferred = s->deferred;
            status = s->status;
            contentType = s->contentType;
            if (ready && !submitted)
                s->headersSubmitted = true;
            s->deferred = false;
        }
        if (closed || c.streams.find(s->id) == c.streams.end())
            continue;
        if (reset && !ready) { // never answered: cut at once
            nghttp2_submit_rst_stream(c.session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_INTERNAL_ERROR);
            continue;
        }
        // Otherwise the data source sends what is queued, then resets the stream.
        if (ready && !submitted) {
            const QByteArray code = QByteArray::number(status);
            auto nv = [](const char* n, const QByteArray& v) {
                return nghttp2_nv{reinterpret_cast<uint8_t*>(const_cast<char*>(n)),
                                  reinterpret_cast<uint8_t*>(const_cast<char*>(v.constData())),
                                  std::strlen(n), size_t(v.size()), NGHTTP2_NV_FLAG_NONE};
            };
            const QByteArray noCache = "no-cache, private";
            const nghttp2_nv headers[] = {nv(":status", code), nv("content-type", contentType),
                                          nv("cache-control", noCache)};
            nghttp2_data_provider provider;
            provider.source.ptr = s.get();
            provider.read_callback = readData;
            nghttp2_submit_response(c.session, s->id, headers, 3, &provider);
        } else if (deferred) {
            nghttp2_session_resume_data(c.session, s->id);
        }
    }
}

} // namespace

void serveHttp2(TlsStream& stream, const std::function<void(Exchange&, Request&)>& handler) {
    Conn c(stream);
    c.handler = handler;
    if (::pipe2(c.wake, O_CLOEXEC | O_NONBLOCK) != 0 || !stream.setNonBlocking())
        return;
    nghttp2_session_callbacks* cbs = nullptr;
    nghttp2_session_callbacks_new(&cbs);
    nghttp2_session_callbacks_set_send_callback(cbs, onSend);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, onBeginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(cbs, onHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, onData);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, onFrame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cbs, onStreamClose);
    nghttp2_session_server_new(&c.session, cbs, &c);
    nghttp2_session_callbacks_del(cbs);
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 250},
                                               {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20}};
    nghttp2_submit_settings(c.session, NGHTTP2_FLAG_NONE, settings, 2);

    char buf[16384];
    for (;;) {
        processDirty(c);
        if (nghttp2_session_send(c.session) != 0)
            break;
        const bool wantWrite = nghttp2_session_want_write(c.session) != 0;
        if (!nghttp2_session_want_read(c.session) && !wantWrite)
            break;
        pollfd fds[2] = {{stream.fd(), short(POLLIN | (wantWrite ? POLLOUT : 0)), 0}, {c.wake[0], POLLIN, 0}};
        if (::poll(fds, 2, 1000) < 0 && errno != EINTR)
            break;
        if (fds[1].revents & POLLIN) {
            char junk[256];
            while (::read(c.wake[0], junk, sizeof junk) > 0) {
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            bool closed = false;
            for (;;) {
                const long n = stream.readSome(buf, sizeof buf);
                if (n == -2)
                    break;
                if (n <= 0 || nghttp2_session_mem_recv(c.session, reinterpret_cast<const uint8_t*>(buf),
                                                       size_t(n)) < 0) {
                    closed = true;
                    break;
                }
            }
            if (closed)
                break;
        }
    }
    {
        std::lock_guard lock(c.mu);
        c.dead = true;
        for (auto& [id, s] : c.streams)
            s->closed = true;
    }
    c.drained.notify_all();
    for (std::thread& t : c.workers)
        t.join();
    nghttp2_session_del(c.session);
    ::close(c.wake[0]);
    ::close(c.wake[1]);
}

} // namespace kts
