#!/usr/bin/python3
# A stand-in xdg-desktop-portal for the tests of the banner's reading of its Settings, on a
# private bus the test started (DBUS_SESSION_BUS_ADDRESS): it owns org.freedesktop.portal.Desktop
# and exports org.freedesktop.portal.Settings at /org/freedesktop/portal/desktop, whose ReadAll
# answers with what argv[1] (a Python expression of dbus values) holds, hostile values included.
# Each line on stdin is a Python expression (namespace, key, value): SettingChanged is emitted
# with it. Prints "ready" once the name is owned, "sent" after each signal.
#
# Usage: fake-portal.py SETTINGS   (python3-dbus with GLib's main loop, python3-gi)
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
    def __init__(self, bus, settings):
        super().__init__(bus, PATH)
        self.settings = settings

    @dbus.service.method(SETTINGS, in_signature="as", out_signature="a{sa{sv}}")
    def ReadAll(self, namespaces):
        return dbus.Dictionary(self.settings, signature="sa{sv}")

    @dbus.service.signal(SETTINGS, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = Portal(bus, eval(sys.argv[1], VALUES))
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
