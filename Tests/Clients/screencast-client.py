#!/usr/bin/python3
"""An app that shares the screen as Zoom or a browser does on a wlroots desktop: it asks
xdg-desktop-portal's ScreenCast interface for a session (CreateSession, SelectSources for a
monitor, Start), opens the PipeWire remote the portal hands it (OpenPipeWireRemote) and reads
the stream with GStreamer's pipewiresrc until it is ended.

Usage: screencast-client.py APP-NAME   (its session bus: the portal's)
Prints "streaming NODE SECONDS" once the portal has started the cast, SECONDS being when the
reader starts (CLOCK_MONOTONIC), then runs the reader on the portal's descriptor while it keeps
the session (the portal ends a session with its app's bus connection); SIGTERM ends both.
"closed" when the portal ends the session itself, or "reader ended" when the cast ended under
the reader first, and then it ends the reader and exits. Exits 3 with one line on stderr when
the portal refuses or does not answer.
"""
import os
import signal
import subprocess
import sys
import time

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PORTAL = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
SCREENCAST = "org.freedesktop.portal.ScreenCast"


def fail(message):
    print(f"screencast-client: {message}", file=sys.stderr, flush=True)
    sys.exit(3)


def main():
    app = sys.argv[1] if len(sys.argv) > 1 else "Zoom"
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = dbus.Interface(bus.get_object(PORTAL, PATH), SCREENCAST)
    sender = bus.get_unique_name()[1:].replace(".", "_")
    loop = GLib.MainLoop()
    counter = [0]

    def request(method, *arguments, options):
        """Calls `method`, awaits its Request's Response and returns the results."""
        counter[0] += 1
        token = f"wbtest{os.getpid()}_{counter[0]}"
        path = f"/org/freedesktop/portal/desktop/request/{sender}/{token}"
        answer = {}

        def response(code, results):
            answer["code"], answer["results"] = int(code), results
            loop.quit()

        match = bus.add_signal_receiver(response, "Response", "org.freedesktop.portal.Request", PORTAL, path)
        options["handle_token"] = token
        getattr(portal, method)(*arguments, options)
        def too_late():
            answer["late"] = True
            loop.quit()
            return False

        timeout = GLib.timeout_add_seconds(60, too_late)
        loop.run()
        if "late" not in answer:
            GLib.source_remove(timeout)
        match.remove()
        if "code" not in answer:
            fail(f"{method}: the portal did not answer within 60 s")
        if answer["code"] != 0:
            fail(f"{method}: the portal answered {answer['code']}")
        return answer["results"]

    session = request("CreateSession", options={"session_handle_token": f"wbsession{os.getpid()}"})["session_handle"]
    request("SelectSources", session, options={"types": dbus.UInt32(1), "multiple": False})
    streams = request("Start", session, "", options={}).get("streams", [])
    if not streams:
        fail("Start: the portal started no stream")
    node = int(streams[0][0])
    descriptor = portal.OpenPipeWireRemote(session, dbus.Dictionary({}, signature="sv")).take()
    # The app's name as PipeWire tells it (its stream's application.name), as for the callers.
    name = app.replace(",", " ").replace("=", " ")
    # When the reader starts, on CLOCK_MONOTONIC (GLib's clock too): `make bench` times the
    # sharing banner from it.
    print(f"streaming {node} {time.clock_gettime(time.CLOCK_MONOTONIC):.6f}", flush=True)
    reader = subprocess.Popen(["gst-launch-1.0", "-q", "pipewiresrc", f"fd={descriptor}", f"path={node}", f"client-name={name}",
                               f"stream-properties=props,application.name={name}", "!", "videoconvert", "!", "fakesink", "sync=false"],
                              pass_fds=[descriptor])
    os.close(descriptor)

    def end(*_):
        loop.quit()
        return False

    def closed(*_):
        # The portal ended the session itself.
        print("closed", flush=True)
        loop.quit()

    def reader_ended(*_):
        # The cast ended under the reader before the portal's Closed signal came.
        print("reader ended", flush=True)
        loop.quit()

    bus.add_signal_receiver(closed, "Closed", "org.freedesktop.portal.Session", PORTAL, session)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, end)
    GLib.child_watch_add(reader.pid, reader_ended)
    loop.run()
    reader.terminate()
    reader.wait()


if __name__ == "__main__":
    main()
