// The fields of the extension's `Show` call (banner-service.js), read and checked: what a
// banner can be, and nothing a bug or another client could make the shell allocate. Part of the
// one source scripts/build-extension.sh wraps for every shell; it expects `GLib` and `Clutter`
// in scope.

/** Bounds on every field of `Show`: what a banner can be, and nothing a bug could allocate. */
const Limits = {
    side: 16384, // image width, device pixels
    height: 1024, // image height and reserved height
    offset: 2048, // translation of the image, up or down
    duration: 5, // seconds of a slide
    name: 64, // a monitor's name
    pids: 64, // processes looked for in one Raise
};

const Placements = ['below-panels', 'screen-edge'];
const FullscreenPolicies = ['show', 'delay'];

/** The core's cubic curves (BannerCore's EasingCurve) as Clutter's. */
const Curves = {
    'ease-out': Clutter.AnimationMode.EASE_OUT_CUBIC,
    'ease-in': Clutter.AnimationMode.EASE_IN_CUBIC,
    'ease-in-out': Clutter.AnimationMode.EASE_IN_OUT_CUBIC,
    'linear': Clutter.AnimationMode.LINEAR,
};

/** A `Show` the extension refuses, naming the field. */
class BannerFieldError extends Error {}

/**
 * The fields of one `Show` call, read from its `a{sv}` and checked: a missing or wrong field
 * throws BannerFieldError naming it; unknown keys are ignored (a newer owner's extras).
 */
function readBanner(fields) {
    const read = (key, type, required) => {
        const value = fields[key];
        if (value === undefined) {
            if (required)
                throw new BannerFieldError(`${key} is missing`);
            return undefined;
        }
        if (!(value instanceof GLib.Variant) || value.get_type_string() !== type)
            throw new BannerFieldError(`${key} is not of type ${type}`);
        return type === 'ay' ? value.get_data_as_bytes() : value.unpack();
    };
    const number = (key, type, low, high, required = false) => {
        const value = read(key, type, required);
        if (value !== undefined && !(Number.isFinite(value) && value >= low && value <= high))
            throw new BannerFieldError(`${key} ${value} is outside ${low}…${high}`);
        return value;
    };
    const choice = (key, choices) => {
        const value = read(key, 's', false);
        if (value !== undefined && !choices.includes(value))
            throw new BannerFieldError(`${key} '${value.slice(0, 32)}' is not one of ${choices.join(', ')}`);
        return value;
    };

    const banner = {
        serial: number('serial', 'u', 0, 0xffffffff, true),
        reserve: number('reserve', 'i', 0, Limits.height, true),
        placement: choice('placement', Placements) ?? 'below-panels',
        fullscreen: choice('fullscreen', FullscreenPolicies) ?? 'delay',
        offset: number('offset', 'd', -Limits.offset, Limits.offset),
        slideTo: number('slideTo', 'd', -Limits.offset, Limits.offset),
        slideDuration: number('slideDuration', 'd', 0, Limits.duration) ?? 0,
        curve: choice('curve', Object.keys(Curves)) ?? 'ease-out',
    };
    const pixels = read('pixels', 'ay', false);
    if (pixels !== undefined) {
        const width = number('width', 'i', 1, Limits.side, true);
        const height = number('height', 'i', 1, Limits.height, true);
        const stride = number('stride', 'i', width * 4, Limits.side * 4, true);
        if (pixels.get_size() !== stride * height)
            throw new BannerFieldError(`pixels has ${pixels.get_size()} bytes, not stride × height = ${stride * height}`);
        banner.image = {pixels, width, height, stride};
    }
    return banner;
}
