#ifndef UNDERSTUDY_CLIBEVENT_SHIM_H
#define UNDERSTUDY_CLIBEVENT_SHIM_H
// libevent's event loop, buffers, bufferevents and listeners: the transport's primitives. evhttp is
// not exposed: the transport owns HTTP (its parser and reply writer are Swift).
// libc first: libevent's event-config.h defines _GNU_SOURCE, and if it is seen before these
// headers, `import Glibc` in the same Swift module sees different declarations and breaks.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/util.h>
#include <event2/listener.h>

#endif
