// Screen sharing as the shell itself sees it: Mutter's remote-access handles, one per screen
// cast or remote-desktop session that an app opened through the portal or Mutter's own D-Bus
// API (what GNOME's top-bar indicator and its "Turn off" use). The shell's own screen recorder
// is a recording, not a share, and is left out. Handles opened before the extension was
// enabled are not known: Mutter announces each once, when it is made. Part of the one source
// scripts/build-extension.sh wraps; it expects `global` in scope.

class SharingWatch {
    /** `onChange(sharing)` runs each time the screen starts or stops being shared. */
    constructor(onChange) {
        this._onChange = onChange;
        this._handles = new Map(); // handle → its `stopped` handler
        this._controller = global.backend.get_remote_access_controller?.() ?? null;
        this._newHandleId = this._controller?.connect('new-handle', (controller, handle) => this._add(handle)) ?? 0;
    }

    get sharing() {
        return this._handles.size > 0;
    }

    /** Stops every share; how many there were. */
    stop() {
        const handles = [...this._handles.keys()];
        for (const handle of handles)
            handle.stop();
        return handles.length;
    }

    destroy() {
        if (this._newHandleId !== 0)
            this._controller.disconnect(this._newHandleId);
        for (const [handle, id] of this._handles)
            handle.disconnect(id);
        this._handles.clear();
    }

    _add(handle) {
        if (handle.is_recording)
            return;
        const wasSharing = this.sharing;
        this._handles.set(handle, handle.connect('stopped', () => {
            handle.disconnect(this._handles.get(handle));
            this._handles.delete(handle);
            if (!this.sharing)
                this._onChange(false);
        }));
        if (!wasSharing)
            this._onChange(true);
    }
}
