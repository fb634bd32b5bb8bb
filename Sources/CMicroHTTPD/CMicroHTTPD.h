// libmicrohttpd, the HTTP server of glout's control API (--http). Its header wants the
// socket types declared first.
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#endif
