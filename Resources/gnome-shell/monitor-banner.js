// One monitor's banner in WindowBanner's GNOME Shell extension: its chrome, which reserves the
// banner's height as a strut, the clip under the top bar and the sliding image. Concatenated after
// banner-service.js (BannerService, which makes one per monitor showing a banner, and reports
// the monitors in the device pixels `devicePixelsPerUnit` below gives) by
// scripts/build-extension.sh; the same names are in scope. Start reading at `MonitorBanner`.

/**
 * Device pixels per stage unit on `monitor`. 1 where the stage is laid out in device pixels
 * (GNOME's whole-number scales, where St's scale factor scales the UI); the monitor's own scale
 * where Mutter lays the stage out in logical pixels and renders each monitor at its scale
 * (fractional scaling, `scale-monitor-framebuffer`). The owner lays out and draws in device
 * pixels at the monitor's scale; the extension turns its sizes into stage units, so the image
 * lands on the monitor's pixels one to one, as sharp as the shell's own text.
 */
function devicePixelsPerUnit(monitor) {
    const interfaceScale = St.ThemeContext.get_for_stage(global.stage).scale_factor;
    const monitorScale = global.display.get_monitor_scale(monitor.index);
    return monitorScale > 0 && interfaceScale > 0 ? monitorScale / interfaceScale : 1;
}

/**
 * The bottom edge (stage y) of the top strut that `actor` gives `monitor`, or null where it gives
 * none there: the shell's own rule (js/ui/layout.js, `_updateRegions`) — the actor's box on
 * the stage, clipped to the screen, on the monitor the shell finds for it, counts as a top strut
 * when it spans the monitor's width from its top edge, or touches the top edge only (a corner
 * touching the left edge is a left strut).
 */
function topStrutBottom(actor, monitor) {
    const found = Main.layoutManager.findMonitorForActor(actor);
    if (found === null || found === undefined || found.index !== monitor.index)
        return null;
    const [x, y] = actor.get_transformed_position();
    const [width, height] = actor.get_transformed_size();
    const x1 = Math.max(Math.round(x), 0);
    const x2 = Math.min(Math.round(x) + Math.round(width), global.screen_width);
    const y1 = Math.max(Math.round(y), 0);
    const y2 = Math.min(Math.round(y) + Math.round(height), global.screen_height);
    const left = x1 <= monitor.x;
    const right = x2 >= monitor.x + monitor.width;
    const top = y1 <= monitor.y;
    const bottom = y2 >= monitor.y + monitor.height;
    let isTop;
    if (left && right)
        isTop = top;
    else if (top && bottom)
        isTop = false;
    else
        isTop = !left && top;
    return isTop && y2 > monitor.y ? y2 : null;
}

/**
 * One monitor's banner: the chrome that reserves its space (from the monitor's top edge down
 * to the banner's bottom, so the strut counts — a strut must touch the edge), a clip under the
 * top bar, and the image inside it, which slides. The chrome is resized once per show and once
 * per dismissal; the image moves without touching it, so windows are laid out again only then.
 */
class MonitorBanner {
    constructor(service, monitorName) {
        this._service = service;
        this.monitorName = monitorName;
        this.owner = null;
        this._serial = 0;
        this._fullscreen = null;
        this._chrome = null;
        this._placement = 'below-panels';
        this._reserve = 0;
        this._ratio = 1;
        this._paintedHandler = 0;
    }

    /** Shows `banner` (checked by readBanner) for `owner`, the caller's unique bus name. */
    show(owner, monitor, banner) {
        if (banner.reserve === 0) {
            this.destroy();
            return;
        }
        this.owner = owner;
        this._serial = banner.serial;
        if (this._chrome === null || this._fullscreen !== banner.fullscreen)
            this._makeChrome(banner.fullscreen);
        this._placement = banner.placement;
        this._reserve = banner.reserve;
        this.place(monitor);
        if (banner.image !== undefined)
            this._setImage(banner.image);
        if (banner.offset !== undefined) {
            this._image.remove_all_transitions();
            this._image.translation_y = banner.offset / this._ratio;
        }
        if (banner.slideTo !== undefined) {
            this._image.ease({
                translation_y: banner.slideTo / this._ratio,
                duration: Math.round(banner.slideDuration * 1000),
                mode: Curves[banner.curve],
            });
        }
        this.updateVisibility();
    }

    /**
     * Puts the chrome on `monitor`, from its top edge down to the banner's bottom, with the
     * banner directly under whatever else holds that edge (or at the very edge, placed there).
     * Moves or resizes nothing that is already right: the windows are laid out again only when
     * the reserved height really changes.
     */
    place(monitor) {
        if (this._chrome === null)
            return;
        // The owner's device pixels in stage units; the strut a whole number of them.
        this._ratio = devicePixelsPerUnit(monitor);
        const reserve = Math.round(this._reserve / this._ratio);
        if (this._image !== null && this._content !== null)
            this._image.set_size(this._content.preferred_width / this._ratio, this._content.preferred_height / this._ratio);
        const inset = this._placement === 'below-panels' ? this._service.topInset(monitor) : 0;
        if (this._chrome.x !== monitor.x || this._chrome.y !== monitor.y)
            this._chrome.set_position(monitor.x, monitor.y);
        if (this._chrome.width !== monitor.width || this._chrome.height !== inset + reserve)
            this._chrome.set_size(monitor.width, inset + reserve);
        this._clip.set_position(0, inset);
        this._clip.set_size(monitor.width, reserve);
    }

    /** Whether `actor` is this banner's chrome (its strut is left out of the others'). */
    owns(actor) {
        return this._chrome !== null && actor === this._chrome;
    }

    /** Hidden in the overview and while the screen is locked; the space stays reserved. */
    updateVisibility() {
        if (this._clip !== null && this._clip !== undefined)
            this._clip.visible = !Main.overview.visible && !Main.sessionMode.isLocked;
    }

    /**
     * The chrome for `fullscreen` (its tracking is fixed when it is added): made on the first
     * show, and again when the policy changes — the image, with its content and place, moves
     * into the new one.
     */
    _makeChrome(fullscreen) {
        const old = this._chrome;
        this._chrome = new St.Widget({name: 'window-banner', reactive: false, x: 0, y: 0, width: 0, height: 0});
        const clip = new St.Widget({clip_to_allocation: true, reactive: false});
        if (old !== null) {
            clip.set_position(this._clip.x, this._clip.y);
            clip.set_size(this._clip.width, this._clip.height);
            this._clip.remove_child(this._image);
            this._chrome.set_position(old.x, old.y);
            this._chrome.set_size(old.width, old.height);
        } else {
            this._image = new St.Widget({reactive: true, track_hover: false});
            this._content = null;
            this._image.connect('button-press-event', (actor, event) => this._button(event, true));
            this._image.connect('button-release-event', (actor, event) => this._button(event, false));
            this._image.connect('scroll-event', (actor, event) => this._scroll(event));
        }
        this._clip = clip;
        this._clip.add_child(this._image);
        this._chrome.add_child(this._clip);
        // 'delay': under a full-screen window until it ends (the chrome hides, like the top bar).
        Main.layoutManager.addChrome(this._chrome, {affectsStruts: true, trackFullscreen: fullscreen === 'delay'});
        this._fullscreen = fullscreen;
        if (old !== null) {
            Main.layoutManager.removeChrome(old);
            old.destroy();
        }
    }

    _setImage(image) {
        if (this._content === null || this._content.preferred_width !== image.width || this._content.preferred_height !== image.height) {
            this._content = St.ImageContent.new_with_preferred_size(image.width, image.height);
            this._image.set_content(this._content);
        }
        const format = Cogl.PixelFormat.BGRA_8888_PRE;
        // St.ImageContent.set_bytes takes the Cogl context first since GNOME 46, which is also
        // when Clutter.Stage got its `context`: the stage is asked, not the version.
        const stageContext = global.stage.context;
        if (stageContext !== undefined && stageContext !== null) {
            const context = stageContext.get_backend().get_cogl_context();
            this._content.set_bytes(context, image.pixels, format, image.width, image.height, image.stride);
        } else {
            this._content.set_bytes(image.pixels, format, image.width, image.height, image.stride);
        }
        this._image.set_size(image.width / this._ratio, image.height / this._ratio);
        this._reportPaint();
    }

    /** Tells the owner once the stage has painted this image (what `make bench` times). */
    _reportPaint() {
        if (this._paintedHandler !== 0)
            return;
        this._paintedHandler = global.stage.connect('after-paint', () => {
            global.stage.disconnect(this._paintedHandler);
            this._paintedHandler = 0;
            this._service.emitToOwner(this.owner, 'Painted', new GLib.Variant('(su)', [this.monitorName, this._serial]));
        });
    }

    _button(event, pressed) {
        const code = event.get_button();
        this._pointer(code === Clutter.BUTTON_PRIMARY ? 'primary' : 'other', pressed, event);
        if (pressed && this._grab === undefined)
            this._grab = global.stage.grab(this._image);
        if (!pressed && this._grab !== undefined) {
            this._grab.dismiss();
            this._grab = undefined;
        }
        return Clutter.EVENT_STOP;
    }

    _scroll(event) {
        const direction = event.get_scroll_direction();
        const up = direction === Clutter.ScrollDirection.UP ||
            (direction === Clutter.ScrollDirection.SMOOTH && event.get_scroll_delta()[1] < 0);
        if (up)
            this._pointer('wheel-up', true, event);
        return Clutter.EVENT_STOP;
    }

    /** The pointer's position in the image's own pixels, to the owner alone. */
    _pointer(button, pressed, event) {
        const [stageX, stageY] = event.get_coords();
        const [, x, y] = this._image.transform_stage_point(stageX, stageY);
        this._service.emitToOwner(this.owner, 'Pointer',
            new GLib.Variant('(susbii)', [this.monitorName, this._serial, button, pressed, Math.round(x * this._ratio), Math.round(y * this._ratio)]));
    }

    /** Removes the banner and its strut: the windows get the space back. */
    destroy() {
        if (this._paintedHandler !== 0) {
            global.stage.disconnect(this._paintedHandler);
            this._paintedHandler = 0;
        }
        if (this._grab !== undefined) {
            this._grab.dismiss();
            this._grab = undefined;
        }
        if (this._chrome !== null) {
            Main.layoutManager.removeChrome(this._chrome);
            this._chrome.destroy();
        }
        this._chrome = null;
        this._clip = null;
        this._image = null;
        this._content = null;
        this.owner = null;
    }
}
