#!/usr/bin/python3
"""An app that shares the screen as Zoom or a browser does on a wlroots desktop: it asks
xdg-desktop-portal's ScreenCast interface for a session (CreateSession, SelectSources for a
monitor, Start), opens the PipeWire remote the portal hands it (OpenPipeWireRemote) and reads
the stream with GStreamer's pipewiresrc until it is ended.

Usage: screencast-client.py APP-NAME   (its session bus: the portal's)
Once the portal has started the cast, reads it on the portal's descriptor as castreader.py says
(its lines: "streaming NODE SECONDS", then "closed" or "reader ended"); SIGTERM ends it. Exits 3
with one line on stderr when the portal refuses or does not answer.
"""
import os
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

sys.dont_write_bytecode = True  # castreader.py is imported from the checkout, which stays as it was
from castreader import read_cast  # noqa: E402

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
    read_cast(loop, bus, node, app, ("org.freedesktop.portal.Session", PORTAL, session), descriptor=descriptor)


if __name__ == "__main__":
    main()
