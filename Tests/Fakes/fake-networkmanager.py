#!/usr/bin/python3
# A stand-in NetworkManager for the monitor's tests, on a private bus the test started
# (DBUS_SYSTEM_BUS_ADDRESS): it owns org.freedesktop.NetworkManager and exports
# /org/freedesktop/NetworkManager with the one property the monitor reads, Connectivity
# (u: 0 unknown, 1 none, 2 portal, 3 limited, 4 full), through org.freedesktop.DBus.Properties.
# Each line on stdin is a new value: it is set, and PropertiesChanged is emitted as
# NetworkManager does. Prints "ready" once the name is owned, "set N" after each change.
#
# Usage: fake-networkmanager.py INITIAL_VALUE   (python3-dbus with GLib's main loop, python3-gi)
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.NetworkManager"
PATH = "/org/freedesktop/NetworkManager"
PROPERTIES = "org.freedesktop.DBus.Properties"


class NetworkManager(dbus.service.Object):
    def __init__(self, bus, connectivity):
        super().__init__(bus, PATH)
        self.connectivity = dbus.UInt32(connectivity)

    def properties(self):
        return {"Connectivity": self.connectivity}

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != NAME or name not in self.properties():
            raise dbus.exceptions.DBusException("no such property", name="org.freedesktop.DBus.Error.UnknownProperty")
        return self.properties()[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties() if interface == NAME else {}

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def set(self, value):
        self.connectivity = dbus.UInt32(value)
        self.PropertiesChanged(NAME, {"Connectivity": self.connectivity}, [])


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    manager = NetworkManager(bus, int(sys.argv[1]))
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    loop = GLib.MainLoop()

    def line_arrived(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        manager.set(int(line))
        print(f"set {int(line)}", flush=True)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, line_arrived)
    print("ready", flush=True)
    loop.run()
    del name


main()
