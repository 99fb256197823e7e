#include "Protobuf.h"

#include <QJsonArray>

#include <map>
#include <vector>

namespace kts {

namespace {

// How one field of a message becomes JSON.
enum class Kind { String, Int, Bool, Message, Strings, Messages, StringMap };
struct Field {
    const char* json;
    Kind kind;
    const char* message = nullptr; // for Message / Messages
};
using Schema = std::map<int, Field>;

// Field numbers as in k8s.io/api's and k8s.io/apimachinery's generated.proto.
const std::map<QString, Schema>& schemas() {
    static const std::map<QString, Schema> s{
        {QStringLiteral("ObjectMeta"),
         {{1, {"name", Kind::String}},
          {2, {"generateName", Kind::String}},
          {3, {"namespace", Kind::String}},
          {11, {"labels", Kind::StringMap}},
          {12, {"annotations", Kind::StringMap}},
          {14, {"finalizers", Kind::Strings}}}},
        {QStringLiteral("Namespace"),
         {{1, {"metadata", Kind::Message, "ObjectMeta"}}, {2, {"spec", Kind::Message, "NamespaceSpec"}}}},
        {QStringLiteral("NamespaceSpec"), {{1, {"finalizers", Kind::Strings}}}},
        {QStringLiteral("ConfigMap"),
         {{1, {"metadata", Kind::Message, "ObjectMeta"}},
          {2, {"data", Kind::StringMap}},
          {4, {"immutable", Kind::Bool}}}},
        {QStringLiteral("ServiceAccount"),
         {{1, {"metadata", Kind::Message, "ObjectMeta"}}, {4, {"automountServiceAccountToken", Kind::Bool}}}},
        {QStringLiteral("Job"),
         {{1, {"metadata", Kind::Message, "ObjectMeta"}}, {2, {"spec", Kind::Message, "JobSpec"}}}},
        {QStringLiteral("JobSpec"),
         {{1, {"parallelism", Kind::Int}},
          {2, {"completions", Kind::Int}},
          {3, {"activeDeadlineSeconds", Kind::Int}},
          {4, {"selector", Kind::Message, "LabelSelector"}},
          {5, {"manualSelector", Kind::Bool}},
          {6, {"template", Kind::Message, "PodTemplateSpec"}},
          {7, {"backoffLimit", Kind::Int}},
          {8, {"ttlSecondsAfterFinished", Kind::Int}},
          {9, {"completionMode", Kind::String}},
          {10, {"suspend", Kind::Bool}}}},
        {QStringLiteral("LabelSelector"), {{1, {"matchLabels", Kind::StringMap}}}},
        {QStringLiteral("PodTemplateSpec"),
         {{1, {"metadata", Kind::Message, "ObjectMeta"}}, {2, {"spec", Kind::Message, "PodSpec"}}}},
        {QStringLiteral("PodSpec"),
         {{2, {"containers", Kind::Messages, "Container"}},
          {3, {"restartPolicy", Kind::String}},
          {4, {"terminationGracePeriodSeconds", Kind::Int}},
          {5, {"activeDeadlineSeconds", Kind::Int}},
          {6, {"dnsPolicy", Kind::String}},
          {7, {"nodeSelector", Kind::StringMap}},
          {8, {"serviceAccountName", Kind::String}}}},
        {QStringLiteral("Container"),
         {{1, {"name", Kind::String}},
          {2, {"image", Kind::String}},
          {3, {"command", Kind::Strings}},
          {4, {"args", Kind::Strings}},
          {5, {"workingDir", Kind::String}},
          {7, {"env", Kind::Messages, "EnvVar"}},
          {13, {"terminationMessagePath", Kind::String}},
          {14, {"imagePullPolicy", Kind::String}},
          {20, {"terminationMessagePolicy", Kind::String}}}},
        {QStringLiteral("EnvVar"), {{1, {"name", Kind::String}}, {2, {"value", Kind::String}}}},
        // The envelope's own messages.
        {QStringLiteral("Unknown"),
         {{1, {"typeMeta", Kind::Message, "TypeMeta"}},
          {2, {"raw", Kind::String}}, // bytes, read as a string only to reach them (see below)
          {3, {"contentEncoding", Kind::String}},
          {4, {"contentType", Kind::String}}}},
        {QStringLiteral("TypeMeta"), {{1, {"apiVersion", Kind::String}}, {2, {"kind", Kind::String}}}},
    };
    return s;
}

struct Reader {
    const uchar* p;
    const uchar* end;
    bool ok = true;

    bool atEnd() const { return p >= end; }
    quint64 varint() {
        quint64 v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) {
                ok = false;
                return 0;
            }
            const uchar b = *p++;
            v |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        ok = false;
        return 0;
    }
    QByteArray bytes() {
        const quint64 n = varint();
        if (!ok || n > quint64(end - p)) {
            ok = false;
            return {};
        }
        QByteArray out(reinterpret_cast<const char*>(p), qsizetype(n));
        p += n;
        return out;
    }
    void skip(int wire) {
        switch (wire) {
        case 0:
            varint();
            break;
        case 1:
            p += 8;
            break;
        case 2:
            bytes();
            break;
        case 5:
            p += 4;
            break;
        default:
            ok = false;
        }
        if (p > end)
            ok = false;
    }
};

// One message as JSON; the raw bytes of the fields read as strings are kept in `raw` (by json name),
// for the envelope's `raw`.
std::optional<QJsonObject> decode(const QByteArray& bytes, const QString& message, int depth,
                                  std::map<QString, QByteArray>* raw = nullptr) {
    const auto found = schemas().find(message);
    if (found == schemas().end() || depth > 16)
        return std::nullopt;
    const Schema& schema = found->second;
    Reader r{reinterpret_cast<const uchar*>(bytes.constData()),
             reinterpret_cast<const uchar*>(bytes.constData()) + bytes.size()};
    QJsonObject out;
    while (r.ok && !r.atEnd()) {
        const quint64 tag = r.varint();
        const int number = int(tag >> 3), wire = int(tag & 7);
        const auto f = schema.find(number);
        if (f == schema.end()) {
            r.skip(wire);
            continue;
        }
        const Field& field = f->second;
        const QString key = QString::fromLatin1(field.json);
        switch (field.kind) {
        case Kind::String: {
            if (wire != 2)
                return std::nullopt;
            const QByteArray b = r.bytes();
            if (raw)
                (*raw)[key] = b;
            out.insert(key, QString::fromUtf8(b));
            break;
        }
        case Kind::Int:
        case Kind::Bool: {
            if (wire != 0)
                return std::nullopt;
            const quint64 v = r.varint();
            if (field.kind == Kind::Bool)
                out.insert(key, v != 0);
            else
                out.insert(key, double(qint64(v)));
            break;
        }
        case Kind::Message:
        case Kind::Messages: {
            if (wire != 2)
                return std::nullopt;
            const std::optional<QJsonObject> sub =
                decode(r.bytes(), QString::fromLatin1(field.message), depth + 1);
            if (!sub)
                return std::nullopt;
            if (field.kind == Kind::Message) {
                out.insert(key, *sub);
            } else {
                QJsonArray a = out.value(key).toArray();
                a.append(*sub);
                out.insert(key, a);
            }
            break;
        }
        case Kind::Strings: {
            if (wire != 2)
                return std::nullopt;
            QJsonArray a = out.value(key).toArray();
            a.append(QString::fromUtf8(r.bytes()));
            out.insert(key, a);
            break;
        }
        case Kind::StringMap: {
            if (wire != 2)
                return std::nullopt;
            const QByteArray entry = r.bytes();
            Reader e{reinterpret_cast<const uchar*>(entry.constData()),
                     reinterpret_cast<const uchar*>(entry.constData()) + entry.size()};
            QString k, v;
            while (e.ok && !e.atEnd()) {
                const quint64 t = e.varint();
                if ((t & 7) != 2) {
                    e.skip(int(t & 7));
                    continue;
                }
                const QString s = QString::fromUtf8(e.bytes());
                ((t >> 3) == 1 ? k : v) = s;
            }
            if (!e.ok)
                return std::nullopt;
            QJsonObject m = out.value(key).toObject();
            m.insert(k, v);
            out.insert(key, m);
            break;
        }
        }
    }
    if (!r.ok)
        return std::nullopt;
    return out;
}

} // namespace

std::optional<QJsonObject> decodeKubernetesProtobuf(const QByteArray& body, QString* why) {
    static const QByteArray magic("k8s\0", 4);
    if (!body.startsWith(magic)) {
        *why = QStringLiteral("the body is not a Kubernetes protobuf message (no k8s\\0 prefix)");
        return std::nullopt;
    }
    std::map<QString, QByteArray> raw;
    const std::optional<QJsonObject> unknown = decode(body.mid(4), QStringLiteral("Unknown"), 0, &raw);
    if (!unknown) {
        *why = QStringLiteral("the protobuf envelope (runtime.Unknown) is malformed");
        return std::nullopt;
    }
    const QJsonObject typeMeta = unknown->value(QLatin1String("typeMeta")).toObject();
    const QString kind = typeMeta.value(QLatin1String("kind")).toString();
    const QString apiVersion = typeMeta.value(QLatin1String("apiVersion")).toString();
    static const QStringList readable{QStringLiteral("Namespace"), QStringLiteral("ConfigMap"),
                                      QStringLiteral("ServiceAccount"), QStringLiteral("Job")};
    if (!readable.contains(kind)) {
        *why = QStringLiteral("%1 %2 in protobuf is not read by this test server; send application/json")
                   .arg(apiVersion, kind);
        return std::nullopt;
    }
    std::optional<QJsonObject> object = decode(raw[QStringLiteral("raw")], kind, 0);
    if (!object) {
        *why = QStringLiteral("the protobuf %1 is malformed").arg(kind);
        return std::nullopt;
    }
    object->insert(QStringLiteral("apiVersion"), apiVersion);
    object->insert(QStringLiteral("kind"), kind);
    return object;
}

} // namespace kts
