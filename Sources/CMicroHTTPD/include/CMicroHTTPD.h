#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon with the options the Swift server uses (variadic in C):
/// thread per connection, `NOTIFY_COMPLETED`, a connection timeout, the
/// listening address (`loopback_only`: 127.0.0.1, else every IPv4 address), and
/// `URI_LOG_CALLBACK`: `uri_logger` sees each request's URI before MHD decodes it,
/// and its result becomes the request's context.
/// `port` 0 picks a free port (see `cmhd_bound_port`). NULL on failure.
struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, uint16_t port, int loopback_only,
                                     unsigned int connection_timeout_seconds,
                                     MHD_AccessHandlerCallback handler, void *handler_cls,
                                     MHD_RequestCompletedCallback completed, void *completed_cls,
                                     void *(*uri_logger)(void *, const char *, struct MHD_Connection *),
                                     void *uri_logger_cls);

/// The port a daemon listens on (MHD_get_daemon_info is variadic).
uint16_t cmhd_bound_port(struct MHD_Daemon *daemon);

/// A response owning a copy of `size` bytes (MHD_RESPMEM_MUST_COPY).
struct MHD_Response *cmhd_response_copying(const void *buffer, size_t size);
