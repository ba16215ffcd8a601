// WindowBanner's GNOME Shell extension: the shell's side of the GNOME backend. The owner process
// (window-banner's BannerGnomeShell) lays out and draws every banner itself — the same pixels as
// on any other desktop — and hands each monitor's image to this extension over the session bus;
// the extension shows it as chrome under the top bar, reserves its height with one strut
// (`Main.layoutManager.addChrome(…, {affectsStruts: true})`, as the top bar's own box does),
// slides it with Clutter's easing, and tells the owner where the user clicked. Nothing here
// decides a look.
//
// It also tells the owner whether the screen is shared, and stops the shares for its sharing
// banner's "Stop sharing" (remote-access.js).
//
// One source for every shell: scripts/build-extension.sh wraps this body, after
// banner-fields.js (a banner's fields, checked) and remote-access.js, followed by
// monitor-banner.js (one monitor's banner), for GNOME 42–44
// (`imports.*`, `init()`) and for 45+ (ES modules, `export default class … extends Extension`).
// It expects `Gio`, `GLib`, `St`, `Clutter`, `Cogl` and `Main` in scope.
// Start reading at `BannerService`.

const BusName = 'org.windowbanner.Shell';
const ObjectPath = '/org/windowbanner/Shell';
const InterfaceName = 'org.windowbanner.Shell1';
const InvalidArgs = `${InterfaceName}.Error.InvalidArgs`;
const AccessDenied = `${InterfaceName}.Error.AccessDenied`;

const InterfaceXML = `<node>
  <interface name="${InterfaceName}">
    <property name="Version" type="u" access="read"/>
    <method name="GetMonitors">
      <arg name="monitors" type="a(sbiiiidi)" direction="out"/>
    </method>
    <method name="Show">
      <arg name="monitor" type="s" direction="in"/>
      <arg name="banner" type="a{sv}" direction="in"/>
    </method>
    <method name="Hide">
      <arg name="monitor" type="s" direction="in"/>
    </method>
    <method name="Raise">
      <arg name="pids" type="ai" direction="in"/>
      <arg name="raised" type="b" direction="out"/>
    </method>
    <property name="Sharing" type="b" access="read"/>
    <method name="StopSharing">
      <arg name="stopped" type="u" direction="out"/>
    </method>
    <signal name="SharingChanged">
      <arg name="sharing" type="b"/>
    </signal>
    <signal name="MonitorsChanged"/>
    <signal name="Pointer">
      <arg name="monitor" type="s"/>
      <arg name="serial" type="u"/>
      <arg name="button" type="s"/>
      <arg name="pressed" type="b"/>
      <arg name="x" type="i"/>
      <arg name="y" type="i"/>
    </signal>
    <signal name="Painted">
      <arg name="monitor" type="s"/>
      <arg name="serial" type="u"/>
    </signal>
  </interface>
</node>`;

/** The interface's version: the owner refuses an extension that speaks another. */
const Version = 1;

/**
 * The extension while it is enabled: `org.windowbanner.Shell` on the session bus, one
 * MonitorBanner per monitor showing a banner, and the shell's signals that hide them (overview,
 * lock screen) or move them (monitors). Only callers running as the shell's own user are
 * served; a banner is removed when the process that showed it leaves the bus. Nothing runs
 * while no call comes: no timer, no polling.
 */
class BannerService {
    constructor() {
        this._banners = new Map();
        this._names = new Map(); // Main.layoutManager.monitors index → connector name
        this._namesKnown = false;
        this._nameWaiters = null; // while DisplayConfig is being asked: what waits for its answer
        this._allowed = new Set();
        this._pending = new Map(); // sender → calls waiting for its user to be checked
        this._ownerWatches = new Map();
        this._uid = new Gio.Credentials().get_unix_user();
        this._dbus = Gio.DBusExportedObject.wrapJSObject(InterfaceXML, this);
        this._dbus.export(Gio.DBus.session, ObjectPath);
        this._sharing = new SharingWatch(sharing => this._dbus.emit_signal('SharingChanged', new GLib.Variant('(b)', [sharing])));
        this._nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, BusName, Gio.BusNameOwnerFlags.NONE, null, null);
        this._signals = [
            [Main.overview, Main.overview.connect('showing', () => this._updateVisibility())],
            [Main.overview, Main.overview.connect('hidden', () => this._updateVisibility())],
            [Main.sessionMode, Main.sessionMode.connect('updated', () => this._updateVisibility())],
            [Main.layoutManager, Main.layoutManager.connect('monitors-changed', () => this._monitorsChanged())],
            [global.display, global.display.connect('workareas-changed', () => this._placeEveryBanner())],
        ];
        this._placeBeforeStruts();
        this._monitorsChanged();
    }

    /**
     * Re-places every banner just before the shell turns its chrome into struts (layout.js's
     * `_updateRegions`, which runs once per change of any chrome), so that another extension's
     * new panel or dock and the banner's move reach Mutter as one set of struts: windows are
     * laid out again once. Undone by `destroy()` (unless another extension has wrapped the same
     * method since, whose wrapper is then left to call ours, which then does nothing). Where the
     * shell has no such method, `workareas-changed` still re-places the banner, a re-layout later.
     */
    _placeBeforeStruts() {
        const layout = Main.layoutManager;
        if (typeof layout._updateRegions !== 'function')
            return;
        const service = this;
        const updateRegions = layout._updateRegions;
        const hadOwn = Object.prototype.hasOwnProperty.call(layout, '_updateRegions');
        let enabled = true;
        const wrapped = function (...args) {
            if (enabled)
                service._placeEveryBanner();
            return updateRegions.apply(this, args);
        };
        layout._updateRegions = wrapped;
        this._unwrap = () => {
            enabled = false;
            if (layout._updateRegions !== wrapped)
                return;
            if (hadOwn)
                layout._updateRegions = updateRegions;
            else
                delete layout._updateRegions;
        };
    }

    destroy() {
        this._unwrap?.();
        this._sharing.destroy();
        for (const [object, id] of this._signals)
            object.disconnect(id);
        for (const banner of this._banners.values())
            banner.destroy();
        this._banners.clear();
        for (const id of this._ownerWatches.values())
            Gio.bus_unwatch_name(id);
        this._ownerWatches.clear();
        Gio.bus_unown_name(this._nameId);
        this._dbus.unexport();
    }

    // The D-Bus interface

    get Version() {
        return Version;
    }

    GetMonitorsAsync(parameters, invocation) {
        this._authorizedWithNames(invocation, () => {
            const primary = Main.layoutManager.primaryIndex;
            const interfaceScale = St.ThemeContext.get_for_stage(global.stage).scale_factor;
            // In device pixels, and the scale the owner draws at: the monitor's own.
            const monitors = Main.layoutManager.monitors.map(monitor => {
                const ratio = devicePixelsPerUnit(monitor);
                return [
                    this._name(monitor), monitor.index === primary, Math.round(monitor.x * ratio), Math.round(monitor.y * ratio),
                    Math.round(monitor.width * ratio), Math.round(monitor.height * ratio), interfaceScale * ratio,
                    Math.round(this.topInset(monitor) * ratio),
                ];
            });
            invocation.return_value(new GLib.Variant('(a(sbiiiidi))', [monitors]));
        });
    }

    ShowAsync(parameters, invocation) {
        this._authorizedWithNames(invocation, () => {
            const [name, fields] = parameters;
            const monitor = this._monitor(name);
            if (monitor === null) {
                invocation.return_dbus_error(InvalidArgs, `monitor '${String(name).slice(0, Limits.name)}' is not one of ${this._monitorNames()}`);
                return;
            }
            let banner;
            try {
                banner = readBanner(fields);
            } catch (error) {
                if (!(error instanceof BannerFieldError))
                    throw error;
                invocation.return_dbus_error(InvalidArgs, error.message);
                return;
            }
            const sender = invocation.get_sender();
            this._watchOwner(sender);
            const key = this._name(monitor);
            if (!this._banners.has(key))
                this._banners.set(key, new MonitorBanner(this, key));
            this._banners.get(key).show(sender, monitor, banner);
            invocation.return_value(null);
        });
    }

    /**
     * Removes the banner of the monitor named, when the caller is the one who showed it: an owner
     * that ended its banner after another owner (another runtime directory on the same display)
     * put its own there leaves that one alone.
     */
    HideAsync(parameters, invocation) {
        this._authorized(invocation, () => {
            const [name] = parameters;
            const banner = this._banners.get(name);
            if (banner !== undefined && banner.owner === invocation.get_sender()) {
                banner.destroy();
                this._banners.delete(name);
            }
            invocation.return_value(null);
        });
    }

    /**
     * Activates the window of the first of `pids` that has one, as a click in the dash does:
     * the call banner raising the calling app (its windows, the topmost first).
     */
    RaiseAsync(parameters, invocation) {
        this._authorized(invocation, () => {
            const [pids] = parameters;
            const windows = global.display.sort_windows_by_stacking(
                global.get_window_actors().map(actor => actor.meta_window)
                    .filter(window => window !== null && !window.is_override_redirect() && !window.is_skip_taskbar())).reverse();
            for (const pid of pids.slice(0, Limits.pids)) {
                const window = windows.find(candidate => candidate.get_pid() === pid);
                if (window !== undefined) {
                    Main.activateWindow(window);
                    invocation.return_value(new GLib.Variant('(b)', [true]));
                    return;
                }
            }
            invocation.return_value(new GLib.Variant('(b)', [false]));
        });
    }

    /** Whether an app shares the screen or the desktop through Mutter (remote-access.js). */
    get Sharing() {
        return this._sharing.sharing;
    }

    /** Stops every share, as the shell's own "Turn off" does: the sharing banner's "Stop sharing". */
    StopSharingAsync(parameters, invocation) {
        this._authorized(invocation, () => invocation.return_value(new GLib.Variant('(u)', [this._sharing.stop()])));
    }

    /** A signal to the owner alone (unicast): no other client hears where the user clicked. */
    emitToOwner(owner, member, parameters) {
        if (owner === null)
            return;
        Gio.DBus.session.emit_signal(owner, ObjectPath, InterfaceName, member, parameters);
    }

    // Callers

    /**
     * Runs `call` when the caller is the shell's own user (asked of the bus once per caller),
     * else answers AccessDenied. Calls of one caller run in the order they came.
     */
    _authorized(invocation, call) {
        const sender = invocation.get_sender();
        if (this._allowed.has(sender)) {
            call();
            return;
        }
        const waiting = this._pending.get(sender);
        if (waiting !== undefined) {
            waiting.push([invocation, call]);
            return;
        }
        this._pending.set(sender, [[invocation, call]]);
        Gio.DBus.session.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            'GetConnectionUnixUser', new GLib.Variant('(s)', [sender]), new GLib.VariantType('(u)'),
            Gio.DBusCallFlags.NONE, 5000, null, (connection, result) => {
                let allowed = false;
                try {
                    const [uid] = connection.call_finish(result).deepUnpack();
                    allowed = uid === this._uid;
                } catch (error) {
                    allowed = false;
                }
                const calls = this._pending.get(sender) ?? [];
                this._pending.delete(sender);
                if (allowed)
                    this._allowed.add(sender);
                for (const [waitingInvocation, waitingCall] of calls) {
                    if (allowed)
                        waitingCall();
                    else
                        waitingInvocation.return_dbus_error(AccessDenied, 'only the session\'s own user may show banners');
                }
            });
    }

    /** `_authorized`, once the monitors' names are known. */
    _authorizedWithNames(invocation, call) {
        this._authorized(invocation, () => this._withNames(call));
    }

    /** Removes the banners of `owner` when it leaves the bus (it ended, or crashed). */
    _watchOwner(owner) {
        if (this._ownerWatches.has(owner))
            return;
        const id = Gio.bus_watch_name_on_connection(Gio.DBus.session, owner, Gio.BusNameWatcherFlags.NONE, null, () => {
            Gio.bus_unwatch_name(this._ownerWatches.get(owner));
            this._ownerWatches.delete(owner);
            this._allowed.delete(owner);
            for (const [name, banner] of this._banners) {
                if (banner.owner === owner) {
                    banner.destroy();
                    this._banners.delete(name);
                }
            }
        });
        this._ownerWatches.set(owner, id);
    }

    // Monitors

    /**
     * How far the shell's struts hold the top of `monitor`, from its top edge, leaving this
     * extension's own chrome out: the bottom of the lowest chrome that reserves that edge —
     * GNOME's top bar, a Dash to Panel panel at the top of any monitor, a dock fixed at the top —
     * and 0 where nothing does (Dash to Panel at the bottom, the top bar hidden or moved). It is
     * read from the chrome the shell turns into struts (`Main.layoutManager`'s tracked actors,
     * as Dash to Panel reads them too) by the rule js/ui/layout.js's `_updateRegions` applies;
     * a shell that keeps them elsewhere falls back to the top bar's box.
     */
    topInset(monitor) {
        const layout = Main.layoutManager;
        const tracked = layout._trackedActors;
        if (!Array.isArray(tracked)) {
            const box = layout.panelBox;
            if (!box.visible || monitor.index !== layout.primaryIndex)
                return 0;
            return Math.max(0, Math.round(box.y + box.height - monitor.y));
        }
        let inset = 0;
        for (const data of tracked) {
            if (!data.affectsStruts || this._isOurs(data.actor))
                continue;
            const bottom = topStrutBottom(data.actor, monitor);
            if (bottom !== null)
                inset = Math.max(inset, bottom - monitor.y);
        }
        return Math.min(inset, monitor.height);
    }

    _isOurs(actor) {
        for (const banner of this._banners.values()) {
            if (banner.owns(actor))
                return true;
        }
        return false;
    }

    /**
     * The struts changed (a panel enabled, disabled or moved, a dock turned on, the top bar
     * hidden): each banner is placed under the new edge. Its own change comes back here too,
     * and then finds nothing to move.
     */
    _placeEveryBanner() {
        for (const [name, banner] of this._banners) {
            const monitor = this._monitor(name);
            if (monitor !== null)
                banner.place(monitor);
        }
    }

    _name(monitor) {
        return this._names.get(monitor.index) ?? `monitor-${monitor.index}`;
    }

    _monitor(name) {
        if (typeof name !== 'string' || name.length > Limits.name)
            return null;
        return Main.layoutManager.monitors.find(monitor => this._name(monitor) === name) ?? null;
    }

    _monitorNames() {
        return Main.layoutManager.monitors.map(monitor => this._name(monitor)).join(', ');
    }

    _updateVisibility() {
        for (const banner of this._banners.values())
            banner.updateVisibility();
    }

    /** The monitors changed: banners on monitors that went are removed, the owner is told. */
    _monitorsChanged() {
        this._namesKnown = false;
        this._withNames(() => {
            const present = new Set(Main.layoutManager.monitors.map(monitor => this._name(monitor)));
            for (const [name, banner] of this._banners) {
                if (!present.has(name)) {
                    banner.destroy();
                    this._banners.delete(name);
                }
            }
            this._dbus.emit_signal('MonitorsChanged', null);
        });
    }

    /**
     * Runs `then` once the monitors' connector names (`DP-1`, `Meta-0`) are known: they come
     * from Mutter's DisplayConfig, the source GNOME's own Settings reads, asked without blocking
     * (it is served by this very process). Where it cannot answer, monitors keep their index
     * names until the next time.
     */
    _withNames(then) {
        if (this._namesKnown) {
            then();
            return;
        }
        if (this._nameWaiters !== null) {
            this._nameWaiters.push(then);
            return;
        }
        this._nameWaiters = [then];
        Gio.DBus.session.call('org.gnome.Mutter.DisplayConfig', '/org/gnome/Mutter/DisplayConfig',
            'org.gnome.Mutter.DisplayConfig', 'GetCurrentState', null, null, Gio.DBusCallFlags.NONE, 5000, null,
            (connection, result) => {
                this._names.clear();
                try {
                    const [, , logicalMonitors] = connection.call_finish(result).deepUnpack();
                    for (const [x, y, , , , specs] of logicalMonitors) {
                        const monitor = Main.layoutManager.monitors.find(candidate => candidate.x === x && candidate.y === y);
                        if (monitor !== undefined && specs.length > 0)
                            this._names.set(monitor.index, String(specs[0][0]).slice(0, Limits.name));
                    }
                    this._namesKnown = true;
                } catch (error) {
                    this._namesKnown = false;
                }
                const waiters = this._nameWaiters;
                this._nameWaiters = null;
                for (const waiting of waiters)
                    waiting();
            });
    }
}
