#define _GNU_SOURCE
#include "CMicroHTTPD.h"
#include <poll.h>

int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

int cmhd_peer_closed(int socket) {
    if (socket < 0) return 0;
    struct pollfd entry = {.fd = socket, .events = POLLRDHUP};
    if (poll(&entry, 1, 0) != 1) return 0;
    return (entry.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}
