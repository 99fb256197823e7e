// Errors are values: a Result<T> carries either a value or an Error that names the file, the
// line, the field and the reason, so a message can reach the user intact across layers.
#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace pb {

struct Error {
    QString file;    // file (or resource path) the problem is in; empty when not file-bound
    int line = 0;    // 1-based line, 0 when unknown
    QString field;   // dotted path of the offending field, e.g. "spec.componentRefs[2].name"
    QString message; // the reason, in words a user understands

    // "overlays/eks.yaml:12: spec.base: overlay 'ekz' does not exist"
    QString toString() const {
        QString out;
        if (!file.isEmpty()) {
            out += file;
            if (line > 0)
                out += QLatin1Char(':') + QString::number(line);
            out += QLatin1String(": ");
        }
        if (!field.isEmpty())
            out += field + QLatin1String(": ");
        out += message;
        return out;
    }
};

inline Error makeError(QString message, QString file = {}, int line = 0, QString field = {}) {
    return Error{std::move(file), line, std::move(field), std::move(message)};
}

template <typename T> class [[nodiscard]] Result {
  public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Error error) : m_v(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_v); }
    const T& value() const& { return std::get<T>(m_v); }
    // On a temporary Result the value is moved out, never referenced: `for (x : *load())` then
    // iterates a live object instead of one destroyed at the end of the range expression.
    T value() && { return std::get<T>(std::move(m_v)); }
    T* operator->() { return &std::get<T>(m_v); }
    const T* operator->() const { return &std::get<T>(m_v); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T operator*() && { return std::move(*this).value(); }

    const Error& error() const { return std::get<Error>(m_v); }
    // The value, or `fallback` when this is an error (for callers that report the failure later).
    T valueOr(T fallback) const& { return ok() ? value() : std::move(fallback); }

  private:
    std::variant<T, Error> m_v;
};

// Result<void> equivalent.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)) {}
    static Status success() { return {}; }
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *m_error; }

  private:
    std::optional<Error> m_error;
};

} // namespace pb
