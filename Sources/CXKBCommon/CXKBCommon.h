// libxkbcommon: keymaps and key state for wl_keyboard.
#ifndef CXKBCOMMON_H
#define CXKBCOMMON_H
#include <xkbcommon/xkbcommon.h>
#endif
