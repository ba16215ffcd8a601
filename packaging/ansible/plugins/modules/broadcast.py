#!/usr/bin/python
# -*- coding: utf-8 -*-

# Copyright (c) the WindowBanner contributors
# No licence yet, like the rest of WindowBanner (packaging/debian/copyright).

# The module is a thin layer over `window-banner broadcast set|clear --json`: the command
# decides what changes (the same id and words change nothing; --for keeps its first end time),
# so the module passes the options through and reports what the command printed.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: broadcast
short_description: Show an administrator's banner in every graphical session of a Linux desktop
version_added: 0.2.0
description:
  - Sets or clears a broadcast with WindowBanner's C(window-banner broadcast) command on the target.
    A broadcast is a banner at the top of the screen of every targeted user's graphical session,
    shown now and at each later login until it ends (I(until), I(duration)) or is cleared with I(state=absent).
  - The same I(id) with the same content changes nothing, so the task is idempotent.
    A user who dismissed the banner sees it again only when its title or subtitle change.
  - The monitor that starts with every graphical session (C(window-banner-notices), WindowBanner's docs/fleet.md) shows it;
    the result's I(sessions) say what became of it in each session.
requirements:
  - window-banner 0.2.0 or later on the target
  - root on the target (I(become=true))
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying target.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: full
options:
  id:
    description:
      - The broadcast's id, 1 to 64 letters, digits, C(.), C(_) or C(-), not starting with C(.).
      - Setting the same id again replaces that broadcast.
    type: str
    required: true
  state:
    description:
      - C(present) shows the broadcast; C(absent) takes it away from every session.
    type: str
    choices: [ present, absent ]
    default: present
  title:
    description:
      - The banner's title, one line.
    type: str
  subtitle:
    description:
      - A second, smaller line under the title.
    type: str
  background:
    description:
      - Background colour, C(#RRGGBB), C(#RRGGBBAA), C(systemRed) and the like, or an X11 colour name.
    type: str
  text_color:
    description:
      - Title colour, in the same forms as I(background).
    type: str
  icon:
    description:
      - An icon left of the text, a PNG or SVG file on the target, a name in the icon theme, or C(none).
    type: str
  style:
    description:
      - A built-in style, C(offline), C(online), C(call) or C(portal); the other options go on top of it.
    type: str
  monitor:
    description:
      - The monitor to show it on, C(primary), C(all) or a monitor's name.
      - window-banner's default is C(primary).
    type: str
  until:
    description:
      - When it ends, in the target's local time, C(HH:MM) (the next such time), C(YYYY-MM-DD HH:MM),
        an ISO 8601 time, or C(@SECONDS) since 1970.
      - Without I(until) or I(duration) it lasts until cleared.
      - Mutually exclusive with I(duration).
    type: str
  duration:
    description:
      - How long it lasts, seconds or a number with C(s), C(m), C(h) or C(d), such as C(90m) or C(8h).
      - Counted from when these words were first set, so running the task again keeps the first end time.
      - Mutually exclusive with I(until).
    type: str
    aliases: [ for ]
  users:
    description:
      - Only these users see it. With I(groups), a member of either.
      - Default is everyone.
    type: list
    elements: str
  groups:
    description:
      - Only members of these groups see it. With I(users), a member of either.
      - Default is everyone.
    type: list
    elements: str
  persist:
    description:
      - Keep it across a reboot of the target; else it is gone at the next boot.
    type: bool
    default: false
  close_button:
    description:
      - C(true) gives the banner a close button, C(false) none whatever the I(style) says.
      - Default is the style's, else none.
    type: bool
  compact:
    description:
      - The compact style, C(auto) on landscape monitors, C(always) or C(never).
    type: str
    choices: [ auto, always, never ]
  wait:
    description:
      - Seconds to wait, 0 to 60, for the sessions to show it before reporting their I(sessions).
      - window-banner's default is 5. Check mode does not wait.
    type: int
  executable:
    description:
      - The window-banner command, a name looked up on the target's C(PATH) or an absolute path.
    type: str
    default: window-banner
notes:
  - Whether the task changed something is what C(window-banner broadcast) reports.
  - Environment variables of the task (its C(environment) keyword) reach window-banner.
author:
  - the WindowBanner contributors
'''

EXAMPLES = r'''
- name: Announce tonight's maintenance on every desktop for eight hours
  windowbanner.desktop.broadcast:
    id: maintenance
    title: Maintenance tonight at 18:00 — save your work
    background: systemOrange
    for: 8h
  become: true

- name: Tell the finance team only, until Friday evening, across reboots
  windowbanner.desktop.broadcast:
    id: closing
    title: Month-end closing on Friday
    subtitle: The ledger is read-only from 17:00
    until: '2026-12-04 17:00'
    groups: [finance]
    persist: true
  become: true

- name: Take the maintenance banner away
  windowbanner.desktop.broadcast:
    id: maintenance
    state: absent
  become: true
'''

RETURN = r'''
broadcast:
  description:
    - The broadcast as the target holds it after the task, or would in check mode.
    - C(null) with I(state=absent).
  returned: always
  type: dict
  sample:
    id: maintenance
    monitor: primary
    persist: false
    settings:
      title: Maintenance tonight at 18:00 — save your work
    until: 1795910665
    version: 1
sessions:
  description:
    - What became of the broadcast in each graphical session of a targeted user.
    - I(state) is one of C(shown), C(dismissed), C(waiting), C(failed), C(pending), C(unreached) or C(expired);
      I(reason) says why, where there is one.
    - Empty with I(state=absent). Check mode reports the sessions as they are, without waiting.
  returned: always
  type: list
  elements: dict
  sample:
    - user: alice
      uid: 1000
      display: ':0'
      session: '2'
      state: shown
cleared:
  description: The ids of the broadcasts taken away, or that would be in check mode.
  returned: when I(state=absent)
  type: list
  elements: str
  sample: [maintenance]
diff:
  description: The broadcast before and after the task, in diff mode.
  returned: when the task runs in diff mode
  type: dict
  contains:
    before:
      description: The broadcast before, empty when there was none.
      type: dict
    after:
      description: The broadcast after, empty when it was cleared.
      type: dict
'''

import json
import re

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common.text.converters import to_native

# The first window-banner with the broadcast command.
MINIMUM_VERSION = (0, 2, 0)

# Options given as `--NAME VALUE` when set.
TEXT_OPTIONS = ['title', 'subtitle', 'background', 'text_color', 'icon', 'style', 'monitor', 'until', 'duration', 'compact']

# Their names on window-banner's command line, where they differ.
FLAGS = dict(text_color='--text-color', duration='--for')


def find_executable(module):
    """Return the path of window-banner on the target, after checking its version."""
    name = module.params['executable']
    path = module.get_bin_path(name)
    if path is None:
        where = 'no executable %s' % name if '/' in name else 'no %s on PATH' % name
        module.fail_json(msg='window-banner is not installed on this host: %s' % where)
    rc, out, err = module.run_command([path, '--version'])
    found = re.search(r'(\d+)\.(\d+)\.(\d+)', out)
    if rc != 0 or found is None:
        module.fail_json(msg='%s --version did not print a version: %s' % (path, (err or out).strip()), rc=rc)
    version = tuple(int(part) for part in found.groups())
    if version < MINIMUM_VERSION:
        module.fail_json(msg='window-banner %s is installed (%s); broadcast needs window-banner %s or later'
                         % (found.group(0), path, '.'.join(str(part) for part in MINIMUM_VERSION)))
    return path


def run_json(module, command):
    """Run a window-banner command that prints one JSON object; fail with its error line."""
    rc, out, err = module.run_command(command)
    lines = [line for line in err.splitlines() if line.strip()]
    if rc != 0:
        module.fail_json(msg=lines[-1] if lines else '%s exited %d' % (command[0], rc), rc=rc, cmd=command, stdout=out, stderr=err)
    # On success, what window-banner writes to stderr are warnings (a spool file it skipped).
    for line in lines:
        module.warn(line)
    try:
        return json.loads(out)
    except ValueError as error:
        module.fail_json(msg='window-banner printed no JSON: %s' % to_native(error), rc=rc, cmd=command, stdout=out, stderr=err)


def set_command(module, path):
    """The `broadcast set` command line for the module's options."""
    params = module.params
    command = [path, 'broadcast', 'set', '--id', params['id'], '--json']
    for name in TEXT_OPTIONS:
        if params[name] is not None:
            command += [FLAGS.get(name, '--' + name), params[name]]
    for name in ('users', 'groups'):
        if params[name]:
            command += ['--' + name, ','.join(params[name])]
    if params['persist']:
        command.append('--persist')
    if params['close_button'] is not None:
        command.append('--close-button' if params['close_button'] else '--no-close-button')
    if params['wait'] is not None:
        command += ['--wait', str(params['wait'])]
    if module.check_mode:
        command.append('--check')
    return command


def current_broadcast(module, path, broadcast_id):
    """The broadcast `broadcast list` shows with this id, or None."""
    listed = run_json(module, [path, 'broadcast', 'list', '--json'])
    for entry in listed.get('broadcasts', []):
        if entry['broadcast']['id'] == broadcast_id:
            return entry['broadcast']
    return None


def main():
    module = AnsibleModule(
        argument_spec=dict(
            id=dict(type='str', required=True),
            state=dict(type='str', default='present', choices=['present', 'absent']),
            title=dict(type='str'),
            subtitle=dict(type='str'),
            background=dict(type='str'),
            text_color=dict(type='str'),
            icon=dict(type='str'),
            style=dict(type='str'),
            monitor=dict(type='str'),
            until=dict(type='str'),
            duration=dict(type='str', aliases=['for']),
            users=dict(type='list', elements='str'),
            groups=dict(type='list', elements='str'),
            persist=dict(type='bool', default=False),
            close_button=dict(type='bool'),
            compact=dict(type='str', choices=['auto', 'always', 'never']),
            wait=dict(type='int'),
            executable=dict(type='str', default='window-banner'),
        ),
        mutually_exclusive=[('until', 'duration')],
        supports_check_mode=True,
    )
    path = find_executable(module)
    broadcast_id = module.params['id']

    if module.params['state'] == 'present':
        outcome = run_json(module, set_command(module, path))
        result = dict(changed=outcome['changed'], broadcast=outcome['after'], sessions=outcome['sessions'])
        if module._diff:
            result['diff'] = dict(before=outcome.get('before') or {}, after=outcome['after'])
    else:
        # `clear` names what it took away, not what it was: the diff needs it read first.
        before = current_broadcast(module, path, broadcast_id) if module._diff else None
        command = [path, 'broadcast', 'clear', '--id', broadcast_id, '--json']
        if module.check_mode:
            command.append('--check')
        outcome = run_json(module, command)
        result = dict(changed=outcome['changed'], broadcast=None, sessions=[], cleared=outcome['cleared'])
        if module._diff:
            result['diff'] = dict(before=before or {}, after={})
    module.exit_json(**result)


if __name__ == '__main__':
    main()
