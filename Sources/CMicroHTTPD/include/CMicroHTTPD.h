#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// What a daemon allows each client and connection, and its TLS identity.
struct cmhd_limits {
    /// A connection with no traffic for this long is closed (MHD_OPTION_CONNECTION_TIMEOUT).
    unsigned int connection_timeout_seconds;
    /// Connections at once, in all (MHD_OPTION_CONNECTION_LIMIT) and from one IP address
    /// (MHD_OPTION_PER_IP_CONNECTION_LIMIT; 0: no limit).
    unsigned int max_connections;
    unsigned int max_connections_per_client;
    /// Memory per connection for the request line, headers and buffers (MHD_OPTION_CONNECTION_MEMORY_LIMIT).
    size_t connection_memory_limit;
    /// PEM text of the key and certificate chain; both set: HTTPS (MHD_USE_TLS, GnuTLS).
    const char *tls_key_pem;
    const char *tls_cert_pem;
};

/// MHD_start_daemon with the options the Swift server uses (variadic in C):
/// thread per connection, `NOTIFY_COMPLETED`, the limits above, the listening
/// address (`loopback_only`: 127.0.0.1, else every IPv4 address), and
/// `URI_LOG_CALLBACK`: `uri_logger` sees each request's URI before MHD decodes it,
/// and its result becomes the request's context.
/// `port` 0 picks a free port (see `cmhd_bound_port`). NULL on failure.
struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, uint16_t port, int loopback_only,
                                     const struct cmhd_limits *limits,
                                     MHD_AccessHandlerCallback handler, void *handler_cls,
                                     MHD_RequestCompletedCallback completed, void *completed_cls,
                                     void *(*uri_logger)(void *, const char *, struct MHD_Connection *),
                                     void *uri_logger_cls);

/// The port a daemon listens on (MHD_get_daemon_info is variadic).
uint16_t cmhd_bound_port(struct MHD_Daemon *daemon);

/// A response owning a copy of `size` bytes (MHD_RESPMEM_MUST_COPY).
struct MHD_Response *cmhd_response_copying(const void *buffer, size_t size);

/// The client's IPv4 address as text into `buffer`; 0 when it has none.
int cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// Writes a whole HTTP response straight to a plain (not TLS) connection's socket and ends
/// the sending side: for refusing a body in the middle of its upload, which
/// libmicrohttpd 0.9.75 does not let `MHD_queue_response` answer. The caller then
/// returns MHD_NO, and MHD closes the connection. 0 when it could not.
int cmhd_answer_and_close(struct MHD_Connection *connection, const void *bytes, size_t size);
