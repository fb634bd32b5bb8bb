// Protocols only the tests speak: the virtual pointer and keyboard with which
// InputTests give sway input (the library and glout never use them).
#ifndef CTESTPROTOCOLS_H
#define CTESTPROTOCOLS_H

#include <wayland-client.h>

#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"

// The interface descriptions wl_registry_bind needs (Swift cannot take the address of
// extern C data).
const struct wl_interface *ct_zwlr_virtual_pointer_manager_v1_interface(void);
const struct wl_interface *ct_zwp_virtual_keyboard_manager_v1_interface(void);

#endif
