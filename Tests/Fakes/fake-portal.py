#!/usr/bin/python3
# A stand-in xdg-desktop-portal for the tests of the banner's reading of its Settings, on a
# private bus the test started (DBUS_SESSION_BUS_ADDRESS): it owns org.freedesktop.portal.Desktop
# and exports org.freedesktop.portal.Settings at /org/freedesktop/portal/desktop, whose ReadAll
# answers with what argv[1] (a Python expression of dbus values) holds, hostile values included.
# Each line on stdin is a Python expression (namespace, key, value): SettingChanged is emitted
# with it. Prints "ready" once the name is owned, "sent" after each signal. With DELAY, ReadAll
# answers that many seconds late (a portal slow to start), serving signals meanwhile.
#
# Usage: fake-portal.py SETTINGS [DELAY]   (python3-dbus with GLib's main loop, python3-gi)
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
SETTINGS = "org.freedesktop.portal.Settings"
VALUES = {"dbus": dbus, "__builtins__": {"float": float, "range": range, "dict": dict, "str": str}}


class Portal(dbus.service.Object):
    def __init__(self, bus, settings, delay):
        super().__init__(bus, PATH)
        self.settings = settings
        self.delay = delay

    @dbus.service.method(SETTINGS, in_signature="as", out_signature="a{sa{sv}}",
                         async_callbacks=("reply", "error"))
    def ReadAll(self, namespaces, reply, error):
        answer = dbus.Dictionary(self.settings, signature="sa{sv}")
        if self.delay <= 0:
            reply(answer)
            return

        def late():
            reply(answer)
            return False

        GLib.timeout_add(int(self.delay * 1000), late)

    @dbus.service.signal(SETTINGS, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = Portal(bus, eval(sys.argv[1], VALUES), float(sys.argv[2]) if len(sys.argv) > 2 else 0)
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    loop = GLib.MainLoop()

    def line_arrived(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        namespace, key, value = eval(line, VALUES)
        portal.SettingChanged(namespace, key, value)
        bus.flush()
        print("sent", flush=True)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, line_arrived)
    print("ready", flush=True)
    loop.run()
    del name


main()
