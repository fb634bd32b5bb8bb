#include "CTestProtocols.h"

const struct wl_interface *ct_zwlr_virtual_pointer_manager_v1_interface(void) { return &zwlr_virtual_pointer_manager_v1_interface; }
const struct wl_interface *ct_zwp_virtual_keyboard_manager_v1_interface(void) { return &zwp_virtual_keyboard_manager_v1_interface; }
