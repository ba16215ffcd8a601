#!/usr/bin/python3
"""An app that shares a GNOME screen through Mutter's own API, as GNOME's portal backend and
gnome-remote-desktop do: org.gnome.Mutter.ScreenCast's CreateSession, RecordMonitor, Start; the
stream's PipeWireStreamAdded names Mutter's node, which GStreamer's pipewiresrc then reads (its
stream called APP-NAME) until this process is ended.

Usage: mutter-screencast.py CONNECTOR APP-NAME   (PIPEWIRE_REMOTE: the shell's PipeWire)
Prints "streaming NODE SECONDS" once Mutter has made its node, SECONDS being when the reader
starts (CLOCK_MONOTONIC), then runs the reader; SIGTERM ends both
(the session ends with this process's bus connection); "closed" when Mutter ends the session
itself (the shell's "Turn off"), or "reader ended" when the cast ended under the reader first,
and then it ends the reader and exits. Exits 3 with one line on stderr when
Mutter refuses or does not answer.
"""
import signal
import subprocess
import sys
import time

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

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
    GLib.timeout_add_seconds(60, loop.quit)
    loop.run()
    if not node:
        fail("Mutter made no PipeWire stream within 60 s")
    name = app.replace(",", " ").replace("=", " ")
    # When the reader starts, on CLOCK_MONOTONIC (GLib's clock too): `make bench` times the
    # sharing banner from it.
    print(f"streaming {node[0]} {time.clock_gettime(time.CLOCK_MONOTONIC):.6f}", flush=True)
    reader = subprocess.Popen(["gst-launch-1.0", "-q", "pipewiresrc", f"path={node[0]}", f"client-name={name}",
                               f"stream-properties=props,application.name={name}", "!", "videoconvert", "!", "fakesink", "sync=false"])

    def end(*_):
        loop.quit()
        return False

    def closed():
        # Mutter ended the session itself (the shell's "Turn off", our extension's StopSharing).
        print("closed", flush=True)
        loop.quit()

    def reader_ended(*_):
        # The cast ended under the reader (Mutter stopped it) before its Closed signal came.
        print("reader ended", flush=True)
        loop.quit()

    bus.add_signal_receiver(closed, "Closed", MUTTER + ".Session", MUTTER, session_path)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, end)
    GLib.child_watch_add(reader.pid, reader_ended)
    loop.run()
    reader.terminate()
    reader.wait()


if __name__ == "__main__":
    main()
