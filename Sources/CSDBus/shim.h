// sd-bus, libsystemd's D-Bus client: the system bus for NetworkManager's connectivity
// (NetworkManagerBus). Only its non-variadic calls are used, which Swift can call directly.
#ifndef WINDOWBANNER_CSDBUS_SHIM_H
#define WINDOWBANNER_CSDBUS_SHIM_H

#include <systemd/sd-bus.h>

#endif
