#define _GNU_SOURCE
#include "CMicroHTTPD.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>

struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, uint16_t port, int loopback_only,
                                     const struct cmhd_limits *limits, const struct cmhd_callbacks *callbacks) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(loopback_only ? INADDR_LOOPBACK : INADDR_ANY);
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callbacks->completed, callbacks->context},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callbacks->uri_logger, callbacks->context},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)callbacks->connection_notifier, callbacks->context},
        {MHD_OPTION_STRICT_FOR_CLIENT, 1, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)limits->connection_timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)limits->max_connections, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)limits->max_connections_per_client, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits->connection_memory_limit, NULL},
        {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)limits->polling_threads, NULL},
        {MHD_OPTION_SOCK_ADDR, 0, (struct sockaddr *)&address},
        {MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, NULL},
        {limits->tls_key_pem != NULL ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)limits->tls_key_pem},
        {limits->tls_cert_pem != NULL ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, (void *)limits->tls_cert_pem},
        {MHD_OPTION_END, 0, NULL},
    };
    if (limits->tls_key_pem != NULL && limits->tls_cert_pem != NULL) flags |= MHD_USE_TLS;
    return MHD_start_daemon(flags, port, NULL, NULL, callbacks->handler, callbacks->context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

struct MHD_Response *cmhd_response_copying(const void *buffer, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)buffer, MHD_RESPMEM_MUST_COPY);
}

struct MHD_Response *cmhd_response_sharing(const void *buffer, size_t size, void *owner, void (*release)(void *)) {
    return MHD_create_response_from_buffer_with_free_callback_cls(size, (void *)buffer, release, owner);
}

void *cmhd_connection_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

int cmhd_duplicate_socket(struct MHD_Connection *connection) {
    int fd = cmhd_connection_socket(connection);
    return fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

int cmhd_peer_closed(int socket) {
    if (socket < 0) return 0;
    struct pollfd entry = {.fd = socket, .events = POLLRDHUP};
    if (poll(&entry, 1, 0) != 1) return 0;
    return (entry.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

int cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *address = info == NULL ? NULL : info->client_addr;
    if (address == NULL) return 0;
    switch (address->sa_family) {
    case AF_INET:
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size) != NULL;
    case AF_INET6:
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size) != NULL;
    default:
        return 0;
    }
}

int cmhd_answer_and_close(struct MHD_Connection *connection, const void *bytes, size_t size) {
    int fd = cmhd_connection_socket(connection);
    if (fd < 0) return 0;
    size_t sent = 0;
    while (sent < size) {
        ssize_t n = send(fd, (const char *)bytes + sent, size - sent, MSG_NOSIGNAL);
        if (n <= 0) return 0;
        sent += (size_t)n;
    }
    shutdown(fd, SHUT_WR);
    return 1;
}

int cmhd_response_close_delimited(struct MHD_Response *response) {
    return MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END) == MHD_YES;
}
