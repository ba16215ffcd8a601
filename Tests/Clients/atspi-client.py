#!/usr/bin/python3
# A screen reader's view of the desktop, through at-spi2-core's own client library (Atspi, by
# GObject introspection): what AccessibilityTests checks the owner against. It registers for
# the events Orca speaks notifications on, prints "ready", then prints each such event as a JSON
# line, and answers commands read from stdin, one a line:
#   tree          the `window-banner` application's accessible tree, as one JSON line
#   press NAME    does the first action of the object called NAME; prints {"pressed": result}
#   apps          the names of the desktop's applications, as one JSON line
import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402


def say(value):
    print(json.dumps(value), flush=True)


def application():
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        if app is not None and app.get_name() == "window-banner":
            return app
    return None


def describe(accessible):
    actions = []
    action = accessible.get_action_iface()
    if action is not None:
        actions = [action.get_action_name(i) for i in range(action.get_n_actions())]
    states = accessible.get_state_set()
    return {
        "role": accessible.get_role_name(),
        "name": accessible.get_name(),
        "description": accessible.get_description(),
        "showing": states.contains(Atspi.StateType.SHOWING),
        "attributes": accessible.get_attributes() or {},
        "actions": actions,
        "children": [describe(accessible.get_child_at_index(i)) for i in range(accessible.get_child_count())],
    }


def find(accessible, name):
    if accessible.get_name() == name and accessible.get_role() != Atspi.Role.APPLICATION:
        return accessible
    for index in range(accessible.get_child_count()):
        found = find(accessible.get_child_at_index(index), name)
        if found is not None:
            return found
    return None


def on_event(event):
    source = event.source
    app = source.get_application() if source is not None else None
    say({
        "event": event.type,
        "detail1": event.detail1,
        "app": app.get_name() if app is not None else None,
        "role": source.get_role_name() if source is not None else None,
        "name": source.get_name() if source is not None else None,
        "description": source.get_description() if source is not None else None,
    })


def on_command(channel, condition):
    line = sys.stdin.readline()
    if not line:
        Atspi.event_quit()
        return False
    command, _, argument = line.strip().partition(" ")
    try:
        if command == "tree":
            app = application()
            say(describe(app) if app is not None else None)
        elif command == "apps":
            desktop = Atspi.get_desktop(0)
            say([desktop.get_child_at_index(i).get_name() for i in range(desktop.get_child_count())])
        elif command == "press":
            app = application()
            target = find(app, argument) if app is not None else None
            say({"pressed": bool(target is not None and target.get_action_iface().do_action(0))})
    except GLib.Error as error:
        say({"error": str(error)})
    return True


Atspi.init()
listener = Atspi.EventListener.new(on_event)
listener.register("object:state-changed:showing")
listener.register("object:announcement")
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, on_command)
say("ready")
Atspi.event_main()
