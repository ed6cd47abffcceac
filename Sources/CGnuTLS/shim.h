#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
