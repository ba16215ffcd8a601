"""What an app sharing the screen does once its compositor or portal has made the cast: it reads
the cast with GStreamer's pipewiresrc, its stream called as the app (application.name), and keeps
its D-Bus session open while it reads (a session ends with its app's bus connection).

read_cast() prints "streaming NODE SECONDS" (SECONDS: when the reader starts, on CLOCK_MONOTONIC,
GLib's clock too: `make bench` times the sharing banner from it), then runs until SIGTERM, until
the session's Closed signal ("closed": the desktop ended the share itself) or until the reader
ends first ("reader ended": the cast ended under it), and then ends the reader.
"""
import os
import signal
import subprocess
import time

from gi.repository import GLib


def read_cast(loop, bus, node, app, closed_signal, descriptor=None):
    """Reads cast `node` as `app` (through the portal's remote `descriptor` when given) until
    the share ends; `closed_signal` is (interface, sender, path) of the session's Closed."""
    name = app.replace(",", " ").replace("=", " ")
    source = ["pipewiresrc", f"path={node}", f"client-name={name}", f"stream-properties=props,application.name={name}"]
    if descriptor is not None:
        source.insert(1, f"fd={descriptor}")
    print(f"streaming {node} {time.clock_gettime(time.CLOCK_MONOTONIC):.6f}", flush=True)
    reader = subprocess.Popen(["gst-launch-1.0", "-q"] + source + ["!", "videoconvert", "!", "fakesink", "sync=false"],
                              pass_fds=[] if descriptor is None else [descriptor])
    if descriptor is not None:
        os.close(descriptor)

    def end(*_):
        loop.quit()
        return False

    def closed(*_):
        print("closed", flush=True)
        loop.quit()

    def reader_ended(*_):
        print("reader ended", flush=True)
        loop.quit()

    interface, sender, path = closed_signal
    bus.add_signal_receiver(closed, "Closed", interface, sender, path)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, end)
    GLib.child_watch_add(reader.pid, reader_ended)
    loop.run()
    reader.terminate()
    reader.wait()
