#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// What a daemon allows each connection, how many threads poll, and its TLS identity.
struct cmhd_limits {
    /// A connection with no traffic for this long is closed (MHD_OPTION_CONNECTION_TIMEOUT).
    unsigned int connection_timeout_seconds;
    /// Connections at once, in all (MHD_OPTION_CONNECTION_LIMIT) and from one IP address
    /// (MHD_OPTION_PER_IP_CONNECTION_LIMIT; 0: no limit).
    unsigned int max_connections;
    unsigned int max_connections_per_client;
    /// Memory per connection for the request line, headers and buffers (MHD_OPTION_CONNECTION_MEMORY_LIMIT).
    size_t connection_memory_limit;
    /// Threads that poll the connections, each with its own epoll set (MHD_OPTION_THREAD_POOL_SIZE).
    unsigned int polling_threads;
    /// PEM text of the key and certificate chain; both set: HTTPS (MHD_USE_TLS, GnuTLS).
    const char *tls_key_pem;
    const char *tls_cert_pem;
};

/// The callbacks of a daemon and the context each gets.
struct cmhd_callbacks {
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    /// Sees each request's URI before MHD decodes it; its result becomes the request's context.
    void *(*uri_logger)(void *, const char *, struct MHD_Connection *);
    /// Told when a connection starts and when it closes (MHD_OPTION_NOTIFY_CONNECTION); what it
    /// stores in `socket_context` is the connection's (`cmhd_connection_context`).
    MHD_NotifyConnectionCallback connection_notifier;
    void *context;
};

/// MHD_start_daemon with the options the Swift server uses (variadic in C): the flags given,
/// strict parsing (MHD_OPTION_STRICT_FOR_CLIENT 1), the limits above, the listening address
/// (`loopback_only`: 127.0.0.1, else every IPv4 address) and the callbacks, each with
/// `callbacks->context`. `port` 0 picks a free port (see `cmhd_bound_port`). NULL on failure.
struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, uint16_t port, int loopback_only,
                                     const struct cmhd_limits *limits, const struct cmhd_callbacks *callbacks);

/// The port a daemon listens on (MHD_get_daemon_info is variadic).
uint16_t cmhd_bound_port(struct MHD_Daemon *daemon);

/// A response owning a copy of `size` bytes (MHD_RESPMEM_MUST_COPY).
struct MHD_Response *cmhd_response_copying(const void *buffer, size_t size);

/// A response that sends `size` bytes at `buffer` without copying them, and calls
/// `release(owner)` once no connection sends them any more (MHD_create_response_from_buffer_with_free_callback_cls).
struct MHD_Response *cmhd_response_sharing(const void *buffer, size_t size, void *owner, void (*release)(void *));

/// What the connection notifier stored for this connection (MHD_CONNECTION_INFO_SOCKET_CONTEXT); NULL when nothing.
void *cmhd_connection_context(struct MHD_Connection *connection);

/// A second descriptor of the connection's socket (dup), close-on-exec, which keeps the socket
/// open after libmicrohttpd closes its own; -1 when it has none.
int cmhd_duplicate_socket(struct MHD_Connection *connection);

/// The client's IPv4 or IPv6 address of a connection as text into `buffer` (at least
/// INET6_ADDRSTRLEN); 0 when it has none.
int cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// Writes a whole HTTP response straight to a plain (not TLS) connection's socket and ends
/// the sending side: for refusing a body in the middle of its upload, which
/// libmicrohttpd 0.9.75 does not let `MHD_queue_response` answer. The caller then
/// returns MHD_NO, and MHD closes the connection (what the client still sends is read off by
/// the server's lingering close). 0 when it could not.
int cmhd_answer_and_close(struct MHD_Connection *connection, const void *bytes, size_t size);

/// The socket of a connection (MHD_get_connection_info is variadic); -1 when it has none.
int cmhd_connection_socket(struct MHD_Connection *connection);

/// Whether the peer of a socket has closed it, or its sending side, or reset it: one poll
/// with no wait (POLLRDHUP). 0 for a socket that is still open both ways, or for -1.
int cmhd_peer_closed(int socket);

/// Sends `response` without chunked encoding, its end the connection's close
/// (MHD_set_response_options with MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, which is variadic). For
/// endless streamed answers: the body is read into the response's own small buffer, not into
/// a chunk buffer of half the connection's memory.
int cmhd_response_close_delimited(struct MHD_Response *response);
