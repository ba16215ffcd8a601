#!/usr/bin/python3
# A stand-in systemd user manager for the session-finding tests, on a private bus at the
# user's $XDG_RUNTIME_DIR/bus (DBUS_SESSION_BUS_ADDRESS): it owns org.freedesktop.systemd1 and
# exports /org/freedesktop/systemd1's Manager.Environment (what `systemctl --user
# import-environment` fills at login) with the NAME=VALUE arguments, through
# org.freedesktop.DBus.Properties. Prints "ready" once the name is owned; runs until its stdin
# closes.
#
# Usage: fake-user-manager.py NAME=VALUE…   (python3-dbus with GLib's main loop, python3-gi)
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.systemd1"
PROPERTIES = "org.freedesktop.DBus.Properties"


class Manager(dbus.service.Object):
    def __init__(self, bus, environment):
        super().__init__(bus, "/org/freedesktop/systemd1")
        self.environment = dbus.Array(environment, signature="s")

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != NAME + ".Manager" or name != "Environment":
            raise dbus.exceptions.DBusException("no such property " + name, name="org.freedesktop.DBus.Error.UnknownProperty")
        return self.environment


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    manager = Manager(bus, sys.argv[1:])
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    loop = GLib.MainLoop()

    def stdin_closed(source, condition):
        if not sys.stdin.readline():
            loop.quit()
            return False
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, stdin_closed)
    print("ready", flush=True)
    loop.run()
    del name, manager


main()
