#!/usr/bin/python3
# A stand-in logind for the session-finding tests, on a private system bus the test started
# (DBUS_SYSTEM_BUS_ADDRESS): it owns org.freedesktop.login1 and answers what window-banner asks
# of it — Manager.ListSessions and Manager.GetUser, each Session's Type, Display, Active,
# Remote, Class and State, each User's RuntimePath — through org.freedesktop.DBus.Properties,
# with the sessions of a JSON file; and a scheduled shutdown as logind keeps it (issue 52):
# ScheduleShutdown(st), CancelScheduledShutdown(), SetWallMessage(sb), the Manager's
# ScheduledShutdown (st), WallMessage and EnableWallMessages, with the file logind writes while
# one is scheduled ("shutdown_file": its path, under the test's own root) made and removed as
# logind does — and, as logind, no PropertiesChanged for it (systemd #22244).
# The JSON file:
#   {"sessions": [{"id": "c1", "uid": 1000, "user": "alice", "type": "x11", "display": ":0",
#                  "active": true, "remote": false, "class": "user", "state": "active"}],
#    "runtime": {"1000": "/run/user/1000"}, "shutdown_file": "/tmp/root/run/systemd/shutdown/scheduled"}
# Prints "ready" once the name is owned; runs until its stdin closes.
#
# Usage: fake-logind.py SESSIONS.json   (python3-dbus with GLib's main loop, python3-gi)
import json
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.login1"
PROPERTIES = "org.freedesktop.DBus.Properties"


class PropertyObject(dbus.service.Object):
    interface = ""

    def __init__(self, bus, path, properties):
        super().__init__(bus, path)
        self.properties = properties

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != self.interface or name not in self.properties:
            raise dbus.exceptions.DBusException("no such property " + name, name="org.freedesktop.DBus.Error.UnknownProperty")
        return self.properties[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties if interface == self.interface else {}


class Session(PropertyObject):
    interface = NAME + ".Session"


class User(PropertyObject):
    interface = NAME + ".User"


def session_path(session):
    return "/org/freedesktop/login1/session/_" + session["id"]


def user_path(uid):
    return "/org/freedesktop/login1/user/_%d" % uid


class Manager(PropertyObject):
    interface = NAME + ".Manager"

    def __init__(self, bus, sessions, runtime, shutdown_file):
        super().__init__(bus, "/org/freedesktop/login1", {
            "ScheduledShutdown": dbus.Struct(("", dbus.UInt64(0)), signature="st"),
            "WallMessage": dbus.String(""),
            "EnableWallMessages": dbus.Boolean(True),
        })
        self.shutdown_file = shutdown_file
        self.sessions = sessions
        self.objects = [Session(bus, session_path(s), {
            "Id": dbus.String(s["id"]),
            "Type": dbus.String(s.get("type", "x11")),
            "Display": dbus.String(s.get("display", "")),
            "Active": dbus.Boolean(s.get("active", True)),
            "Remote": dbus.Boolean(s.get("remote", False)),
            "Class": dbus.String(s.get("class", "user")),
            "State": dbus.String(s.get("state", "active" if s.get("active", True) else "online")),
        }) for s in sessions]
        self.users = {int(uid): User(bus, user_path(int(uid)), {"RuntimePath": dbus.String(path)}) for uid, path in runtime.items()}

    @dbus.service.method(NAME + ".Manager", in_signature="", out_signature="a(susso)")
    def ListSessions(self):
        return [(s["id"], dbus.UInt32(s["uid"]), s["user"], s.get("seat", "seat0"), dbus.ObjectPath(session_path(s))) for s in self.sessions]

    @dbus.service.method(NAME + ".Manager", in_signature="u", out_signature="o")
    def GetUser(self, uid):
        if int(uid) not in self.users:
            raise dbus.exceptions.DBusException("no user %d" % uid, name="org.freedesktop.login1.NoSuchUser")
        return dbus.ObjectPath(user_path(int(uid)))

    @dbus.service.method(NAME + ".Manager", in_signature="st", out_signature="")
    def ScheduleShutdown(self, kind, usec):
        if kind not in ("poweroff", "reboot", "halt", "kexec", "dry-poweroff", "dry-reboot", "dry-halt"):
            raise dbus.exceptions.DBusException("unsupported shutdown type", name="org.freedesktop.DBus.Error.InvalidArgs")
        self.properties["ScheduledShutdown"] = dbus.Struct((kind, dbus.UInt64(usec)), signature="st")
        self.write_schedule()

    @dbus.service.method(NAME + ".Manager", in_signature="", out_signature="b")
    def CancelScheduledShutdown(self):
        kind, _ = self.properties["ScheduledShutdown"]
        self.properties["ScheduledShutdown"] = dbus.Struct(("", dbus.UInt64(0)), signature="st")
        if self.shutdown_file and os.path.exists(self.shutdown_file):
            os.unlink(self.shutdown_file)
        return dbus.Boolean(kind != "")

    @dbus.service.method(NAME + ".Manager", in_signature="sb", out_signature="")
    def SetWallMessage(self, message, enable):
        self.properties["WallMessage"] = dbus.String(message)
        self.properties["EnableWallMessages"] = dbus.Boolean(enable)
        if self.properties["ScheduledShutdown"][0]:
            self.write_schedule()

    def write_schedule(self):
        """The file logind keeps while a shutdown is scheduled, written anew as logind does."""
        if not self.shutdown_file:
            return
        kind, usec = self.properties["ScheduledShutdown"]
        os.makedirs(os.path.dirname(self.shutdown_file), exist_ok=True)
        temporary = self.shutdown_file + ".tmp"
        with open(temporary, "w") as file:
            file.write("USEC=%d\nWARN_WALL=1\nMODE=%s\nWALL_MESSAGE=%s\n" % (usec, kind, self.properties["WallMessage"]))
        os.rename(temporary, self.shutdown_file)


def main():
    with open(sys.argv[1]) as file:
        configuration = json.load(file)
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    manager = Manager(bus, configuration.get("sessions", []), configuration.get("runtime", {}), configuration.get("shutdown_file"))
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
