#!/usr/bin/python3
"""An app that shares a GNOME screen through Mutter's own API, as GNOME's portal backend and
gnome-remote-desktop do: org.gnome.Mutter.ScreenCast's CreateSession, RecordMonitor, Start; the
stream's PipeWireStreamAdded names Mutter's node, which GStreamer's pipewiresrc then reads (its
stream called APP-NAME) until this process is ended.

Usage: mutter-screencast.py CONNECTOR APP-NAME   (PIPEWIRE_REMOTE: the shell's PipeWire)
Once Mutter has made its node, reads it as castreader.py says (its lines: "streaming NODE
SECONDS", then "closed" when Mutter ends the session itself, the shell's "Turn off", or "reader
ended"); SIGTERM ends it. Exits 3 with one line on stderr when Mutter refuses or does not answer.
"""
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

sys.dont_write_bytecode = True  # castreader.py is imported from the checkout, which stays as it was
from castreader import read_cast  # noqa: E402

MUTTER = "org.gnome.Mutter.ScreenCast"


def fail(message):
    print(f"mutter-screencast: {message}", file=sys.stderr, flush=True)
    sys.exit(3)


def main():
    connector, app = sys.argv[1], sys.argv[2]
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    try:
        screencast = dbus.Interface(bus.get_object(MUTTER, "/org/gnome/Mutter/ScreenCast"), MUTTER)
        session_path = screencast.CreateSession(dbus.Dictionary({}, signature="sv"))
        session = dbus.Interface(bus.get_object(MUTTER, session_path), MUTTER + ".Session")
        stream_path = session.RecordMonitor(connector, dbus.Dictionary({}, signature="sv"))
    except dbus.DBusException as error:
        fail(f"Mutter refused: {error.get_dbus_message()}")
    node = []

    def added(node_id):
        node.append(int(node_id))
        loop.quit()

    bus.add_signal_receiver(added, "PipeWireStreamAdded", MUTTER + ".Stream", MUTTER, stream_path)
    session.Start()
    timeout = GLib.timeout_add_seconds(60, loop.quit)
    loop.run()
    if not node:
        fail("Mutter made no PipeWire stream within 60 s")
    GLib.source_remove(timeout)
    read_cast(loop, bus, node[0], app, (MUTTER + ".Session", MUTTER, session_path))


if __name__ == "__main__":
    main()
